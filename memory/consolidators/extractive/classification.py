"""Typed candidates from sentences: rules over the parse classify a user sentence as preference, constraint,
event, lesson, pattern or fact (:func:`_classify`), choose its subject (:func:`_subject_for`), and find ordered
how-tos in a unit (:func:`_procedure`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from memory.consolidators.extractive.lexicons import (
    _FACT_VERB_SUBJECTS,
    _INLINE_STEP_RE,
    _NUMBERED_LINE_RE,
    _SEQUENCE_PREFIX_RE,
    _STEP_LINE_RE,
    CONSTRAINT_PHRASES,
    CONSTRAINT_STRONG,
    CONSTRAINT_WEAK_PHRASES,
    HOWTO_CUES,
    LESSON_PHRASES,
    LESSON_WORDS,
    PATTERN_PHRASES,
    PATTERN_WORDS,
    PREF_ADJ,
    PREF_STRONG,
    SEQUENCE_WORDS,
    WEEKDAYS,
)
from memory.consolidators.extractive.parsing import (
    _clip,
    _first_person,
    _is_placeholder,
    _is_question,
    _is_trivial,
    _one_line,
    _subject_is_i,
    _term,
    _words,
)
from memory.consolidators.extractive.rewriting import _has_time_expression
from memory.consolidators.extractive.topics import _Profile, _subject_from_token, _topic_token, _trigger
from memory.consolidators.types import Unit, unit_time
from memory.informativeness import is_boilerplate


@dataclass
class _Candidate:
    type: str
    subject: str
    statement: str
    unit: Unit
    confidence: float
    valid_from: datetime | None
    position: int
    profile: _Profile | None = None
    evidence: list[str] = field(default_factory=list)
    valid_to: datetime | None = None  # an end the sentence states ("until Friday")


def _classify(span: Any) -> tuple[str, float, Any | None] | None:
    """(type, confidence, trigger token) for a user sentence, or None when nothing durable is said."""
    if _is_question(span) or len(_words(span)) < 3 or _is_trivial(span) or is_boilerplate(span.text):
        return None  # greetings, thanks, support and small talk are not memories: they crowded facts out
    lowered = f" {_one_line(span.text.lower())} "
    lemmas = {t.lemma_.lower() for t in span}
    lowers = {t.lower_ for t in span}
    first_person = _first_person(span)
    # lesson: something learned that should change what is done next time ("by mistake" says how something
    # happened, not what was learned: "I tagged a ticket as billing by mistake and now I can't see it")
    lesson_words = lemmas & LESSON_WORDS - ({"mistake"} if re.search(r"\bby (?:a )?mistake\b", lowered) else set())
    if first_person and (lesson_words or any(p in lowered for p in LESSON_PHRASES)):
        return "lesson", 0.7, None
    # constraint: rules, limits, allergies, deadlines — earned by a rule form ("never" and "must" in a story told in
    # the past are not rules: "I never thought I'd paint again"); "always" alone is weaker: it may describe a habit
    strong = lowers & (CONSTRAINT_STRONG - {"always"})
    if "must" in strong and all(_guessed(t) for t in span if t.lower_ == "must"):
        strong -= {"must"}  # "That must've been breathtaking!", "It must feel great": a guess, not a rule
    if (
        (strong and _rule_form(span))
        or lemmas & {"allergic", "allergy", "deadline"}
        or any(p in lowered for p in CONSTRAINT_PHRASES)
        or _no_rule(span)
        or (lowers & {"every", "each", "all"} and lemmas & {"need", "require"})
    ):
        return "constraint", 0.8, None
    # preference: likes, dislikes, preferences of the user
    trigger = _trigger(span)
    if trigger is not None and (first_person or trigger.lower_ in PREF_ADJ):
        desire = (
            trigger.lemma_.lower() in ("like", "love")
            and any(child.dep_ == "aux" and child.lemma_.lower() in ("would", "'d") for child in trigger.children)
            and any(child.dep_ == "xcomp" and child.tag_ == "VB" for child in trigger.children)
        )
        if not desire:  # "I'd like to run a marathon" is an intention, not a preference
            strong = trigger.lemma_.lower() in PREF_STRONG or trigger.lower_ in PREF_ADJ | {"rather"}
            return "preference", 0.75 if strong else 0.65, trigger
    if first_person and any(p in lowered for p in CONSTRAINT_WEAK_PHRASES):
        return "constraint", 0.6, None
    # pattern: habits and routines
    habitual = lowers & PATTERN_WORDS or any(p in lowered for p in PATTERN_PHRASES)
    if first_person and (habitual or ("always" in lowers and (" since " in lowered or lowers & {"we", "us"}))):
        return "pattern", 0.6, None
    if "always" in lowers and _rule_form(span):
        return "constraint", 0.65, None
    # a change of what a named thing is ("card processing switched from Stripe to Adyen this month"): the same
    # point of its own in the third person and with its date — else it was no item, and the old value stayed active
    named = any(t.text[:1].isupper() for t in list(span)[1:] if t.is_alpha)
    if not first_person and named and _CHANGED_RE.search(lowered):
        return "fact", 0.7, None
    # event: something that happened or is planned at a specific time
    if _has_time_expression(span):
        tenses = {t.tag_ for t in span if t.pos_ in ("VERB", "AUX")}
        dated = any(ent.label_ == "DATE" and any(c.isdigit() for c in ent.text) for ent in span.ents)
        if tenses & {"VBD", "VBN"} or "MD" in tenses or "VBG" in tenses or dated:
            if first_person or any(ent.label_ in ("PERSON", "ORG", "GPE", "EVENT") for ent in span.ents):
                return "event", 0.75 if dated else 0.65, None
    # a standing change, said as such or as what now holds (see _standing_change): before, a change said without a
    # first person or a name ("Standup now starts at 10", "from now on metrics are defined in dbt") was no item,
    # so the old value stayed the only one
    standing = _standing_change(span, lowered)
    if standing is not None:
        return standing, 0.7, None
    # a change of what holds, said in the first person ("we replaced Crashlytics with Sentry", "I switched from
    # teaching to nursing"): a point of its own — it supersedes what it changes (before, no rule fired on it, and
    # the old value stayed active)
    if first_person and _CHANGED_RE.search(lowered) and not _has_time_expression(span):
        return "fact", 0.7, None
    # fact: first-person declaratives with names, numbers or identity
    if first_person:
        has_entity = any(ent.label_ not in ("ORDINAL",) for ent in span.ents) or any(_is_placeholder(t) for t in span)
        identity = any(
            p in lowered
            for p in (
                " my name is ",
                " i work ",
                " i live ",
                " i am a ",
                " i'm a ",
                " i have ",
                " i own ",
                " i study ",
                " i moved ",
                " my ",
            )
        )
        if has_entity or identity or any(t.like_num for t in span):
            return "fact", 0.6 if has_entity else 0.5, None
    if _general_present(span) and not _progress(lowered):
        return "fact", 0.5, None
    return None


_CHANGED_RE = re.compile(r" (?:replaced \S+(?: \S+)? with|(?:switched|migrated|moved) (?:\S+ )?(?:from|over to|to)|"
                         r"no longer (?:use|run|host|keep|store|support))\b")


_WEEKDAY = rf"(?:{'|'.join(WEEKDAYS)})s?"
# A sentence that says what holds from now on ("From now on metrics are defined in dbt", "Going forward, the retrain
# runs on Wednesday nights", "New minimum for merge requests: 85 percent coverage", "Topic naming changed: it's
# kebab-case now"), or what holds now in place of what did ("it is at 10:00 now instead of 9:30", "we don't use Jira
# anymore").
_FROM_NOW_ON = r" (?:from now on|going forward|from (?:this|the next|next) (?:[\w-]+ ){1,2}on)\b"
_FROM_NOW_ON_RE = re.compile(_FROM_NOW_ON)
_STANDING_RE = re.compile(
    rf"^ (?:new|updated|changed) [\w -]{{1,40}}: | (?:changed|moved|updated|switched):|{_FROM_NOW_ON}|"
    r" (?:(?:as of|starting|effective|since) (?:now|today|tomorrow|(?:this|next|last) (?:[\w-]+ )?(?:week|month|"
    rf"sprint|quarter|release|year|cycle)|{_WEEKDAY})|no longer(?! than)|any ?more|instead of)\b")
# A change said with its verb, its direction and what it changed to ("the limit got bumped from 100 to 250", "Design
# Sync has been renamed to Architecture Forum", "the Relevance team took over search", "go 1.20 -> 1.22"); "we moved
# fast on that launch" names no direction, "a flaky test is moved to quarantine" is how a thing is done, and "it
# pushed me to" is no change.
_CHANGE_VERB_RE = re.compile(
    r"(?<! is)(?<! are)(?<! be)(?<! gets)(?<! get) (?:(?:bump|rais|lower|increas|decreas|reduc|narrow|widen|extend|"
    r"shorten|mov|renam|chang|switch|migrat|replac|swapp|upgrad|downgrad|transferr|shift)(?:ed|d) (?:[\w.'-]+ ){0,5}?"
    r"(?:from|to|into|with|off|over to)|(?:push|pull)ed (?:[\w.'-]+ ){0,5}?(?:from|back))\b| took over | (?:->|→|=>) ")
# "now" beside what can hold: a number or time, a day, a recurrence, a contrast ("Standup now starts at 10", "status
# reports are a Google Doc now rather than a PDF"), or closing a statement ("billing is owned by payments now"); else
# it is the moment of speaking ("now rewrite it").
_RECURRENCE = (r"(?:every|each) (?:other )?(?:day|morning|evening|night|week|month|sprint|quarter|\w+day)|daily|"
               r"weekly|monthly|nightly|mornings|nights")
_NOW_VALUE_RE = re.compile(rf" now\b.*(?:\d|\b{_WEEKDAY}\b|\b(?:{_RECURRENCE})\b|, not |rather than)|"
                           r"(?:\d|days?\b|, not \w+|rather than).* now\b|"
                           r"\b(?:is|are)\b[^.;,!?]{2,60} now\s*(?:[.;,!]|$)")
# How far a task has got is no standing state: "the migration job is now at 80%", "the download is now complete".
_PROGRESS_RE = re.compile(r"\b(?:is|are|'s|'re)\s+(?:now\s+)?(?:all\s+|fully\s+|finally\s+)?(?:at \d+ ?(?:%|percent\b)|"
                          r"(?:complete|completed|done|finished|green|red|running|ready|live|fixed|passing|failing|"
                          r"broken|stuck|online|offline|loading|working|back up)\b)|"
                          r"\b(?:works|working|passes|fails|runs)(?: again)? now\b")
# A story that is over: "back in 2019 we switched from SVN to Git".
_STORY_RE = re.compile(r"\b(?:back in|ago|last year|used to|(?:in|since) (?:19|20)\d\d)\b")
# Who the sentence is about when it is no team's state: one person ("I'm moving on to the next ticket now"), the
# listener ("you can use coconut oil instead of butter"), a suggestion ("let's switch to the other branch now").
_NOT_STANDING_SUBJECTS = frozenset({"i", "me", "you", "let", "let's"})
_NOT_STANDING_WORDS = frozenset({"if", "would", "could", "might", "maybe", "perhaps"})  # a condition, a guess
_ONE_OFF_OBJECTS = frozenset("this that it these those above below here".split())
# What is asked of the assistant's answer in hand ("instead of summarizing, just list the action items"): a standing
# wish only when said to hold from now on ("from now on, list the action items instead of a summary").
_ANSWER_VERBS = frozenset("list summarize summarise rewrite show explain give write draft translate format answer "
                          "reply print paste shorten expand".split())


def _progress(lowered: str) -> bool:
    return " now" in lowered and bool(_PROGRESS_RE.search(lowered))


def _standing_change(span: Any, lowered: str) -> str | None:
    """"fact" or "constraint" when the sentence states a standing change (see :data:`_STANDING_RE`), said of the
    team or of a thing — the small parser often loses such a sentence's verb and subject, so the cue is lexical.
    Not a task's progress, a story, a condition, what one person is doing, advice to the listener, or a one-off
    request about the conversation's own text ("now rewrite this using a dict instead of a list")."""
    lowered = lowered.replace(" right now", " ")  # the moment of speaking
    if not (_STANDING_RE.search(lowered) or _CHANGE_VERB_RE.search(lowered) or _NOW_VALUE_RE.search(lowered)):
        return None
    tokens = list(span)
    if _progress(lowered) or _STORY_RE.search(lowered) or any(t.lower_ in _NOT_STANDING_WORDS for t in tokens) \
            or any(t.lower_ in _NOT_STANDING_SUBJECTS and t.dep_ in ("nsubj", "nsubjpass", "ROOT") for t in tokens):
        return None
    if any(t.tag_ == "VBG" and any(c.lemma_ == "be" and c.dep_ == "aux" for c in t.children) for t in tokens):
        return None  # in progress: "the team is now moving to Rust"
    root = span.root
    subject = any(c.dep_ in ("nsubj", "nsubjpass", "expl") for c in root.children)
    if root.tag_ in ("VB", "VBP") and not subject and (any(t.lower_ in _ONE_OFF_OBJECTS for t in tokens) or (
            root.lemma_.lower() in _ANSWER_VERBS and not _FROM_NOW_ON_RE.search(lowered))):
        return None
    imperative = tokens[0].tag_ == "VB" or (root.tag_ == "VB" and not subject)
    negated = any(t.dep_ == "neg" and t.head.pos_ in ("VERB", "AUX") for t in tokens)
    # How things are done from now on, with no value to change ("from now on anything risky ships dark behind a
    # feature flag"), is a rule: typed as one, it can restate the team's rule of another kind.
    practice = bool(_FROM_NOW_ON_RE.search(lowered)) and not re.search(rf"\d|\b{_WEEKDAY}\b", lowered) \
        and not any(t.text[:1].isupper() for t in tokens[1:] if t.is_alpha)
    return "constraint" if imperative or practice or (negated and " no longer" not in lowered) else "fact"


