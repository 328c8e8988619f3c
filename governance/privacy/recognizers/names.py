"""Names and places on top of the spaCy NER: street addresses (LOCATION) and PERSON heuristics.

:class:`StreetAddressRecognizer` (a street line and the postal block that follows it) and
:class:`PersonHeuristicRecognizer` (improves the small spaCy model's PERSON recall with generic cues, see its
docstring); :func:`trim_name_span`, :func:`is_name_token` and :func:`name_shaped` are also used by the engine.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from presidio_analyzer import EntityRecognizer, RecognizerResult

from ._common import _result

# --------------------------------------------------------------------------------------------------
# Street addresses (LOCATION)
# --------------------------------------------------------------------------------------------------

_T = r"[A-ZÀ-ÞĀ-ſΑ-Ω][\w'’.\-]*"  # a capitalised word (Latin, Latin-extended, Greek capitals)
_STREET_TYPES = (
    r"Street|St|Road|Rd|Avenue|Ave|Boulevard|Blvd|Lane|Ln|Drive|Dr|Way|Court|Ct|Place|Pl|Square|Sq|Terrace|"
    r"Parkway|Pkwy|Highway|Hwy|Crescent|Close|Alley|Row|Plaza|Route|Trail|Gateway|Greens?|Mews|Walk|Hill|"
    r"Gardens|Park|Grove|Circle|Cir|Loop|Pike|Port|Union|Mill|Courts|Flat|Lodge|Estate|Bridge|str|utca|út|"
    r"tér|u\.|gate|vej|gade|vegen|veien|katu|tie|kuja|gatan|vägen|straat|laan|plein|strasse|straße|gasse|"
    r"weg|platz"
)
_TYPE_FIRST = (
    r"(?:Rua|Avenida|Av\.|Via|Viale|Vicolo|Piazza|Piazzetta|Largo|Calle|Carrer|Paseo|Plaza|Praça|Travessa|"
    r"Rue|Boulevard|Chemin|Allée|ul\.|ulica|Aleja|al\.|trg|Trg|C/)"
)
_STREET_SUFFIXED = (
    r"(?:strasse|straße|gasse|weg|platz|katu|kuja|tie|gatan|vägen|väg|vej|gade|veien|vegen|gata|straat|laan|"
    r"plein|utca|centret)"
)
_UNIT = r"(?:,?[ \t]+(?:Apt\.?|Apartment|Suite|Ste\.?|Unit|Flat|Floor|Fl\.?)[ \t]*#?[ \t]*\w{1,6}\.?){0,2}"
_CORE = (
    r"(?:\b\d{1,6}[A-Za-z]?,?[ \t]+(?:\d{1,5}[ \t]+)?(?:"
    + _T
    + r"[ \t]+){0,4}?(?:"
    + _STREET_TYPES
    + r")\b\.?(?:[ \t]+\d{1,5}[A-Za-z]?\b)?"
    r"|(?:\b\d{1,6}[ \t]+)?"
    + _TYPE_FIRST
    + r"[ \t]+(?:(?:"
    + _T
    + r"|de|da|do|dos|das|del|della|di|la|le|e|von|van|z|d')[ \t]+){0,6}?\d{1,5}[A-Za-z]?\b"
    r"|(?:\b\d{1,6}[ \t]+)?\b" + _T + _STREET_SUFFIXED + r"[ \t]+\d{1,5}[A-Za-z]?\b"
    r"|\b\d{1,6}[ \t]+(?:\d{1,5}[ \t]+)?(?:" + _T + r"[ \t]+){1,3}\d{1,5}[A-Za-z]?\b(?![.,]\d)"
    r"|\b(?:PSC|Unit|CMR)[ \t]+\d{3,5},?[ \t]+Box[ \t]+\d{3,5}"
    r"|\b(?:USNS|USNV|USS|USCGC)[ \t]+" + _T + r"|\b(?:APO|FPO|DPO)[ \t]+(?:AA|AE|AP)[ \t]+\d{5}"
    r"|\bP\.?[ \t]?O\.?[ \t]+Box[ \t]+\d{1,6})"
)
_TAIL = (
    r"(?:,[ \t]*"
    + _T
    + r"(?:[ \t]+(?:"
    + _T
    + r"|\("
    + _T
    + r"\)|[A-Z]{2}|de|del|la))*(?:[ \t]+[A-Z0-9]{2,4}[ \t]?\d{3,5}|[ \t]+\d{4,6})?){0,3}"
)
_STREET_RE = re.compile(_CORE + _UNIT + _TAIL)
# following lines of a postal block: "Suite 838", "Tujetsch", ", CO", "Uruguay 64677", "53650", "KNIVSTA, nan
# 18237"
_BLOCK_LINE_RE = re.compile(
    r"[ \t>]*(?:(?:Apt\.?|Apartment|Suite|Ste\.?|Unit|Flat|Floor)[ \t]*#?[ \t]*\w{1,6}\.?|"
    r",?[ \t]*[^\W\d_][\w'’.\-]*(?:[ \t]+(?:[^\W\d_][\w'’.\-]*|"
    r"\([^\W\d_]+\)))*,?(?:[ \t]+[A-Za-z]{2,3})?(?:[ \t]+[A-Z0-9]{2,4}[ \t]?\d{3,5}|[ \t]+\d{4,6})?|"
    r",?[ \t]*[A-Za-z]{2,3}|\d{4,6}|[A-Z]\d[A-Z][ \t]?\d[A-Z]\d)[ \t]*(?=\n|$)"
)


class StreetAddressRecognizer(EntityRecognizer):
    """LOCATION for street addresses and the postal block that follows them.

    A street line (``3482 Via Franscini 71 Suite 838``, ``Feldstrasse 42``, ``221B Baker Street``,
    ``PSC 7951, Box 9972``, ``PO Box 287``) optionally followed on the same line by ``, City, Country 12345``
    and, on the next lines, by short address lines (unit, city, region code, country + postcode). Score 0.9:
    within a detected address this beats the NER's guesses (spaCy tags street names as persons).
    """

    MAX_BLOCK_LINES = 5

    def __init__(self, supported_language: str = "en"):
        super().__init__(
            supported_entities=["LOCATION"],
            name="RecMemStreetRecognizer",
            supported_language=supported_language,
        )

    def load(self) -> None:
        return None

    def analyze(self, text: str, entities: list[str], nlp_artifacts=None) -> list[RecognizerResult]:
        out = []
        for m in _STREET_RE.finditer(text):
            s, e = m.start(), m.end()
            if "\n" in text[s:e]:
                continue
            out.append(_result(self, "LOCATION", s, e, 0.9))
            # postal block on the following lines (one blank line allowed)
            rest_start = text.find("\n", e)
            if rest_start < 0 or text[e:rest_start].strip(" \t,.") != "":
                continue
            pos = rest_start + 1
            blank = 0
            for _ in range(self.MAX_BLOCK_LINES):
                if pos >= len(text):
                    break
                line_end = text.find("\n", pos)
                line_end = len(text) if line_end < 0 else line_end
                line = text[pos:line_end]
                if not line.strip(" \t>"):
                    blank += 1
                    if blank > 1:
                        break
                    pos = line_end + 1
                    continue
                bm = _BLOCK_LINE_RE.fullmatch(line)
                if not bm or len(line.strip()) > 45 or ":" in line or "@" in line:
                    break
                out.append(_result(self, "LOCATION", pos, line_end, 0.9))
                pos = line_end + 1
        return out


# --------------------------------------------------------------------------------------------------
# PERSON heuristics on top of the spaCy NER
# --------------------------------------------------------------------------------------------------

# Words that make a capitalised span an organisation, a place or a heading rather than a person's name.
_NOT_NAME_WORDS = frozenset(
    w.lower()
    for w in """
