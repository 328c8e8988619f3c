"""The extractive consolidator itself: groups units into episodes, writes or merges their narratives, and
refines typed items with contradiction checks (see the package docstring)."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

from core.config import config
from memory.consolidators.extractive.anaphora import reference
from memory.consolidators.extractive.classification import _Candidate, _classify, _procedure, _subject_for
from memory.consolidators.extractive.lexicons import _INLINE_STEP_RE, _NUMBERED_LINE_RE, PLACEHOLDER_RE, TYPE_RANK
from memory.consolidators.extractive.narrative import _capitalise, _date_text, _narrate, _title, _top_phrase
from memory.consolidators.extractive.parsing import (
    _category,
    _clip,
    _is_question,
    _is_trivial,
    _key_terms,
    _one_line,
    _Parser,
    _term,
    _UnitParse,
    _words,
    spacy_model_name,
)
from memory.consolidators.extractive.rewriting import _relative_date, _stated_end, _third_person
from memory.consolidators.extractive.topics import _contradicts, _Profile, _profile
from memory.consolidators.types import (
    SESSION_PASS_TYPES,
    BaseConsolidator,
    CallSink,
    EpisodeDraft,
    ExistingEpisode,
    ExistingExperience,
    ExperienceDraft,
    Unit,
    episode_bounds,
    normalise_tags,
    unit_time,
)
from memory.gateways.tokens import count_tokens
from memory.informativeness import is_boilerplate


def _cosine(a: Sequence[float], b: Sequence[float]) -> float:
    dot = math.fsum(x * y for x, y in zip(a, b, strict=False))
    na = math.sqrt(math.fsum(x * x for x in a))
    nb = math.sqrt(math.fsum(y * y for y in b))
    return dot / (na * nb) if na and nb else 0.0


def _mean(vectors: Sequence[Sequence[float]]) -> list[float]:
    return [math.fsum(col) / len(vectors) for col in zip(*vectors, strict=True)]


def _overlap(a: Iterable[str], b: Iterable[str]) -> float:
    set_a, set_b = set(a), set(b)
    if not set_a or not set_b:
        return 0.0
    return len(set_a & set_b) / min(len(set_a), len(set_b))


class ExtractiveConsolidator(BaseConsolidator):
    """Deterministic consolidation from spaCy parses and rules (zero tokens, no network).

    ``embedder`` (optional) is used to split units into episodes by similarity; without it, episodes are split at
    session changes that share no key terms. ``merge_threshold``: minimum similarity of the existing episode for
    a merge; ``split_similarity``: below it (cosine to the current episode) a unit starts a new episode;
    ``max_gap``: a longer pause between units also starts a new episode (when the topic is not clearly shared).
    """

    kind = "extractive"
    notice = "extractive consolidation (no LLM endpoint configured): zero tokens, lower quality than an LLM"

    def __init__(
        self,
        embedder: Any | None = None,
        *,
        merge_threshold: float = 0.6,
        split_similarity: float = 0.3,
        max_gap: timedelta = timedelta(days=30),
        max_items_per_unit: int = 2,
        narrative_max_tokens: int | None = None,
        spacy_model: str | None = None,
    ) -> None:
        self.embedder = embedder
        self.merge_threshold = merge_threshold
        self.split_similarity = split_similarity
        self.max_gap = max_gap
        self.max_items_per_unit = max_items_per_unit
        self.narrative_max_tokens = int(narrative_max_tokens or config().consolidation.extractive_narrative_tokens)
        self.spacy_model = spacy_model or spacy_model_name()
        self.model = f"extractive:{self.spacy_model}"
        self._parser = _Parser(self.spacy_model)

    def __repr__(self) -> str:
        return f"<ExtractiveConsolidator {self.spacy_model}>"

    # -- parsing ----------------------------------------------------------------------------------------

    def _parse_units(self, units: Sequence[Unit]) -> list[_UnitParse]:
        texts: list[str] = []
        for unit in units:
            texts.extend([unit.user or "", unit.assistant or ""])
        docs = self._parser.parse_many(texts)
        return [_UnitParse(unit, docs[2 * i], docs[2 * i + 1]) for i, unit in enumerate(units)]

    # -- episodes ---------------------------------------------------------------------------------------

    def merge_episode(
        self, *, existing: ExistingEpisode, units: list[Unit], on_call: CallSink | None = None
    ) -> EpisodeDraft | None:
        ordered = self.order_units(units)
        if not ordered or existing.similarity < self.merge_threshold:
            return None
        parses = self._parse_units(ordered)
        old_terms = set(_key_terms(self._parser.parse(f"{existing.title}. {existing.narrative}")))
        new_terms: set[str] = set()
        for parse in parses:
            new_terms |= set(parse.terms)
        if not old_terms & new_terms:
            return None
        dates = re.findall(r"\b(\d{4}-\d{2}-\d{2})\b", existing.narrative)
        # What is new gets the room the narrative has left, and at least a third of the budget: a merged episode
        # grows by its most informative news until RECMEM_EPISODE_MAX_TOKENS starts a new one. (Refusing merges
        # into a full narrative instead kept episodes shorter but split topics: LoCoMo evidence recall 0.82 → 0.78.)
        room = max(self.narrative_max_tokens - count_tokens(existing.narrative), self.narrative_max_tokens // 3)
        addition = _narrate(parses, previous_date=dates[-1] if dates else "", max_tokens=room)
        narrative = existing.narrative.rstrip()
        if addition:
            narrative = f"{narrative} {addition}" if narrative else _capitalise(addition)
        started, ended = episode_bounds(ordered)
        return EpisodeDraft(
            title=existing.title or _title(parses),
            narrative=narrative,
            unit_ids=[u.id for u in ordered],
            started_at=started,
            ended_at=ended,
        )

    def write_episodes(self, *, units: list[Unit], on_call: CallSink | None = None) -> list[EpisodeDraft]:
        ordered = self.order_units(units)
        if not ordered:
            return []
        parses = self._parse_units(ordered)
        segments = self._segment(parses)
        episodes = []
        for segment in segments:
            narrative = _capitalise(_narrate(segment, max_tokens=self.narrative_max_tokens)) or " ".join(
                f"On {_date_text(unit_time(p.unit)) or 'an unknown date'}, the user said: "
                f'"{_clip(_one_line(p.unit.user))}"'
                for p in segment
            )
            started, ended = episode_bounds(p.unit for p in segment)
            episodes.append(
                EpisodeDraft(
                    title=_title(segment),
                    narrative=narrative,
                    unit_ids=[p.unit.id for p in segment],
                    started_at=started,
                    ended_at=ended,
                )
            )
        return episodes

    def _segment(self, parses: list[_UnitParse]) -> list[list[_UnitParse]]:
        """Group chronologically ordered units into at most 3 topical groups (not necessarily contiguous:
        interleaved topics are told apart), each kept in chronological order."""
        vectors: list[list[float]] | None = None
        if self.embedder is not None and len(parses) > 1:
            texts = [f"user: {_one_line(p.unit.user)}\nassistant: {_one_line(p.unit.assistant)}" for p in parses]
            vectors = self.embedder.embed(texts)
        groups: list[list[int]] = []
        group_of: dict[int, int] = {}
        for i, parse in enumerate(parses):
            if not groups:
                groups.append([i])
                group_of[i] = 0
                continue
            previous = parses[i - 1].unit
            scores = [self._group_similarity(parses, vectors, [i], group) for group in groups]
            best = max(range(len(groups)), key=lambda g: (scores[g], -g))
            last_time = unit_time(parses[groups[best][-1]].unit)
            time = unit_time(parse.unit)
            long_gap = last_time is not None and time is not None and _gap(last_time, time) > self.max_gap
            if vectors is not None:
                join = scores[best] >= self.split_similarity and not (long_gap and scores[best] < 0.5)
                target = best
            elif (
                parse.unit.session_id == previous.session_id
                or not parse.terms
                or not any(parses[j].terms for j in groups[group_of[i - 1]])
            ):
                join, target = True, group_of[i - 1]  # without an embedder a session stays together
            else:
                join = scores[best] > 0.0 and not (long_gap and scores[best] < 0.2)
                target = best
            if join:
                groups[target].append(i)
                group_of[i] = target
            else:
                groups.append([i])
                group_of[i] = len(groups) - 1
        while len(groups) > 3:  # merge the two most similar groups until at most 3 remain
            pairs = [(a, b) for a in range(len(groups)) for b in range(a + 1, len(groups))]
            a, b = max(
                pairs, key=lambda p: (self._group_similarity(parses, vectors, groups[p[0]], groups[p[1]]), -p[0], -p[1])
            )
            groups[a] = sorted(groups[a] + groups[b])
            del groups[b]
        groups.sort(key=lambda g: g[0])
        return [[parses[i] for i in group] for group in groups]

    @staticmethod
    def _group_similarity(
        parses: list[_UnitParse], vectors: list[list[float]] | None, a: list[int], b: list[int]
    ) -> float:
        if vectors is not None:
            return _cosine(_mean([vectors[i] for i in a]), _mean([vectors[i] for i in b]))
        terms_a: set[str] = set()
        terms_b: set[str] = set()
        for i in a:
            terms_a |= set(parses[i].terms)
        for i in b:
            terms_b |= set(parses[i].terms)
        return _overlap(terms_a, terms_b)

    # -- semantic items ---------------------------------------------------------------------------------

    def candidates(self, parse: _UnitParse) -> list[_Candidate]:
        """Every typed candidate of one unit, best first (not yet capped)."""
        unit = parse.unit
        found: list[_Candidate] = []
        seen_statements: set[str] = set()
        for role, doc in (("user", parse.user_doc), ("assistant", parse.assistant_doc)):
            procedure = _procedure(unit, role, doc, unit.user or "")
            if procedure is not None:
                procedure.subject = self._procedure_subject(parse, role)
                procedure.statement = f"Steps for {procedure.subject}: {procedure.statement}."
                found.append(procedure)
                break
        # The user's sentences, and the assistant's that state a lesson or a rule outright ("Lesson: …").
        sentences = [(s, *_framing(s.span)) for s in parse.user_sentences]
        sentences += [(s, core, forced) for s in parse.assistant_sentences
                      for core, forced in [_framing(s.span)] if forced]
        for sentence, span, forced in sentences:
            classified = _classify(span)
            if forced and (classified is None or classified[0] != forced):
                classified = (forced, 0.75, None)
            if classified is None:
                continue
            kind, confidence, trigger = classified
            if kind == "procedure":
                continue
            statement = _third_person(span, reference(span))
            valid_from = unit_time(unit)
            if kind == "event":
                when, note = _relative_date(span.text, unit_time(unit))
                if note:
                    statement = statement.rstrip(".!") + note + "."
                if when is not None:
                    valid_from = when
            key = statement.lower()
            if not statement or key in seen_statements:
                continue
            seen_statements.add(key)
            subject = _subject_for(kind, span, trigger)
            profile = _profile(span, subject) if kind in ("preference", "constraint") else None
            found.append(
                _Candidate(
                    type=kind,
                    subject=subject,
                    statement=statement,
                    unit=unit,
                    confidence=confidence,
                    valid_from=valid_from,
                    position=sentence.position,
                    profile=profile,
                    valid_to=_stated_end(span.text, unit_time(unit)),
                )
            )
        found.sort(key=lambda c: (-c.confidence, TYPE_RANK[c.type], c.position))
        return found

    def _procedure_subject(self, parse: _UnitParse, role: str) -> str:
        """The topic of a how-to: what the user asked about when the assistant gave the steps; when the user
        wrote the steps, their introduction, else the reply, else the steps themselves."""
        if role == "assistant":
            docs = [parse.user_doc, parse.assistant_doc]
        else:
            text = parse.unit.user or ""
            first = _NUMBERED_LINE_RE.search(text) or _INLINE_STEP_RE.search(text)
            intro = text[: first.start()] if first else ""
            docs = [self._parser.parse(intro)] if len(intro.split()) >= 3 else []
            docs += [parse.assistant_doc, parse.user_doc]
        for doc in docs:
            phrase = _top_phrase([doc])
            if phrase:
                return phrase if PLACEHOLDER_RE.search(phrase) else phrase.lower()
        return "the task"

    def _related_profiles(self, related: list[ExistingExperience]) -> list[tuple[ExistingExperience, _Profile, set]]:
        """(experience, profile of its statement, normalised terms of its subject) for each related item."""
        if not related:
            return []
        texts: list[str] = []
        for exp in related:
            texts.extend([exp.statement or "", exp.subject or ""])
        docs = self._parser.parse_many(texts)
        profiles = []
        for i, exp in enumerate(related):
            statement_doc, subject_doc = docs[2 * i], docs[2 * i + 1]
            words = [t for t in subject_doc if not t.is_punct and not t.is_space]
            subject_terms = {_term(t) for t in words if not t.is_stop}
            subject_terms |= {_category(t) for t in subject_terms}
            head = _category(_term(words[-1])) if words else ""
            profile = _profile(statement_doc[:], head or None)
            if head:
                profile.head = head
            profiles.append((exp, profile, subject_terms))
        return profiles

    def refine(
        self,
        *,
        episodes: list[EpisodeDraft],
        units: list[Unit],
        related: list[ExistingExperience],
        on_call: CallSink | None = None,
    ) -> list[ExperienceDraft]:
        ordered = self.order_units(units)
        if not ordered:
            return []
        parses = self._parse_units(ordered)
        related_profiles = self._related_profiles(related)
        chosen: list[_Candidate] = []
        by_statement: dict[tuple[str, str], _Candidate] = {}
        for parse in parses:
            kept = 0
            for candidate in self.candidates(parse):
                if kept >= self.max_items_per_unit:
                    break
                key = (candidate.type, candidate.statement.lower().rstrip("."))
                previous = by_statement.get(key)
                if previous is not None:
                    if candidate.unit.id not in previous.evidence:
                        previous.evidence.append(candidate.unit.id)
                        previous.confidence = min(0.9, previous.confidence + 0.05)
                    continue
                candidate.evidence = [candidate.unit.id]
                by_statement[key] = candidate
                chosen.append(candidate)
                kept += 1
        drafts = []
        for candidate in chosen:
            contradicts: list[str] = []
            if candidate.profile is not None:
                for exp, profile, subject_terms in related_profiles:
                    if exp.type != candidate.type:
                        continue
                    if _contradicts(candidate.profile, profile, exp.similarity, subject_terms):
                        contradicts.append(exp.id)
            drafts.append(
                ExperienceDraft(
                    type=candidate.type,
                    subject=candidate.subject,
                    statement=candidate.statement,
                    evidence=list(candidate.evidence),
                    valid_from=candidate.valid_from,
                    valid_to=candidate.valid_to,
                    confidence=round(candidate.confidence, 3),
                    contradicts=contradicts,
                    tags=normalise_tags([w for w in candidate.subject.split() if len(w) > 3][:3]
                                        or [candidate.subject]),
                )
            )
        return drafts

    def distil_session(
        self, *, units: list[Unit], related: list[ExistingExperience], on_call: CallSink | None = None
    ) -> list[ExperienceDraft]:
        """The session-level pass of an idle run: the lessons, procedures and preferences the rules find."""
        return [d for d in self.refine(episodes=[], units=units, related=related, on_call=on_call)
                if d.type in SESSION_PASS_TYPES]

    def topic_sentences(self, units: list[Unit]) -> list[ExperienceDraft]:
        """Every declarative sentence of the units, of either speaker, as a draft: what a shared topic's statement
        is chosen from when the rules found none in it ("Refunds over 200 euros need a team lead's approval" has no
        rule form; "anything above 200 euros has to be approved by a team lead first" is the assistant's answer).
        Typed by the rules, else a constraint when it obliges, else a fact. Not the assistant speaking of itself
        ("I will ask a team lead …"), not a question, not an acknowledgement."""
        drafts: list[ExperienceDraft] = []
        seen: set[str] = set()
        for parse in self._parse_units(self.order_units(units)):
            for sentence in [*parse.user_sentences, *parse.assistant_sentences]:
                span, forced = _framing(sentence.span)
                while len(span) > 4 and (span[0].lower_ in _ANSWER_WORDS or span[0].is_punct):
                    span = span[1:]  # "No, anything above …", "Right, a refund that size …"
                if _is_question(span) or len(_words(span)) < 5 or _is_trivial(span) or is_boilerplate(span.text):
                    continue
                if sentence.role == "assistant" and any(t.lower_ in ("i", "i'll", "me", "my") for t in span):
                    continue
                if sentence.role == "user" and _a_request(span):
                    continue
                classified = _classify(span)
                if classified is not None:
                    kind, confidence = classified[0], classified[1]
                else:
                    kind, confidence = forced or ("constraint" if _OBLIGES_RE.search(span.text) else "fact"), 0.5
                if kind in ("procedure", "event"):
                    continue
                statement = _capitalise(_third_person(span, reference(span)))
                if not statement or statement.lower() in seen:
                    continue
                seen.add(statement.lower())
                subject = _subject_for(kind, span, None)
                drafts.append(ExperienceDraft(type=kind, subject=subject, statement=statement,
                                              evidence=[parse.unit.id], valid_from=unit_time(parse.unit),
                                              confidence=confidence,
                                              tags=normalise_tags([w for w in subject.split() if len(w) > 3][:3]
                                                                  or [subject])))
        return drafts

    # -- single statements (the benchmarks' extractive eager baseline, bench.eager) ------------------------------

    def statements(self, unit: Unit, limit: int = 3) -> list[str]:
        """The typed statements of one unit (no cap per type), for the eager baseline without an LLM."""
        parse = self._parse_units([unit])[0]
        return [c.statement for c in self.candidates(parse)[:limit]]

    def contradicted(self, statement: str, existing: list[ExistingExperience]) -> list[str]:
        """Ids of ``existing`` items that ``statement`` contradicts (same subject, other polarity or object)."""
        if not existing:
            return []
        doc = self._parser.parse(statement)
        new = _profile(doc[:])
        result = []
        for exp, profile, subject_terms in self._related_profiles(existing):
            if _contradicts(new, profile, exp.similarity, subject_terms):
                result.append(exp.id)
        return result


# A sentence's framing ("Again:", "Reminder:", "Remember that", "Team rule:", "Lesson: …") is not part of what it
# states; a lesson or rule label types it.
_FRAME_WORDS = {"again", "reminder", "remember", "note", "fyi", "psa", "update", "please", "so", "also", "btw",
                "that", "change", "of", "plan", "ok", "okay", "well"}
# An answer's opening word: "No, anything above 200 euros …", "Right, a refund that size …".
_ANSWER_WORDS = {"no", "yes", "right", "exactly", "correct", "sure", "okay", "ok", "well", "agreed", "nope", "yep"}
_OBLIGES_RE = re.compile(r"\b(must|has to|have to|needs?|required|requires?|may only|only \w+ may|not allowed|"
                         r"never|mandatory)\b", re.I)
# (and chat's hedges before a statement: "fwiw, everything we model lives in Snowflake")
_LEADING = {"again", "reminder", "remember", "note", "fyi", "please", "btw", "also", "fwiw", "afaik", "iirc", "ftr"}
_LESSON_LABELS = {"lesson", "lessons", "learned", "learnt", "takeaway"}
_RULE_LABELS = {"rule", "rules", "policy", "constraint"}
# A word of a standing rule: "Add a test for every bug fix" is the team's rule, "Write a regex that …" one request.
_STANDING_RE = re.compile(r"\b(every|each|all|any|always|never|whenever|before|after|only|must|should|from now on|"
                          r"going forward|by default|unless)\b", re.I)


def _a_request(span: Any) -> bool:
    """A request for one piece of work: an imperative whose object is something to make ("Suggest a name for the new
    churn dashboard", "Write a regex that matches a version string") or a person to make it for ("give me …"), with
    no word of a standing rule. Asked once of the assistant, it says nothing the team holds (the paraphrase teams'
    filler: such a request was a shared topic's statement)."""
    verb = next((t for t in span if not t.is_punct), None)
    if verb is None or verb.tag_ != "VB" or verb.dep_ != "ROOT" or _STANDING_RE.search(span.text):
        return False
    for c in verb.children:
        if c.dep_ == "dative" or (c.dep_ == "dobj" and c.lower_ in ("me", "us")):
            return True  # someone to make it for
        if c.dep_ == "dobj" and any(d.lower_ in ("a", "an", "some") for d in c.children):
            return True  # something to make
    return False


# Openings that address the listener or acknowledge, never part of the statement: "Heads up for the new folks:",
# "Just so you know,", "Understood —", "Noted,", "Got it,".
_FRAME_PHRASES = (("heads", "up"), ("just", "so", "you", "know"), ("for", "the", "record"), ("got", "it"),
                  ("understood",), ("noted",), ("for", "context"))


# A label that says who passed the message on or what kind of message it is, never what it states: "Gentle reminder
# from Aurelio:", "Postmortem summary from <PERSON_1>:", "Quick update from the platform team:", "Per Dana:". Its head
# is a noun of a message (or there is none: "Per Dana"), the rest its modifiers and its source after from/by/per.
_MESSAGE_NOUNS = {"reminder", "summary", "update", "note", "notes", "message", "recap", "tip", "word", "psa",
                  "announcement", "notice", "reply", "answer", "feedback", "advice", "comment", "memo", "writeup",
                  "report", "digest", "heads", "fyi", "nudge", "callout", "shoutout", "tldr", "takeaways", "minutes"}
_SOURCE_PREPOSITIONS = {"from", "by", "per", "via"}


def _attribution_label(label: list) -> bool:
    """Whether the tokens before a sentence's colon are only a message's kind and its source (see above)."""
    source = next((i for i, t in enumerate(label) if t.lower_ in _SOURCE_PREPOSITIONS), None)
    kind = [t for t in label[:source] if not (t.is_punct or t.pos_ in ("DET", "ADJ", "ADV"))]
    if not kind:
        return source == 0 and len(label) > 1  # "Per Dana:", "Via the SRE channel:"
    # the small model tags a message noun opening a sentence as a verb at times ("Note from standup:")
    nouns = all(t.pos_ in ("NOUN", "PROPN") or t.lower_ in _MESSAGE_NOUNS for t in kind)
    return kind[-1].lower_ in _MESSAGE_NOUNS and nouns and (source is None or len(label) - source > 1)


def _frame_phrase(words: list) -> int:
    """How many of ``words``' first tokens are a framing phrase (0 when none)."""
    lower = [w.lower_ for w in words[:4]]
    return next((len(p) for p in _FRAME_PHRASES if tuple(lower[:len(p)]) == p), 0)


def _framing(span: Any) -> tuple[Any, str]:
    """(the sentence without its framing, the type its label forces or "")."""
    tokens = list(span)
    colon = next((i for i, t in enumerate(tokens[:10]) if t.text in (":", "—", "-") and 0 < i < len(tokens) - 3),
                 None)
    forced = ""
    if colon is not None:
        label = {t.lower_ for t in tokens[:colon]}
        if label & _LESSON_LABELS:
            forced = "lesson"
        elif label & _RULE_LABELS:
            forced = "constraint"
        if forced or label <= _FRAME_WORDS | {"the", "a", "our", "team", "'s", "quick", "one", "more", "time"} \
                or (_frame_phrase(tokens[:colon]) and tokens[colon].text != "-" and colon <= 6) \
                or (tokens[colon].text == ":" and colon <= 8 and _attribution_label(tokens[:colon])):
            span = span[colon + 1:]
    start = 0
    words = list(span)
    while start < len(words) - 3:
        phrase = _frame_phrase(words[start:])
        if phrase:
            start += phrase
        elif words[start].lower_ in _LEADING or words[start].is_punct or (
                words[start].lower_ == "that" and start and words[start - 1].lower_ == "remember"):
            start += 1
        else:
            break
    return (span[start:] if start else span), forced


def _gap(a: datetime, b: datetime) -> timedelta:
    try:
        return abs(b - a)
    except TypeError:  # naive vs aware
        return abs(b.replace(tzinfo=None) - a.replace(tzinfo=None))