def _general_present(span: Any) -> bool:
    """A general statement in the present tense about a named thing ("The payments service is written in Go",
    "Staging is reset every night"): how a team states what holds. Not about the listener ("you"), not a story."""
    root = span.root
    if root.tag_ not in ("VBZ", "VBP") and not (root.tag_ == "VBN" and any(
            c.dep_ == "auxpass" and c.tag_ in ("VBZ", "VBP") for c in root.children)):
        return False
    subjects = [c for c in root.children if c.dep_ in ("nsubj", "nsubjpass")]
    if not subjects or subjects[0].pos_ not in ("NOUN", "PROPN") or len(_words(span)) < 5:
        return False
    if _is_placeholder(subjects[0]) or not any(c.dep_ in ("det", "poss", "compound", "amod")
                                               for c in subjects[0].children):
        return False  # "the payments service", "our CI pipelines": a named thing, not a bare word
    return not any(t.lower_ in ("you", "your") for t in span)


def _no_rule(span: Any) -> bool:
    """A prohibition without a verb: "No production deployments on a Friday." """
    words = [t for t in span if not t.is_punct]
    return (len(words) >= 3 and words[0].lower_ == "no" and words[1].pos_ in ("NOUN", "ADJ", "PROPN")
            and not any(t.pos_ in ("VERB", "AUX") for t in words))