Inc Inc. Corp Corp. Corporation Co Co. Company Ltd Ltd. LLC LLP PLC GmbH AG SA SAS BV NV Oy AB AS Pty Group
Groups
Holdings Bank Bancorp University College School Academy Institute Foundation Agency Associates Partners
Solutions
Systems Technologies Technology Tech Software Labs Lab Global International Services Service Consulting Media
Network Networks Weekly Daily Times News Journal Magazine Press Records Studios Studio Pictures Entertainment
Airlines Airways Motors Hospital Clinic Center Centre Church Council Committee Department Ministry Office
Association Society Club Team Union Party Fund Capital Ventures Industries Enterprises Insurance Energy Pharma
Pharmaceuticals Health Healthcare Analytics Data Digital Cloud Cycle Rapid Store Shop Market Markets Mart Bar
Cafe
Restaurant Hotel Hotels Resort Inn Airport Station Port Museum Library Gallery Theatre Theater Park Parks
Garden
Gardens Street St Road Rd Avenue Ave Lane Boulevard Drive Way Court Place Square Terrace Parkway Highway Route
Bridge Tower Building Hall House Mall City County State States Province Region District Republic Kingdom
Emirates Island Islands Isle Beach Bay Harbor Harbour Lake River Mountain Mountains Mount Valley Hills Hill
Springs
Falls Heights Creek Coast North South East West Northern Southern Eastern Western Central Upper Lower Greater
New
Old San Santa Santo Saint Los Las El La Le Del Da De Rio Sao São Fort Cape Costa Puerto Hong Kuala Buenos Abu
Tel
Sri Ho United America American Americas Europe European Asia Africa African Australia Canada Mexico China
Japan
India Germany France Spain Italy Russia Brazil Monday Tuesday Wednesday Thursday Friday Saturday Sunday
January
February March April May June July August September October November December Phone Mobile Fax Desk Email
E-mail
Website Address Info Information Personal Contact Details Note Notes Subject Summary Title Name Date Time
Directed Written Produced Action Adventure Animation Comedy Drama Kids Family Mystery Suspense Horror Romance
Music Song Songs Album Band Concert Tour Version Edition Series Season Episode Chapter Part Volume Page
Section
Error Warning Debug Trace Traceback Exception Step Task Todo Question Answer Example Output Input Result
Results
User Assistant System Agent Admin Customer Client Support Manager Director President Chairman CEO CTO CFO
Professor Doctor Sir Madam Mister Lord Lady King Queen Prince Princess General Captain Officer Agent Staff
Please Thanks Thank Hello Hi Hey Dear Regards Best Cheers Yes No Ok Okay The A An And Or Of In On At To For
With By From Is Are Was Were Be Been This That These Those It Its My Our Your Their His Her We You They I
Mr Mrs Ms Miss Dr Prof Amazon Google Microsoft Apple Facebook Meta Netflix Tesla Twitter Slack GitHub Linux
Windows Python Java Docker Kubernetes Postgres Django React API SDK CLI UI UX AI ML LLM OK FAQ
Everyone Everybody Someone Somebody Nobody Anyone Anybody Nothing Everything Something He She It They We
Him Them Who What When Where Why How Which Here There Now Then Today Tomorrow Yesterday Also But If So
Bot Chatbot Model Server Client Host Service Billing Shipping Account Order Invoice Payment Card
""".split()
)

_NOT_NAME_WORDS = _NOT_NAME_WORDS | frozenset(
    """later then meanwhile afterwards finally anyway actually unfortunately luckily sadly honestly maybe
    perhaps well oh ok okay sure yes no please thanks thank so now also still yet again first last
    next""".split()
)


def trim_name_span(text: str, start: int, end: int) -> tuple[int, int]:
    """Drop leading/trailing words that are not name parts ("Later Elena Petrova" -> "Elena Petrova")."""
    words = list(re.finditer(r"\S+", text[start:end]))
    if len(words) < 2:
        return start, end

    def bare(m: re.Match[str]) -> str:
        return m.group(0).strip(".,;:!?\"'’()").lower()

    i, j = 0, len(words)
    while i < j - 1 and bare(words[i]) in _NOT_NAME_WORDS:
        i += 1
    while j - 1 > i and bare(words[j - 1]) in _NOT_NAME_WORDS:
        j -= 1
    return start + words[i].start(), start + words[j - 1].end()


_NAME_TOKEN_RE = re.compile(r"[^\W\d_][^\W\d_'’\-]*(?:[’'\-][^\W\d_]+)*")


def is_name_token(tok: str) -> bool:
    """Title-case alphabetic token (diacritics allowed), not a stop/designator word, or an initial."""
    if len(tok) == 1:
        return tok.isupper()
    if len(tok) == 2 and tok[1] == "." and tok[0].isupper():
        return True
    if not _NAME_TOKEN_RE.fullmatch(tok):
        return False
    if not (tok[0].isupper() and not tok.isupper()):
        return False
    parts = re.split(r"[’'\-]", tok)
    if any(p and not p[0].isupper() and p not in ("s",) for p in parts[1:]) and "-" in tok:
        return False
    return tok.lower() not in _NOT_NAME_WORDS


def _is_initial(tok: str) -> bool:
    return (len(tok) == 1 and tok.isupper()) or (len(tok) == 2 and tok[1] == "." and tok[0].isupper())


def name_shaped(words: Sequence[str], *, min_words: int = 1, max_words: int = 4) -> bool:
    """All tokens name-like, first and last not initials, at most one initial in between."""
    if not min_words <= len(words) <= max_words:
        return False
    if not all(is_name_token(w) for w in words):
        return False
    if _is_initial(words[0]) or _is_initial(words[-1]):
        return False
    return sum(_is_initial(w) for w in words) <= 1


_CUE_FLAGS = re.I

# honorific + name (one word is enough)
_HONORIFIC_CUE = re.compile(
    r"\b(?:Mr|Mrs|Ms|Mx|Miss|Dr|Prof|Sir|Dame|Madam|Mme|Mlle|Herr|Frau|Señor|Señora|Sr|Sra)\.?[ \t]+",
    _CUE_FLAGS,
)
# relation + name: "my son Lukas", "our colleague, Maria"
_RELATION_CUE = re.compile(
    r"\b(?:my|our|his|her|their|your)\s+(?:(?:little|older|younger|big|ex|late|new|best)[\s-])?(?:son|"
    r"daughter|kid|child|baby|wife|husband|spouse|partner|boyfriend|girlfriend|fiancée?|friend|colleague|"
    r"co-?worker|teammate|boss|manager|supervisor|brother|sister|sibling|mom|mum|mother|dad|father|grandma|"
    r"grandmother|grandpa|grandfather|grandson|granddaughter|uncle|aunt|cousin|nephew|niece|neighbou?r|"
    r"roommate|flatmate|landlord|landlady|tenant|teacher|tutor|doctor|dentist|therapist|lawyer|attorney|"
    r"accountant|assistant|client|customer|patient|student|intern|mentor|coach|nanny|"
    r"babysitter)[ \t]*,?[ \t]+",
    _CUE_FLAGS,
)
# introductions and sign-offs: one name word is enough
_STRONG_CUE = re.compile(
    r"(?:\b(?:my|his|her|their|your|maiden|first|last|full|middle|user|customer|contact)\s+name\s*(?:is|was|"
    r"'s|:)|\bname\s*:|\bcall(?:s|ed)? me|\bsigned,?|\bregards,?|\bthanks,|\bcheers,|\bdear|\bsincerely,?|"
    r"\bi'm|\bi am|\bthis is|\bnamed|\b(?:said|asked|told|shouted at|yelled at|replied to|wrote to|thanked|"
    r"texted|emailed|messaged|married|hired|invited|visited|congratulated|greeted|introduced|promoted|"
    r"according to|on behalf of|ask|tell|ping|cc:?))[ \t]+",
    _CUE_FLAGS,
)
# weaker cues: need a two- or three-word name
_WEAK_CUE = re.compile(
    r"\b(?:hi|hello|hey|assigned to|reported by|created by|written by|directed by:?|authored by|owned by|"
    r"approved by|reviewed by|sent by|submitted by|spoke (?:to|with)|talked (?:to|with)|meeting with|"
    r"call with|call|met with|met|meet|contact|remind|invite|thanks to|including|under|from|with|to|by|for|"
    r"and|of)[ \t]+",
    _CUE_FLAGS,
)
# "<Name> said", "<Name> is from ...": a name word right before a verb typical of people
_HUMAN_VERB_AFTER = re.compile(
    r"[ \t]+(?:said|says|asked|asks|replied|replies|shouted|yelled|whispered|wrote|writes|told|tells|thinks|"
    r"thought|explained|added|noted|mentioned|agreed|suggested|laughed|smiled|nodded|cried|is from|was born|"
    r"lives|lived|works|worked|joined|met|married|called|emailed|texted)\b"
)
# "<group of people>: A, B and C"
_GROUP_CUE = re.compile(
    r"\b(?:founders|co-?founders|partners|members|children|kids|sons|daughters|friends|people|guests|"
    r"attendees|participants|speakers|authors|students|colleagues|employees|reviewers|owners|parents|"
    r"siblings|grandchildren|winners|candidates|players|team members|invitees|recipients|"
    r"assignees)\b[^\n:]{0,20}:[ \t]*"
)
_SPEAKER_RE = re.compile(
    r"(?m)^[ \t>]*(?P<name>[^\W\d_][\w'’\-]*(?: [^\W\d_][\w'’\-]*)?)[ \t]*:[ \t]*(?=[\"“'‘]|\S)"
)
_NAME_LINE_RE = re.compile(
    r"(?m)^[ \t>]*(?P<name>[^\W\d_][\w'’.\-]*(?:[ \t]+[^\W\d_][\w'’.\-]*){1,3})[ \t]*$"
)
_LIST_ITEM_RE = re.compile(r"[^\W\d_][\w'’\-]*(?:[ \t]+(?!(?:and|or|und|et|y|&)\b)[^\W\d_][\w'’\-]*)?")
_LIST_SEP_RE = re.compile(r"^\s*(?:,|,?\s+and|,?\s+&|,?\s+or)\s+$")
_CONTACT_HINT_RE = re.compile(r"@|\d{3,}|\b(?:phone|mobile|tel|fax|e-?mail|address|suite|apt)\b", re.I)
_SPACE_RE = re.compile(r"[ \t]*")
_LOWER_STOP = frozenset(
    """a an the and or but so is are was were be been am i me my you your he she it we they him her them his
    their our this that these those in on at to for of from with by as not no yes ok please thanks thank hi
    hello hey here there now then just also too very really who what when where why how which everyone
    everybody someone somebody nobody anyone""".split()
)


def _words_after(text: str, pos: int, limit: int = 4) -> list[tuple[str, int, int]]:
    """Consecutive word tokens on one line starting at ``pos`` (a one-letter initial may carry a dot)."""
    out: list[tuple[str, int, int]] = []
    i = pos
    n = len(text)
    while len(out) < limit and i < n:
        j = _SPACE_RE.match(text, i).end()
        if out and j == i:  # no whitespace between tokens
            break
        wm = _NAME_TOKEN_RE.match(text, j)
        if not wm:
            break
        end = wm.end()
        word = wm.group(0)
        if end < n and text[end] == "." and len(word) == 1:
            end += 1
            word += "."
        out.append((word, j, end))
        i = end
    return out


def _leading_name(text: str, pos: int, *, min_words: int, max_words: int = 3) -> tuple[int, int] | None:
    words = _words_after(text, pos, max_words + 1)
    best = None
    for k in range(1, min(max_words, len(words)) + 1):
        chunk = [w for w, _, _ in words[:k]]
        if not is_name_token(chunk[-1]):
            break
        if k >= min_words and name_shaped(chunk, min_words=min_words, max_words=max_words):
            best = (words[0][1], words[k - 1][2])
    return best


def _lower_name_after(text: str, pos: int) -> tuple[int, int] | None:
    """``my name is borna jerković``: 1-2 lower-case words that are not function words."""
    words = _words_after(text, pos, 2)
    picked = []
    for w, s, e in words:
        if w.lower() in _LOWER_STOP or len(w) < 2:
            break
        picked.append((s, e))
    if not picked:
        return None
    return picked[0][0], picked[-1][1]


class PersonHeuristicRecognizer(EntityRecognizer):
    """Raise PERSON recall of the small spaCy model with generic, documented cues.

    All rules need name-shaped tokens (Title-case words, at most one middle initial, none of
    :data:`_NOT_NAME_WORDS` such as Inc/Street/New/Monday/Phone/Everyone):

    1. *relabel*: a spaCy ORG/GPE/LOC/FAC/PRODUCT/WORK_OF_ART/NORP span of 2-4 name-shaped words is re-read as
       PERSON (0.86, above spaCy's 0.85): the small model often calls unfamiliar names organisations;
    2. *cues*: a one-word name after an honorific (``Ms.``), a relation (``my son``, ``my colleague``), an
       introduction or sign-off (``my name is``, ``Dear``, ``regards,``), or a verb of talking to someone
       (``said``, ``told``, ``emailed``) (0.88-0.9: such a cue outranks spaCy's guess of a place); a
       two/three-word name after a weaker cue (``by``, ``with``,
       ``assigned to``, ``spoke to``, ``including``), unless spaCy calls it a place (0.7); a one-word name
       before such a verb (``<Name> said``, ``<Name> is from``) (0.7); lower-case names only after
       ``my name is`` / ``call me``;
    3. *initial*: ``First M. Last`` anywhere (0.7);
    4. *lists*: in ``A, B, C and D`` containing a PERSON, or introduced by a group of people (``founders:``,
       ``guests:``), the other name-shaped items are PERSON (0.86 / 0.75);
    5. *consistency*: a name-shaped word equal to a word of a PERSON found elsewhere in the text (0.86);
    6. *transcript*: in a text with at least two ``Name: utterance`` lines, the speaker names (0.9);
    7. *contact card*: a line that is only a 2-4 word name, in a multi-line text with contact details
       (e-mail, phone, address) (0.7).
    """

    RELABEL = {"ORG", "GPE", "LOC", "FAC", "PRODUCT", "WORK_OF_ART", "NORP", "EVENT"}

    def __init__(self, supported_language: str = "en"):
        super().__init__(
            supported_entities=["PERSON"],
            name="RecMemPersonHeuristics",
            supported_language=supported_language,
        )

    def load(self) -> None:
        return None

    def analyze(self, text: str, entities: list[str], nlp_artifacts=None) -> list[RecognizerResult]:
        found: dict[tuple[int, int], float] = {}

        def add(start: int, end: int, score: float) -> None:
            start, end = _trim_span(text, start, end)
            if end - start < 2:
                return
            if found.get((start, end), 0) < score:
                found[(start, end)] = score

        person_spans: list[tuple[int, int]] = []
        places: list[tuple[int, int]] = []
        for start, end, label, ent_text in _raw_entities(nlp_artifacts):
            if label == "PERSON":
                person_spans.append((start, end))
                continue
            if label in ("GPE", "LOC", "FAC"):
                places.append((start, end))
            words = ent_text.replace("’s", "").replace("'s", "").split()
            if label in self.RELABEL and "\n" not in ent_text.strip() and name_shaped(words, min_words=2):
                add(start, end, 0.86)

        self._cues(text, add, places)

        for m in re.finditer(r"\b([^\W\d_][\w'’\-]+)[ \t]+([A-Z])\.?[ \t]+([^\W\d_][\w'’\-]+)", text):
            if name_shaped([m.group(1), m.group(2), m.group(3)], min_words=3):
                add(m.start(), m.end(), 0.7)

        speakers = [
            m for m in _SPEAKER_RE.finditer(text) if name_shaped(m.group("name").split(), max_words=2)
        ]
        if len(speakers) >= 2:
            for m in speakers:
                add(m.start("name"), m.end("name"), 0.9)

        if text.count("\n") >= 2 and _CONTACT_HINT_RE.search(text):
            for m in _NAME_LINE_RE.finditer(text):
                words = m.group("name").split()
                if name_shaped(words, min_words=2) and not any(
                    ps <= m.start("name") < pe for ps, pe in places
                ):
                    add(m.start("name"), m.end("name"), 0.7)

        self._lists(text, person_spans + list(found), add)
        self._consistency(text, person_spans + list(found), add)
        return [_result(self, "PERSON", s, e, score) for (s, e), score in found.items()]

    @staticmethod
    def _cues(text: str, add, places: list[tuple[int, int]]) -> None:
        for m in _HONORIFIC_CUE.finditer(text):
            span = _leading_name(text, m.end(), min_words=1)
            if span:
                add(*span, 0.9)
        for m in _RELATION_CUE.finditer(text):
            span = _leading_name(text, m.end(), min_words=1, max_words=2)
            if span:
                add(*span, 0.9)
        for m in _STRONG_CUE.finditer(text):
            span = _leading_name(text, m.end(), min_words=1)
            if span:
                add(*span, 0.88)
            elif re.search(r"name\s*(?:is|'s)|call(?:s|ed)? me", m.group(0), re.I):
                span = _lower_name_after(text, m.end())
                if span:
                    add(*span, 0.88)
        for m in _WEAK_CUE.finditer(text):
            span = _leading_name(text, m.end(), min_words=2)
            if span and not any(s < span[1] and span[0] < e for s, e in places):
                add(*span, 0.7)
        for m in _HUMAN_VERB_AFTER.finditer(text):
            # the word right before the verb
            head = text[max(0, m.start() - 40) : m.start()]
            wm = re.search(r"([^\W\d_][\w'’\-]*)$", head)
            if not wm:
                continue
            start = m.start() - len(wm.group(1))
            if is_name_token(wm.group(1)) and len(wm.group(1)) >= 2:
                add(start, m.start(), 0.7)

    @staticmethod
    def _lists(text: str, persons: list[tuple[int, int]], add) -> None:
        group_starts = [m.end() for m in _GROUP_CUE.finditer(text)]
        for line_m in re.finditer(r"[^\n]+", text):
            line, off = line_m.group(0), line_m.start()
            items = list(_LIST_ITEM_RE.finditer(line))
            runs: list[list[re.Match[str]]] = []
            run: list[re.Match[str]] = []
            for it in items:
                if run and _LIST_SEP_RE.match(line[run[-1].end() : it.start()]):
                    run.append(it)
                else:
                    if len(run) >= 2:
                        runs.append(run)
                    run = [it]
            if len(run) >= 2:
                runs.append(run)
            for r in runs:
                spans = [(off + it.start(), off + it.end()) for it in r]
                has_person = any(any(s < pe and ps < e for ps, pe in persons) for s, e in spans)
                introduced = any(0 <= spans[0][0] - g <= 2 for g in group_starts)
                if not (has_person and len(r) >= 3) and not introduced:
                    continue
                for (s, e), it in zip(spans, r, strict=True):
                    if name_shaped(it.group(0).split(), max_words=2):
                        add(s, e, 0.86 if has_person else 0.75)

    @staticmethod
    def _consistency(text: str, persons: list[tuple[int, int]], add) -> None:
        names = set()
        for s, e in persons:
            full = " ".join(text[s:e].split())
            if " " in full and name_shaped(full.split(), min_words=2):
                names.add(full)  # the full name first (longest alternatives win), then its parts
            for w in text[s:e].split():
                w = w.strip(".,;:!?'’\"").removesuffix("'s").removesuffix("’s")
                if len(w) >= 3 and is_name_token(w):
                    names.add(w)
        if not names:
            return
        alternation = "|".join(sorted(map(re.escape, names), key=len, reverse=True))
        for m in re.finditer(r"(?<![\w])(?:" + alternation + r")(?![\w])", text):
            if not any(s <= m.start() < e for s, e in persons):
                add(m.start(), m.end(), 0.86)


def _raw_entities(nlp_artifacts) -> list[tuple[int, int, str, str]]:
    """spaCy entities with spaCy's own labels: cached by the RecMem NLP engine, else read from the Doc."""
    cached = getattr(nlp_artifacts, "recmem_raw_entities", None)
    if cached is not None:
        return cached
    doc = getattr(nlp_artifacts, "tokens", None)
    if doc is None or not hasattr(doc, "ents"):
        return []
    return [(e.start_char, e.end_char, e.label_, e.text) for e in doc.ents]


def _trim_span(text: str, start: int, end: int) -> tuple[int, int]:
    while end > start and (text[end - 1].isspace() or text[end - 1] in ".,;:!?\"'’)"):
        end -= 1
    if text[start:end].endswith(("'s", "’s")):
        end -= 2
    while start < end and (text[start].isspace() or text[start] in "\"'‘(“"):
        start += 1
    return start, end