def _guessed(must: Any) -> bool:
    """A "must" that guesses instead of obliging: a perfect about "that", "it" or the listener ("that must've been
    breathtaking", "it must have felt great"; "deploys must have passed the smoke tests" obliges), a verb of
    impression ("must feel", "must sound great"), or "that/you must be …" about how something is."""
    doc, verb = must.doc, must.head
    after = doc[must.i + 1] if must.i + 1 < len(doc) else None
    subjects = {c.lower_ for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")}
    if after is not None and after.lower_ in ("have", "'ve", "’ve") and subjects <= _GUESSED_ABOUT:
        return True
    if verb.lemma_.lower() in ("feel", "sound", "look", "seem"):
        return True
    return verb.lemma_.lower() == "be" and bool(subjects & {"that", "you"}) and any(
        c.dep_ in ("acomp", "attr") for c in verb.children)


_GUESSED_ABOUT = frozenset(("that", "it", "this", "you", "they", "he", "she"))


def _rule_form(span: Any) -> bool:
    """A rule's grammar: a modal ("must", "can't"; also reported: "she said I must"), an imperative, or the
    present tense — not a past narrative ("I never thought I would paint again")."""
    tags = {t.tag_ for t in span if t.pos_ in ("VERB", "AUX")}
    if any(t.tag_ == "MD" and t.lower_ not in ("would", "could", "'d", "might") for t in span):
        return True
    if "VBD" in tags:
        return False
    return bool(tags & {"VBP", "VBZ"}) or span.root.tag_ == "VB"


def _subject_for(kind: str, span: Any, trigger: Any | None) -> str:
    if kind == "preference":
        if trigger is not None and trigger.lower_ in PREF_ADJ and trigger.head.pos_ in ("NOUN", "PROPN"):
            return _term(trigger.head)
        return _subject_from_token(_topic_token(span, trigger))
    if kind == "fact":
        for tok in span:  # "my dog is called X" -> dog
            if tok.dep_ in ("nsubj", "nsubjpass") and tok.pos_ in ("NOUN", "PROPN"):
                if any(c.lower_ in ("my", "our") for c in tok.children):
                    return _term(tok)
        root = span.root
        if root.lemma_.lower() in _FACT_VERB_SUBJECTS and _subject_is_i(root):
            return _FACT_VERB_SUBJECTS[root.lemma_.lower()]
    return _subject_from_token(_topic_token(span, None), fallback=_term(span.root))


def _inline_steps(text: str) -> list[str]:
    """Steps written on one line ("Step 1: ... Step 2: ..." or "1. ... 2. ..."), numbered 1, 2, 3... in order."""
    markers = list(_INLINE_STEP_RE.finditer(text))
    numbered = [(int(m.group(1) or m.group(2)), m) for m in markers]
    expected, chosen = 1, []
    for number, match in numbered:
        if number == expected:
            chosen.append(match)
            expected += 1
    if len(chosen) < 2:
        return []
    steps = []
    for index, match in enumerate(chosen):
        end = chosen[index + 1].start() if index + 1 < len(chosen) else len(text)
        steps.append(_one_line(text[match.end() : end]))
    return steps


def _procedure(unit: Unit, role: str, doc: Any, user_text: str) -> _Candidate | None:
    """An ordered how-to in the unit: numbered lines, first/then sequences or a run of imperatives."""
    text = unit.user if role == "user" else unit.assistant
    if role == "assistant" and not any(cue in user_text.lower() for cue in HOWTO_CUES):
        return None
    line_re = _STEP_LINE_RE if role == "assistant" else _NUMBERED_LINE_RE  # a user's bullets are rarely steps
    steps = [_one_line(m.group(1)) for m in line_re.finditer(text or "")]
    if len(steps) < 2:
        steps = _inline_steps(text or "")
    confidence = 0.7
    if len(steps) < 2:
        steps = []
        sentences = [s for s in doc.sents if len(_words(s)) >= 2]
        marked = [s for s in sentences if any(re.search(rf"\b{w}\b", s.text.lower()) for w in SEQUENCE_WORDS)]
        if len(marked) >= 2 or any(
            re.search(r"\bfirst\b", s.text.lower()) and re.search(r"\bthen\b", s.text.lower()) for s in marked
        ):
            steps = [_one_line(s.text) for s in sentences if s in marked or s.root.tag_ == "VB"]
            confidence = 0.65
        else:
            run: list[Any] = []
            best: list[Any] = []
            for s in sentences:
                imperative = s.root.tag_ == "VB" and not any(c.dep_ in ("nsubj", "nsubjpass") for c in s.root.children)
                run = [*run, s] if imperative else []
                if len(run) > len(best):
                    best = run
            if len(best) >= 3:
                steps = [_one_line(s.text) for s in best]
                confidence = 0.6
    steps = [_SEQUENCE_PREFIX_RE.sub("", s).rstrip(".;") for s in steps if s][:8]
    if len(steps) < 2:
        return None
    return _Candidate(
        type="procedure",
        subject="",
        statement="; ".join(_clip(s, 140) for s in steps),
        unit=unit,
        confidence=confidence,
        valid_from=unit_time(unit),
        position=-1,
    )
