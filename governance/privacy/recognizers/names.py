"""Names and places on top of the spaCy NER: street addresses (LOCATION) and PERSON heuristics.

:class:`StreetAddressRecognizer` (a street line and the postal block that follows it) and
:class:`PersonHeuristicRecognizer` (improves the small spaCy model's PERSON recall with generic cues, see its
docstring); :func:`trim_name_span`, :func:`is_name_token` and :func:`name_shaped` are also used by the engine.
"""

from __future__ import annotations

import functools
import itertools
import re
import unicodedata
from collections.abc import Sequence

from presidio_analyzer import EntityRecognizer, RecognizerResult
from spacy.lang.en.stop_words import STOP_WORDS as _SPACY_STOP_WORDS

from ..vocabulary import (
    common_words,
    given_names,
    is_name_term,
    is_plain_word,
    is_tech_word,
    listed_given_names,
    name_dictionary,
    name_shape,
    name_term_set,
    surnames,
)
from ._common import (
    CUED_NAME_SCORE,
    WRITTEN_LANGUAGES,
    _result,
    a_persons_name,
    faker_calendar_names,
    foreign_script,
    reads_as_english,
    spacy_stop_words,
    table_cells,
    written_languages,
)
from .addresses import address_runs, cjk_addresses, recipients

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
    r"plein|utca|centret|str\.)"  # (German's abbreviation: "Hauptstr. 5")
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
    # a house number before a street type that comes first: "1812 Rue De La Gare"
    r"|\b\d{1,6}[ \t]+(?:\d{1,5}[ \t]+)?(?:Rue|Rua|Via|Calle|Avenida|Chemin|Allée)(?:[ \t]+(?:" + _T
    + r"|de|da|do|dos|das|del|della|di|la|le|du|des|l'|d')){1,6}"
    # military and post-office boxes, in any case
    r"|\b(?i:PSC|Unit|CMR)[ \t]+\d{3,5},?[ \t]+(?i:Box)[ \t]+\d{3,5}"
    r"|\b(?i:USNS|USNV|USS|USCGC)[ \t]+[^\W\d_][\w'’.\-]*|\b(?i:APO|FPO|DPO)[ \t]+(?i:AA|AE|AP)[ \t]+\d{5}"
    r"|\b(?i:P\.?[ \t]?O\.?[ \t]+Box)[ \t]+\d{1,6})"
)
_TAIL = (
    # the postcode and city written on after the number without a comma, as Europe orders them ("Via Roma 10 20121
    # Milano MI", "Bahnhofstrasse 21 8001 Zürich")
    r"(?:[ \t]+(?:\d{4,5}|\d{2}-\d{3}|\d{3}[ \t]\d{2})[ \t]+" + _T + r"(?:[ \t]+[A-Z]{2}\b)?(?![ \t]*\d))?"
    r"(?:,?[ \t]+"
    + _T
    + r"(?:[ \t]+(?:"
    + _T
    + r"|\("
    + _T
    + r"\)|[A-Z]{2}|de|del|la))*(?:[ \t]+[A-Z0-9]{2,4}[ \t]?\d{3,5}|[ \t]+\d{4,6})?){0,3}"
)
_STREET_RE = re.compile(_CORE + _UNIT + _TAIL)
# the number after the street, as most of Europe writes it: "Villacher Strasse 89" (its own pattern, run only when
# one of its street words occurs: scanning every capitalised word for it is the costly part)
_EURO_WORDS = ("strasse", "straße", "gasse", "weg", "platz", "allee", "ring", "damm", "ufer", "street", "road",
               "avenue", "lane")
_EURO_STREET_RE = re.compile(
    r"\b(?:" + _T + r"[ \t]+){1,3}(?i:" + "|".join(_EURO_WORDS) + r")[ \t]+\d{1,5}[A-Za-z]?\b" + _UNIT + _TAIL
)
# a text with no capital letter at all: case carries no information, the same shapes in any case
_STREET_RE_ANY_CASE = re.compile(_CORE + _UNIT + _TAIL, re.I)
# Addresses as other countries write them (round 44, the tune half of the leak set): the street type first, in lower
# case, after the house number ("12 bis, rue des Acacias", "1450, rue Saint-Denis, app. 302"); Russian ("ул. Ленина,
# д. 24, кв. 7"); Turkish ("Atatürk Bulvarı No: 118 Daire 5"); Indian ("Flat 302, Sai Krupa Apartments, 14th Cross,
# Indiranagar"); a Dutch street after its particle and with its floor ("Van Speijkstraat 71-II"); and the floor and
# door after any street ("Calle Mayor 45, 2º izquierda"; the normalisation reads "º" as "o"). Types that are English
# words too ("via", "place", "route") are left out of the number-first form: "sent 2 via Slack" is no address.
_PLACE_WORDS = r"(?:(?:" + _T + r"|de|des|du|la|le|les|del|della|di|da|do|dos|das|d'|l')[ \t]+){0,4}" + _T
_INTL_UNIT_RE = re.compile(
    r"(?:,?[ \t]+(?:(?i:app|appt|apt|bte|esc|piso|puerta|pta|daire|kat|blok|кв|квартира|корп|корпус|стр|под|"
    r"подъезд|эт)\.?:?[ \t]*\w{1,5}\b|D:[ \t]*\d{1,4}\b|"
    r"\d{1,2}\.?[ºª°oa](?:[ \t]*(?:(?i:izquierda|derecha|izda|izq|dcha|dcho|dta|dto|esq|frente|centro)\b\.?|"
    r"[A-Z]\b))?))+")
_NUMBER_FIRST_RE = re.compile(
    r"\b\d{1,5}(?:[ \t]*(?i:bis|ter|quater)\b|[A-Za-z]\b)?,?[ \t]+(?i:rue|avenue|boulevard|bd|chemin|allée|impasse|"
    r"quai|calle|avenida|avda\.|paseo|rua|travessa|largo|praça|viale|piazza|vicolo|ulica)[ \t]+" + _PLACE_WORDS + r"\b")
_RU_STREET_RE = re.compile(
    r"(?<![\w\-])(?i:ул|улица|просп|проспект|пр-т|пер|переулок|наб|набережная|шоссе|пл|площадь|б-р|бульвар)\.?[ \t]*"
    r"[А-ЯЁ][\w\-]*(?:[ \t]+[\w\-]+){0,2}?,?[ \t]*(?i:д|дом)\.?[ \t]*\d{1,4}[а-яА-Я]?(?:/\d{1,3})?\b")
_TR_STREET_RE = re.compile(
    r"\b(?:" + _T + r"[ \t]+){1,3}(?:Caddesi|Cad\.|Cd\.|Sokak|Sokağı|Sok\.|Sk\.|Bulvarı|Blv\.|Mahallesi|Mah\.|"
    r"Mh\.)(?:[ \t,]*No[:.]?[ \t]*\d{1,5}(?:/\d{1,4})?)?")
_IN_STREET_RE = re.compile(
    r"\b(?:Flat|House|Plot|Door)[ \t]*(?:No\.?[ \t]*)?\d{1,5}[A-Z]?(?:,[ \t]*(?:(?:" + _T + r"[ \t]+){0,3}"
    r"(?:Apartments|Apts|Residency|Enclave|Towers|Heights|Complex|Society|Colony|Nagar|Layout)|\d{1,3}(?:st|nd|rd|th)"
    r"[ \t]+(?:Cross|Main|Block|Stage|Phase|Sector)(?:[ \t]+(?:Road|Rd))?))+(?:,[ \t]*" + _T + r")?")
_NL_STREET_RE = re.compile(
    r"\b(?:(?:Van|De|Den|Der|Ter|Ten|Le|La|Von)[ \t]+)*" + _T + r"(?:straat|laan|weg|plein|gracht|kade|singel|dijk|"
    r"steeg|dreef|hof)[ \t]+\d{1,5}(?:-(?:[IVX]{1,4}|\d{1,3}|hs|bis)\b|[ \t]?[A-Za-z]\b)?")
_INTL_TRIGGERS = tuple("""rue avenue boulevard bd chemin allée impasse quai calle avenida avda paseo rua travessa
largo praça viale piazza vicolo ulica caddesi cad. cd. sokak sokağı sok. sk. bulvarı blv. mahallesi mah. mh. flat house
plot door straat laan weg plein gracht kade singel dijk steeg dreef hof""".split())
# "the corner of Kuusiku 7 and Alexander Flat": a place given by two streets
_CORNER_PART = (
    r"(?:(?:" + _T + r"|\d{1,5}[A-Za-z]?|[a-z]{1,4}\.|de|del|la|le|von|van)[ \t]+){0,4}?(?:" + _T + r"|\d{1,5})"
)
_CORNER_RE = re.compile(
    r"\b(?:the[ \t]+)?corner[ \t]+of[ \t]+" + _CORNER_PART + r"[ \t]+(?:and|&)[ \t]+" + _CORNER_PART
)
_CORNER_RE_ANY_CASE = re.compile(_CORNER_RE.pattern, re.I)
# following lines of a postal block: "Suite 838", "Tujetsch", ", CO", "Uruguay 64677", "53650", "KNIVSTA, nan
# 18237"
_BLOCK_LINE_RE = re.compile(
    r"[ \t>]*(?:(?:Apt\.?|Apartment|Suite|Ste\.?|Unit|Flat|Floor)[ \t]*#?[ \t]*\w{1,6}\.?|"
    r",?[ \t]*[^\W\d_][\w'’.\-]*(?:[ \t]+(?:[^\W\d_][\w'’.\-]*|"
    r"\([^\W\d_]+\)))*,?(?:[ \t]+[A-Za-z]{2,3})?(?:[ \t]+[A-Z0-9]{2,4}[ \t]?\d{3,5}|[ \t]+\d{4,6})?|"
    r",?[ \t]*[A-Za-z]{2,3}|\d{4,6}|[A-Z]\d[A-Z][ \t]?\d[A-Z]\d)[ \t]*(?=\n|$)"
)


# An address written on one line with separators: "Anna Berg > Storgatan 12 > 114 51 Stockholm > Sweden"
_SEPARATOR_RE = re.compile(r"[ \t]+[>|•·»][ \t]+")
_POSTCODE_CITY_RE = re.compile(
    r"(?:[A-Z]{1,2}\d[A-Z\d]?[ \t]?\d[A-Z]{2}|\d{3}[ \t]?\d{2}|\d{4,6}|[A-Z]{1,3}-?\d{3,5})[ \t]+[^\W\d_][\w'’.\-]*"
    r"(?:[ \t]+[^\W\d_][\w'’.\-]*){0,2}|[^\W\d_][\w'’.\-]*(?:[ \t]+[^\W\d_][\w'’.\-]*){0,2},?[ \t]+"
    r"(?:[A-Z]{2}[ \t]+)?\d{4,6}"
)


_NAME_NUMBER_RE = re.compile(r"(?:[^\W\d_][\w'’.\-]*[ \t]+){1,3}\d{1,5}[A-Za-z]?")  # "Karlova 15"


def separated_address_segments(text: str) -> list[tuple[int, int, str]]:
    """Segments of one-line address blocks — lines of 3+ short parts joined by ``>``/``|``/``•`` of which one is a
    street or a postcode + city — as ``(start, end, kind)`` with kind ``street``, ``postal``, ``name`` (name-shaped
    words: the recipient when first, a place otherwise)."""
    out: list[tuple[int, int, str]] = []
    for line_m in re.finditer(r"[^\n]+", text):
        line = line_m.group(0)
        if len(_SEPARATOR_RE.findall(line)) < 2:
            continue
        bounds, pos = [], 0
        for sep in _SEPARATOR_RE.finditer(line):
            bounds.append((pos, sep.start()))
            pos = sep.end()
        bounds.append((pos, len(line)))
        parts = []
        for n, (a, b) in enumerate(bounds):
            if n == 0 and ":" in line[a:b]:  # "Ship to: Anna Berg"
                a = a + line[a:b].rindex(":") + 1
            seg = line[a:b].strip(" \t,.;:")
            if not seg or len(seg.split()) > 6:
                parts = []
                break
            start = line_m.start() + a + line[a:b].index(seg)
            if any(r.fullmatch(seg) for r in (_STREET_RE, _STREET_RE_ANY_CASE, _EURO_STREET_RE, _NAME_NUMBER_RE)):
                kind = "street"
            elif _POSTCODE_CITY_RE.fullmatch(seg):
                kind = "postal"
            elif all(w[0].isupper() or not w[0].isalpha() for w in seg.split()) and not any(c.isdigit() for c in seg):
                kind = "name"
            else:
                kind = ""
            parts.append((start, start + len(seg), kind))
        if len(parts) >= 3 and any(k in ("street", "postal") for _, _, k in parts):
            out.extend(p for p in parts if p[2])
    return out


def _with_unit(text: str, end: int) -> int:
    """``end`` moved past the flat, floor or door written after a street ("…, app. 302", "…, 2º izquierda", "…, кв.
    7", "… Daire 5"), on the same line."""
    m = _INTL_UNIT_RE.match(text, end)
    return m.end() if m and "\n" not in m.group(0) else end


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
            supported_entities=["LOCATION", "PERSON"],
            name="RecMemStreetRecognizer",
            supported_language=supported_language,
        )

    def load(self) -> None:
        return None

    def analyze(self, text: str, entities: list[str], nlp_artifacts=None) -> list[RecognizerResult]:
        out = []
        any_case = not any(c.isupper() for c in text)
        low = text.lower()
        if "corner" in low:
            for m in (_CORNER_RE_ANY_CASE if any_case else _CORNER_RE).finditer(text):
                out.append(_result(self, "LOCATION", m.start(), m.end(), 0.9))
        if any(w in low for w in _EURO_WORDS):
            for m in _EURO_STREET_RE.finditer(text):
                if "\n" not in m.group(0):
                    out.append(_result(self, "LOCATION", m.start(), m.end(), 0.9))
        if ">" in text or "|" in text or "•" in text or "·" in text or "»" in text:
            segments = separated_address_segments(text)
            for i, (s, e, kind) in enumerate(segments):
                if kind != "name" or i > 0:  # the first name-shaped part is the recipient (a person)
                    out.append(_result(self, "LOCATION", s, e, 0.9))
        intl = [_NUMBER_FIRST_RE, _TR_STREET_RE, _IN_STREET_RE, _NL_STREET_RE] if any(
            w in low for w in _INTL_TRIGGERS) else []
        if not all(c < "\u0370" for c in text):
            intl.append(_RU_STREET_RE)
        for pattern in intl:
            for m in pattern.finditer(text):
                if "\n" not in m.group(0):
                    out.append(_result(self, "LOCATION", m.start(), _with_unit(text, m.end()), 0.9))
        for m in (_STREET_RE_ANY_CASE if any_case else _STREET_RE).finditer(text):
            s, e = m.start(), _with_unit(text, m.end())
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
        # the rest of the address on the street's line, in the country's order (addresses.py)
        runs = address_runs(text, [(r.start, r.end) for r in out])
        for s, e in [*runs, *cjk_addresses(text)]:
            out.append(_result(self, "LOCATION", s, e, 0.9))
        for s, e in recipients(text, runs):  # who it is sent to
            out.append(_result(self, "PERSON", s, e, 0.85))
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
Wow Woah Whoa Yay Congrats Congratulations Aw Aww Hooray Omg Gosh Geez Haha Lol Yo Hiya Howdy Bye Goodbye
With By From Is Are Was Were Be Been This That These Those It Its My Our Your Their His Her We You They I
Mr Mrs Ms Miss Dr Prof Amazon Google Microsoft Apple Facebook Meta Netflix Tesla Twitter Slack GitHub Linux
Windows Python Java Docker Kubernetes Postgres Django React API SDK CLI UI UX AI ML LLM OK FAQ
Everyone Everybody Someone Somebody Nobody Anyone Anybody Nothing Everything Something He She It They We
Him Them Who What When Where Why How Which Here There Now Then Today Tomorrow Yesterday Also But If So
Bot Chatbot Model Server Client Host Service Billing Shipping Account Order Invoice Payment Card
""".split()
)

# English greetings said to a person before the name, which the model reads as part of it ("Morning Sam!")
_SAID_TO_A_NAME = frozenset("morning evening afternoon night goodnight gm welcome kudos cheers shoutout".split())
# Said to a person, never a person, place or group: "Wow, Caroline", "Congrats, Nate" ("Congrats" came out NRP).
INTERJECTIONS = frozenset("""wow woah whoa yay congrats congratulations aw aww hooray omg gosh geez haha lol yo hiya
    howdy bye goodbye hey hi hello thanks oh""".split())
_NOT_NAME_WORDS = _NOT_NAME_WORDS | INTERJECTIONS | frozenset(
    """later then meanwhile afterwards finally anyway actually unfortunately luckily sadly honestly maybe
    perhaps well oh ok okay sure yes no please thanks thank so now also still yet again first last
    next""".split()
) | _SAID_TO_A_NAME  # "Morning Sam!" is Sam


# particles between a given name and a surname, or inside a surname ("Maarten van der Heijden", "María de la Cruz",
# "Ahmad bin Ismail")
_NAME_PARTICLES = frozenset("van der den de del della di da das dos du la le von zu bin binti ibn bint al el ter ten "
                            "mac st".split())
# greetings of other languages before a name ("Hola Carmen", "Hallo Jens"): no part of it
_GREETINGS = frozenset("hola hallo ciao salut bonjour olá ola hej hei moin servus merhaba salam shalom namaste "
                       "privet cześć czesc ahoj szia hoi dear please thank".split())
_NEXT_NAME_WORD_RE = re.compile(r"[ \t]([^\W\d_][\w'’\-]*)")
_PREVIOUS_NAME_WORD_RE = re.compile(r"([^\W\d_][\w'’\-]*)[ \t]\Z")


def _a_name_word(word: str) -> bool:
    """A capitalised word that is a name of the lexicon, or one no vocabulary holds that is spelt like a name (the
    name shape at 0.9 or more: "Oyelaran", "Müller-Lüdenscheidt")."""
    if not word[:1].isupper() or word.casefold() in INTERJECTIONS or word.casefold() in _GREETINGS:
        return False
    if _a_name_of_some_list(word):
        return True  # (a surname that is a word too: "Helen Park", "Ana Rose")
    low = word.casefold()
    if low in common_words() or is_tech_word(low):
        return False
    shape = name_shape(word)
    return shape is not None and shape >= 0.9


# the sentence goes on after the name, in lower case ("Tikva <Ben-Haim> approved …"): not a vocative after an
# exclamation ("Woohoo <Caroline>!")
_SENTENCE_GOES_ON_RE = re.compile(r"[ \t]+[a-z]")


def _opens_a_sentence(text: str, pos: int) -> bool:
    return not text[:pos].strip() or text[:pos].rstrip(" \t")[-1:] in (".", "!", "?", "\n", ":")


def _unlisted_title_word(word: str) -> bool:
    """A title-case word no vocabulary holds (a name list, the words of prose, plain words, technology): before a
    surname the model found, at a sentence's start, it is the given name the model cut off ("Tigist <Bekele> and
    …", spelt like no name of the lists)."""
    return (len(word) >= 3 and word.isalpha() and word[0].isupper() and not word.isupper()
            and _unknown_word(word) and not is_plain_word(word) and word.casefold() not in INTERJECTIONS
            and word.casefold() not in _GREETINGS)


def grow_name_span(text: str, start: int, end: int) -> tuple[int, int]:
    """A person's span widened over the rest of the name the model cut off: a surname after it ("<Helen> Park",
    "<Carmen Ibáñez> Ruiz"), a given name before it ("Rajesh <Pillai>"), and the particles between ("Maarten van der
    <Heijden>"). Only words of one line, one space apart, each a name word (:func:`_a_name_word`)."""
    for _ in range(2):  # after: at most two more words of a name, each behind its particles
        pos, seen = end, end
        while (m := _NEXT_NAME_WORD_RE.match(text, pos)) is not None:
            word = m.group(1)
            if word.casefold() in _NAME_PARTICLES and not word[:1].isupper():
                pos = m.end()
                continue
            if _a_name_word(word):
                seen = m.end()
            break
        if seen == end:
            break
        end = seen
    for _ in range(2):  # before: a given name, and the particles between it and the span
        pos, seen = start, start
        while (m := _PREVIOUS_NAME_WORD_RE.search(text, max(0, pos - 40), pos)) is not None:
            word = m.group(1)
            if word.casefold() in _NAME_PARTICLES and not word[:1].isupper():
                pos = m.start()
                continue
            if (_a_name_word(word) or (" " not in text[start:end].strip() and _opens_a_sentence(text, m.start())
                                       and _SENTENCE_GOES_ON_RE.match(text, end) and _unlisted_title_word(word))) \
                    and (m.start() == 0 or not text[m.start() - 1].isalnum()):
                seen = m.start()
            break
        if seen == start:
            break
        start = seen
    if end > start and "\u0621" <= text[end - 1] <= "\u064a":
        end = _arabic_name_chain(text, start, end)
    return start, end


# An Arabic full name is a chain: a given name, "ibn"/"bint" and the father's name (again and again), then the family
# name, a nisba ending in -ī ("عبد الرحمن بن سعيد الغامدي")
_ARABIC_LINK_RE = re.compile(r"[ \t]+(?:بن|بنت|ابن|ابنة)[ \t]+[\u0621-\u064a]{2,}")
_ARABIC_AFTER_LINK_RE = re.compile(r"[ \t]+[\u0621-\u064a]{2,}")
_NISBA_RE = re.compile(r"[ \t]+ال[\u0621-\u064a]{2,}ي(?![\u0621-\u064a])")


def _arabic_name_chain(text: str, start: int, end: int) -> int:
    if re.search(r"(?:^|[ \t])(?:بن|بنت|ابن|ابنة)\Z", text[start:end]) and (
            m := _ARABIC_AFTER_LINK_RE.match(text, end)):
        end = m.end()  # the span stopped at the link itself
    while (m := _ARABIC_LINK_RE.match(text, end)) is not None:
        end = m.end()
    if (m := _NISBA_RE.match(text, end)) is not None:
        end = m.end()
    return end


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


# a greeting opening a name guess ("Morning Sam", "Cheers Ray", "welcome back Sage")
_LEADING_GREETING_RE = re.compile(
    r"(?i)(?:good[ \t]+)?(?:" + "|".join(sorted(_SAID_TO_A_NAME | {"hi", "hey", "hello", "thanks", "thx", "congrats",
                                                                   "congratulations"}, key=len, reverse=True))
    + r")(?:[ \t]+back)?[ \t,]+")
# lower-case words at the edges of a capitalised name, no particle of a name among them ("van", "de", "al" stay)
_LOWER_EDGES_RE = re.compile(
    r"(?:(?!(?:" + "|".join(sorted(_NAME_PARTICLES)) + r")\b)[a-z]+[ \t]+)+"
    r"(?P<name>[A-Z][^\s]*(?:[ \t]+[A-Z][^\s]*)*)(?:[ \t]+[a-z]+)*")


def name_in_guess(text: str, start: int, end: int, *, model_guess: bool) -> tuple[int, int]:
    """The name inside a person guess, before any test of it: without the greeting said to it ("Morning Sam!",
    "Cheers Ray,") and, in the model's guess, without the lower-case words around a capitalised name ("text Sam at":
    a verb and a preposition). :func:`trim_name_span` trims the words no name holds once the guess is taken."""
    if (lead := _LEADING_GREETING_RE.match(text, start, end)) and lead.end() < end:
        start = lead.end()
    if model_guess and (edge := _LOWER_EDGES_RE.fullmatch(text, start, end)):
        start, end = edge.span("name")
    return start, end


_NAME_TOKEN_RE = re.compile(r"[^\W\d_][^\W\d_'’\-]*(?:[’'\-][^\W\d_]+)*")


# an initial, also a compound one as French and German write them ("J.-P.", "V.-T.")
_COMPOUND_INITIAL_TAIL_RE = re.compile(r"-[^\W\d_a-z]\.")
_INITIAL_RE = re.compile(r"[^\W\d_a-z]\.?|[^\W\d_a-z]\.-[^\W\d_a-z]\.")


def is_name_token(tok: str) -> bool:
    """Title-case alphabetic token (diacritics allowed), not a stop/designator word, or an initial."""
    if _is_initial(tok):
        return True
    if len(tok) == 1:
        return False
    if not _NAME_TOKEN_RE.fullmatch(tok):
        return False
    if not (tok[0].isupper() and not tok.isupper()):
        return False
    parts = re.split(r"[’'\-]", tok)
    if any(p and not p[0].isupper() and p not in ("s",) for p in parts[1:]) and "-" in tok:
        return False
    if _CONTRACTION_RE.fullmatch(tok):
        return False  # "Thanks, I'll pull the credentials": a pronoun's contraction ("O'Neil" stays a name)
    return tok.lower() not in _NOT_NAME_WORDS


_CONTRACTION_RE = re.compile(r"(?i)(?:i|we|you|he|she|it|they|that|there|here|what|who|let)['’](?:ll|m|ve|d|re|s)")


def _is_initial(tok: str) -> bool:
    return bool(_INITIAL_RE.fullmatch(tok)) and tok[0].isupper()


def name_shaped(words: Sequence[str], *, min_words: int = 1, max_words: int = 4) -> bool:
    """All tokens name-like, first and last not initials, at most one initial in between."""
    if not min_words <= len(words) <= max_words:
        return False
    if not all(is_name_token(w) for w in words):
        return False
    # a compound initial may lead ("J.-P. Marchand"): unlike "A." it starts no sentence or list item
    if (_is_initial(words[0]) and "-" not in words[0]) or _is_initial(words[-1]):
        return False
    return sum(_is_initial(w) for w in words) <= 1


_CUE_FLAGS = re.I

# honorific + name (one word is enough)
_HONORIFIC_CUE = re.compile(
    r"\b(?:Mr|Mrs|Ms|Mx|Miss|Dr|Prof|Sir|Dame|Madam|Mme|Mlle|Herr|Frau|Señor|Señora|Sr|Sra|"
    # ... and as other languages address a person (round 46): Malay and Indonesian, Dutch, Italian, Portuguese,
    # Polish, Hindi, Arabic and Hausa titles ("Encik Faizal", "Dhr. de Vries", "Sig.ra Bianchi", "Shri Ramesh")
    r"Encik|Puan|Cik|Tuan|Datuk|Dato|Bapak|Pak|Ibu|Dhr|Mevr|Mevrouw|Meneer|Sig|Sig\.ra|Signor|Signora|Dott|"
    r"Dott\.ssa|Dona|Pani|Shri|Smt|Sheikh|Alhaji|Hajiya|"
    # Turkish ("Bayan Yılmaz", "Bay Demir"), Vietnamese ("chị Lê Thị Mai", "anh Tuấn"), Czech ("paní Horákovou")
    r"Bayan|Bay|chị|anh|cô|chú|bác|ông|bà|paní)\.?[ \t]+",
    _CUE_FLAGS,
)
# the particles of a surname an honorific may stand before ("Mevrouw de Vries", "Herr von Weizsäcker", "Señora de la
# Vega", "Sig.ra Di Stefano" is capitalised already)
_SURNAME_PARTICLES_RE = re.compile(
    r"(?:(?:de|van|der|den|von|zu|da|di|del|della|dos|das|do|le|la|du|ten|ter|bin|binti|al|el|ibn)[ \t]+){1,3}")
# and the titles written after a name: Turkish "Ahmet Bey", "Ayşe Hanım"
_HONORIFIC_AFTER_RE = re.compile(r"(?<![\w\-])([^\W\d_a-z][^\W\d_]{1,30})[ \t]+(?:Bey|Hanım|Hanımefendi)\b")
# relation + name: "my son Lukas", "our colleague, Maria"
_RELATION_CUE = re.compile(
    r"(?:\b(?:my|our|his|her|their|your)|\buser['’]s)\s+(?:(?:little|older|younger|big|ex|late|new|best)[\s-])?(?:son|"
    r"daughter|kid|child|baby|wife|husband|spouse|partner|boyfriend|girlfriend|fiancée?|friend|colleague|"
    r"co-?worker|teammate|boss|manager|supervisor|brother|sister|sibling|mom|mum|mother|dad|father|grandma|"
    r"grandmother|grandpa|grandfather|grandson|granddaughter|uncle|aunt|cousin|nephew|niece|neighbou?r|"
    r"roommate|flatmate|landlord|landlady|tenant|teacher|tutor|doctor|dentist|therapist|lawyer|attorney|"
    r"accountant|assistant|client|customer|patient|student|intern|mentor|coach|nanny|"
    r"babysitter)[ \t]*,?[ \t]+",
    _CUE_FLAGS,
)
# a person's role at work before the name ("the agent Lindiwe hung up on him", "our intern Kofi", "the technician,
# Ama"): roles only people hold (no "driver", "candidate" or "agent" of software: a technology word stays)
_ROLE_CUE = re.compile(
    r"\b(?:the|our|their|your|this|that)[ \t]+(?:(?:support|sales|new|field|service)[ \t]+)?(?:agent|rep|"
    r"representative|technician|courier|nurse|intern|applicant|caller|requester|recruiter|interviewer|interviewee|"
    r"contractor|trainee|receptionist|cashier|clerk|hire)[ \t]*,?[ \t]+", re.I)
# ... and as other languages write a colleague before the name ("il collega Matteo Conti", "la collega Sara", "mi
# compañera Lucía", "mon collègue Hugo", "der Kollege Jonas", "o colega João", "moja koleżanka Ola")
_OTHER_RELATION_CUE = re.compile(
    r"\b(?:(?:il|la|lo|el|le|der|die|o|a|mi|mio|mia|mon|ma|mein|meine|meu|minha|moja|mój|onze|mijn)[ \t]+)?"
    r"(?:(?:nuov[oa]|nuev[oa]|nouvelle?|neue[rn]?|nov[oa])[ \t]+)?"
    r"(?:collega|colleghi|colega|compa[ñn]er[oa]|coll[èe]gue|kolleg(?:e|in)|kollega|kolega|kole[żz]anka|collega's)"
    r"[ \t]*,?[ \t]+", re.I)
# introductions and sign-offs: one name word is enough
_STRONG_CUE = re.compile(
    r"(?:\b(?:my|his|her|their|your|user['’]s|maiden|first|last|full|middle|user|customer|contact|family|given|"
    r"sur|nick)\s*name\s*(?:is|was|'s|:)|\b(?:surname|forename|nickname)\b\s*(?:is|was|:)?|\bname\s*:|"
    r"\bcall(?:s|ed)? me|\b(?:named|called)[ \t]+(?:him|her|them|me|us)|\bsigned,?|\bregards,?|\bthanks,|"
    r"\b(?:congrats|congratulations|wow|woah|whoa|yay|bye),|"
    # a greeting before one word that closes with a comma or "!": "Hey Caroline,", "Hi Sven!" (a vocative)
    r"\b(?:hi|hello|hey|hiya|howdy)(?=[ \t]+[^\W\d_][\w'’\-]*[ \t]*[,!])|"
    # ... and an apology or thanks before one (round 53: "sorry Kwabena, I force-pushed", "dziękuję Małgosia,")
    r"\b(?:sorry|thanks|thank[ \t]+you|thx|ty|danke|merci|gracias|grazie|obrigad[oa]|dzi[eę]kuj[eę]|dzi[eę]ki|"
    r"tack|takk|kiitos|dank[ \t]+je)(?=[ \t]+[^\W\d_][\w'’\-]*[ \t]*[,!])|"
    r"\bcheers,|\bdear|\bsincerely,?|"
    r"\bi'm|\bi am|\bthis is|\bnamed|\b(?:said|asked|told|shouted at|yelled at|replied to|wrote to|thanked|"
    r"texted|emailed|messaged|married|hired|invited|visited|congratulated|greeted|introduced|promoted|"
    r"according to|on behalf of|ask|tell|ping|cc:?|pinging|pinged|asking|telling|thanking|"
    # "per Olusegun, the cutover is at 9": a person cited (a comma closes the name; "per second" has none)
    r"per(?=[ \t]+[^\W\d_][\w'’\-]*[ \t]*,)))[ \t]+",
    _CUE_FLAGS,
)
# a commit's trailers name people, with or without their address ("Signed-off-by: Tunde Bakare")
_TRAILER_CUE_RE = re.compile(
    r"(?im)^[ \t]*(?:signed-off|co-authored|reviewed|acked|tested|reported|suggested|helped|approved|reviewed)-by:"
    r"[ \t]*")
# "Chidi's comment", "Tendai's PR": what a person writes, owns or is, after a possessive
_POSSESSIVE_OF_A_PERSON_RE = re.compile(
    r"(?<![\w@#/.\-])(?P<name>[^\W\d_a-z][^\W\d_A-Z]{2,30})['’]s[ \t]+(?:(?:last|latest|new|old|first)[ \t]+)?"
    r"(?:comments?|PRs?|pull requests?|reviews?|laptop|desk|idea|ideas|suggestion|proposal|question|message|"
    r"e-?mail|point|fix|patch|branch|commits?|tickets?|team|manager|lead|boss|birthday|wedding|leave|vacation|"
    r"holiday|notes|handover|shift|rota|calendar|sign-off|approval|feedback|doc|draft|slides|talk|demo|"
    r"onboarding|offboarding|account|access|phone|number|address|wife|husband|partner|kids?|son|daughter)\b")
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
    r"lives|lived|works|worked|joined|met|married|called|emailed|texted|and I|and me)\b"
)
# the pronouns a person gives after the name: "(she/her)", "(they/them)"
_PRONOUNS = r"\((?:she|he|they|ze|xe)/(?:her|hers|him|his|them|theirs|they|she|he|hir|xem)\)"
# What only a person does, around a word that names a product too ("Ray", "Julia", "Cassandra", "Crystal"): speaks,
# thinks, agrees, approves, is on call or on leave; is pinged, asked, thanked or greeted; pairs with "I". A product
# "works", "joins" a cluster, "handles" load, "adds" support and is sent logs to, so none of those is a cue here.
_PERSON_ACT_AFTER_RE = re.compile(
    r"(?:['’]s)?[ \t]+(?:(?:just|also|already|still|now|never|will|would|can|could|has|had|have)[ \t]+)?(?:"
    r"said|says|asked|asks|replied|replies|told|tells|thinks|thought|explained|mentioned|agreed|disagreed|suggested|"
    r"promised|wants|wanted|approved|volunteered|offered|apologi[sz]ed|confirmed[ \t]+(?:that|with)|"
    r"ported|rewrote|reimplemented|refactored|debugged|triaged|commented|took[ \t]+over|picked[ \t]+up|"
    r"signed[ \t]+off|is[ \t]+(?:on[ \t]+(?:call|leave|vacation|holiday|pto|parental)|out[ \t]+(?:sick|today|this)|"
    r"ooo|off[ \t]+today|back[ \t]+from)|was[ \t]+(?:on[ \t]+call|out[ \t]+sick)|and[ \t]+(?:i|me)\b|"
    # where a person is and what only a traveller or a speaker does: "Sunny will be working from Manila", "Léa is
    # relocating to Lisbon", "Hana is presenting the benchmark", "Dusty's on PTO" (a service is "back" or "down")
    r"(?:is|was|will[ \t]+be|['’]s)[ \t]+(?:working[ \t]+(?:from|remotely)|relocating|travell?ing|flying|visiting|"
    r"presenting|sick|on[ \t]+(?:pto|maternity|paternity|sick|call|leave|vacation|holiday)|"
    r"out[ \t]+(?:till|until|through|for[ \t]+the[ \t]+week|sick))|"
    r"(?:will|can|could)[ \t]+(?:present|cover[ \t]+for)|"
    # what a chat or a calendar writes of its users: "Sam joined #incidents", "Kai reacted with :+1:", "Iris accepted:
    # Weekly sync", "Sam is typing"
    r"joined[ \t]+#|left[ \t]+(?:the[ \t]+channel|#)|reacted[ \t]+with|set[ \t]+the[ \t]+channel|is[ \t]+typing|"
    r"(?:accepted|declined|tentatively[ \t]+accepted)[ \t]*:|"
    # the pronouns a person gives: "Sam (they/them)", "Hana Kim (she/her)"
    r"[ \t]*" + _PRONOUNS + ")",
    re.IGNORECASE)
_PERSON_ACT_BEFORE_RE = re.compile(
    r"(?:\b(?:ping|pinging|pinged|ask|asking|asked|tell|telling|told|thank|thanks|thx|cc|hi|hey|hello|dear|emailed|"
    r"messaged|text|texted|dm|dmed|remind|reminded|"
    # greeted, welcomed, congratulated, wished well: "Morning Sam!", "welcome Sage", "happy birthday Hana"
    r"(?:good[ \t]+)?morning|gm|congrats|congratulations|welcome(?:[ \t]+back)?|good[ \t]+luck|happy[ \t]+birthday|"
    r"(?:shout-?out|kudos|props)[ \t]+to|cheers|bye|goodnight|"
    # met, or reviewed by, as only a person is: "1:1 with Sam", "lunch with Iris", "reviewed by Julia" ("integrate
    # with Ray", "powered by Ray" are the product's)
    r"(?:1:1|one-on-one|1-on-1|pairing|paired|pair|meeting|met|lunch|coffee|dinner|call|interview|catch-?up|chat)"
    r"[ \t]+with|(?:reviewed|approved|signed[ \t]+off|reported|requested|raised|filed|assigned|added|invited|"
    r"removed)[ \t]+by)[ \t,:]+"
    r"|\b(?:me|i)[ \t]+and[ \t]+)\Z", re.IGNORECASE)
# what only a person has: "Ray's laptop died", "Julia's flight is delayed" ("Ray's scheduler" is the product's)
_PERSONAL_POSSESSION_AFTER_RE = re.compile(
    r"['’]s[ \t]+(?:laptop|phone|desk|birthday|wife|husband|partner|kids|son|daughter|family|manager|boss|flight|"
    r"leave|vacation|holiday|calendar|inbox|mum|mom|dad|parents|wedding|baby|first[ \t]+day|last[ \t]+day|"
    # and what identifies or reaches only a person: "Kim's mobile is …", "Hana's home address"
    r"mobile|cell|home[ \t]+(?:address|phone|number)|e-?mail[ \t]+address|passport|salary|dob|"
    r"date[ \t]+of[ \t]+birth)\b",
    re.IGNORECASE)
# asked to do what only a person does: "can Julia approve the change?", "could Ray take a look"
_MODAL_BEFORE_RE = re.compile(r"\b(?:can|could|would|will)[ \t]+\Z", re.IGNORECASE)
_REVIEW_AFTER_RE = re.compile(r"[ \t]+(?:please[ \t]+)?(?:approve|review|take[ \t]+a[ \t]+look|have[ \t]+a[ \t]+look|"
                              r"sign[ \t]+off|pair)\b", re.IGNORECASE)


def acts_as_a_person(text: str, start: int, end: int) -> bool:
    """The sentence has ``text[start:end]`` act as a person (:data:`_PERSON_ACT_AFTER_RE` and the patterns beside it):
    "Ray said the GPU nodes are back", "ping Crystal", "Luigi and I rewrote it", "can Julia approve it?"."""
    before = max(0, start - 40)
    return bool(_PERSON_ACT_AFTER_RE.match(text, end) or _PERSON_ACT_BEFORE_RE.search(text, before, start)
                or _PERSONAL_POSSESSION_AFTER_RE.match(text, end)
                or (_REVIEW_AFTER_RE.match(text, end) and _MODAL_BEFORE_RE.search(text, before, start)))


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
# the abbreviations chat and tickets use as labels ("FYI:", "Repro:", "TL;DR:"), which no lexicon lists
_CHAT_LABELS = frozenset("""fyi repro tldr eta wip nb ps pps imo imho afaik btw prereqs prereq todo fixme nit nits lgtm
ptal edit update re fwd aka asap rfc adr poc mvp okr kpi qa faq tbd tba""".split())
# what a person's turn says: a first- or second-person word, or a greeting
_TURN_RE = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|me|my|mine|we|we're|our|us|you|you're|your|hey|hi|hello|thanks|"
                      r"wow|congrats)\b", re.I)


_NAME_LINE_RE = re.compile(
    r"(?m)^[ \t>]*(?P<name>[^\W\d_][\w'’.\-]*(?:[ \t]+[^\W\d_][\w'’.\-]*){1,3})[ \t]*$"
)
_LIST_ITEM_RE = re.compile(
    r"(?<![\w'’\-])(?!(?:and|or|und|et|y)\b)[^\W\d_][\w'’\-]*(?:[ \t]+(?!(?:and|or|und|et|y|&)\b)[^\W\d_][\w'’\-]*)?"
)
_LIST_SEP_RE = re.compile(r"^\s*(?:,|,?\s+and|,?\s+&|,?\s+or)\s+$")
_CONTACT_HINT_RE = re.compile(r"@|\d{3,}|\b(?:phone|mobile|tel|fax|e-?mail|address|suite|apt)\b", re.I)
_SPACE_RE = re.compile(r"[ \t]*")
# 8. *display name*: the words right before an e-mail address in brackets are its owner's name, the convention of
# mail headers and signatures ("Hanka Marmarhan <h@x.org>", "Hanka Marmarhan (h@x.org)", '"Hanka M." <h@x.org>')
_DISPLAY_NAME_RE = re.compile(
    r"(?:^|(?<=[\s,;:>(\[]))(?P<q>[\"'“])?(?P<name>[^\W\d_][\w'’.\-]*(?:[ \t]+[^\W\d_][\w'’.\-]*){0,3})"
    r"[\"'”]?[ \t]*[<(\[][ \t]*(?:mailto:)?[\w.+%\-]+@[\w\-]+(?:\.[\w\-]+)+[ \t]*[>)\]]")
# 9. *subject*: a capitalised word that is no word of prose and no technology word, before a verb in a person's
# tense ("Sven set up the retention", "Noor is out sick", "Matías just landed"): the chat of a team names its people
# as the subjects of what was done. The model reads no name at the start of such a sentence.
_SUBJECT_VERB_RE = re.compile(
    r"(?<![\w@#./\-])(?P<name>[A-ZÀ-ÞĀ-ſ][a-zß-ÿā-ſ'’\-]+(?:[ \t]+[A-ZÀ-ÞĀ-ſ][a-zß-ÿā-ſ'’\-]+)?)[ \t]+"
    r"(?:(?:just|also|already|still|now|finally|never|will|can|could|should|would|might|has|had|is|was)[ \t]+)?"
    r"(?:is|was|will|would|can|can['’]t|cannot|could|should|has|had|hasn['’]t|wasn['’]t|won['’]t|isn['’]t|"
    r"doesn['’]t|didn['’]t|[a-z]{2,}ed|set|made|took|found|wrote|sent|ran|broke|built|got|gave|left|led|put|said|"
    r"saw|told|went|came|began|brought|caught|chose|drove|fell|felt|forgot|held|kept|knew|lost|met|paid|shut|"
    r"sold|spent|split|stood|threw|won|wants|needs|owns|covers|says|thinks|knows|leads|handles|prefers|likes|"
    r"agrees|asks|joins|leaves|takes|gets|is[ \t]+(?:out|off|on|at|in|away|back|flying|travell?ing|visiting|"
    r"working|pairing|sick|OOO))\b")
# 10. *mention*: a chat handle ("@lena", "@mei.lin") is a person's, unless it names a team, a bot, a tool or a word
_MENTION_RE = re.compile(r"(?<![\w.@/])@(?P<h>[A-Za-z][\w.\-]{0,30}[A-Za-z0-9]|[A-Za-z]{2})(?![\w@/(]|[.\-]\w)")


def _a_given_name(word: str, lexicon) -> bool:
    """A given name of the lexicon, or a compound of two ("Jean-Baptiste", "Anna-Lena": the leak set's reviewer list
    kept "Jean-Baptiste Le Gall" in clear). Not a given name and a surname: "Mercedes-Benz", "Harley-Davidson" (a
    surname of the lists that only the dictionary of first names has as a given name is a surname here)."""
    low = word.casefold()
    parts = low.split("-")
    return low in lexicon or (len(parts) == 2 and all(
        len(p) >= 2 and p in lexicon and (p not in surnames() or p in listed_given_names()) for p in parts))


def _a_name_of_some_list(word: str) -> bool:
    """A word some list holds as a person's name — a given name or surname of the lexicon, a technology word that is
    a given name too ("river", "ray"), or a word of prose a list of names holds ("maria", "grace") — for a place where
    only a person stands: a chat handle, a line opening with what someone did ("grace fixed it")."""
    low = word.casefold()
    return (low in given_names() or low in surnames() or is_name_term(low)
            or (low in common_words() and not is_plain_word(low) and not is_tech_word(low)))


_ADDRESS_RE = re.compile(r"(?<![\w.+%\-])([\w.+%\-]+)@[\w\-]+(?:\.[\w\-]+)+")
_NAME_RUN_RE = re.compile(r"(?<![\w'’.\-@])[^\W\d_a-z][^\W\d_]*(?:['’\-][^\W\d_]+)?"
                          r"(?:[ \t]+[^\W\d_a-z][^\W\d_]*(?:['’\-][^\W\d_]+)?){0,2}(?![\w@])")


def _letters(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", word.casefold()) if c.isalpha() and c.isascii())


def _names_an_address_spells(text: str) -> list[tuple[int, int]]:
    """8b. *the name an address spells*: title-case words on an e-mail address's line that its local part writes out,
    each word whole or by its initial ("Sunny Park from Acme (sunny.park@acme.kr)", "Ayesha Siddiqui — ayesha.s@…",
    "J. Smith" and "jsmith@…"): the address is the owner's, so are the words. A single word counts only when a
    list holds it as a name ("Sunny"; "Billing — billing@acme.com" is a mailbox of a team)."""
    found: list[tuple[int, int]] = []
    for address in _ADDRESS_RE.finditer(text):
        local = _letters(address.group(1))
        if len(local) < 3:
            continue
        line_start = text.rfind("\n", 0, address.start()) + 1
        line_end = text.find("\n", address.end())
        line_end = len(text) if line_end < 0 else line_end
        for run in _NAME_RUN_RE.finditer(text, line_start, line_end):
            if address.start() <= run.start() < address.end():
                continue
            words = list(re.finditer(r"\S+", run.group(0)))
            letters = [_letters(w.group(0)) for w in words]
            for n in range(len(words), 0, -1):  # the longest run of words from the first that the address spells
                forms = set()
                for order in itertools.permutations(letters[:n]):  # "Tan Wei Ming", weiming.tan@…
                    spelt_so = {""}
                    for whole in order:
                        spelt_so = {f + part for f in spelt_so for part in (whole, whole[:1])}
                    forms |= spelt_so
                spelt = local in forms and any(len(w) >= 3 and w in local for w in letters[:n])
                if spelt and (n >= 2 or _a_name_of_some_list(words[0].group(0))):
                    found.append((run.start(), run.start() + words[n - 1].end()))
                    break
    return found


_PRONOUNS_AFTER_NAME_RE = re.compile(
    r"(?<![\w@#/.\-])([^\W\d_a-z][\w'’\-]*(?:[ \t]+[^\W\d_a-z][\w'’\-]*){0,2})[ \t]*(?i:" + _PRONOUNS + ")")
# the last line of a message, a dash and one or two title-case words: its author's signature (a single hyphen opens
# a list item: "- Redis")
_SIGN_OFF_RE = re.compile(r"(?:^|\n)[ \t]*(?:—|–|-{1,2})[ \t]*([A-Z][a-z]+(?:[ \t]+[A-Z][a-z]+)?)[ \t]*\s*\Z")
_LIST_LINE_RE = re.compile(r"(?m)^[ \t]*[-*•–—][ \t]")


def _signed(text: str) -> re.Match[str] | None:
    """The signature ending a message ("thanks!\n— Sam"): after a dash that opens no list — the text's other lines
    are no list items ("- Redis\n- Sage" is a list) — and in a message of more than the signature."""
    sign_off = _SIGN_OFF_RE.search(text)
    before = text[: sign_off.start()].rstrip() if sign_off else ""
    if not before or before.endswith(":") or _LIST_LINE_RE.search(text, 0, sign_off.start() + 1):
        return None  # ("deps:\n- Ruby": a list of one under its heading)
    return sign_off

# a role only a person holds, labelled, then who holds it ("scribe: Ray", "reviewer: Kai Yang", "DRI: Hana",
# "attendees: Sam, Ray, Priya", "assigned to Julia"): a role of a meeting, an incident or a review, not one a machine
# or a team may hold too ("host", "driver", "owner", "contact" are left out)
_ROLE_LABEL_RE = re.compile(
    r"(?i)(?<![\w\-])(?:reviewers?|assignees?|approvers?|scribe|note-?taker|comms|(?:incident[ \t]+)?commander|ic|dri|"
    r"on-?call(?:[ \t]+this[ \t]+week)?|backup|secondary|primary|attendees|participants|facilitator|presenters?|"
    r"speakers?|our[ \t]+side|their[ \t]+side|reporter|requester|requested[ \t]+by|reported[ \t]+by|"
    r"reviewed[ \t]+by|approved[ \t]+by)[ \t]*:[ \t]*|(?<![\w\-])assigned[ \t]+to[ \t]+")
_HOLDER_RE = re.compile(r"([A-Z][a-z]+(?:-[A-Za-z][a-z]+)?(?:[ \t]+[A-Z][a-z]+(?:-[A-Z][a-z]+)?)?)"
                        r"(?=[ \t]*(?:[,;.!)\n]|and\b|&|\Z))")
_HOLDER_SEP_RE = re.compile(r"[ \t]*(?:,|and|&)[ \t]*")


def _holders_of_a_role(text: str) -> list[tuple[int, int]]:
    """The title-case names after a role only a person holds: each word a name of some list (a product's name
    included: "Ray", "Sage", "Julia" hold no review) — "reviewer: Redis cluster team", "assigned to Renovate" and
    "DRI: SRE" stay."""
    found: list[tuple[int, int]] = []
    for label in _ROLE_LABEL_RE.finditer(text):
        pos = label.end()
        for _ in range(6):  # a short list of holders
            holder = _HOLDER_RE.match(text, pos)
            if holder is None or not all(_a_name_of_some_list(w) for w in holder.group(1).split()):
                break
            found.append(holder.span(1))
            sep = _HOLDER_SEP_RE.match(text, holder.end(1))
            if sep is None or sep.end() == holder.end(1):
                break
            pos = sep.end()
    return found


# Korean given names are two syllables joined by a hyphen in the romanisations people write ("Min-jun", "Seo-yeon",
# "Ji-hoon", "Jae-won"): an onset, a vowel and a final of the Revised or McCune-Reischauer spelling, or the spellings
# names keep ("Soo", "Hee", "Young", "Joon")
_KOREAN_SYLLABLE_RE = re.compile(
    r"(?:kk|tt|pp|ss|jj|ch|sh|g|k|n|d|t|r|l|m|b|p|s|j|h)?"
    r"(?:yae|yeo|wae|ae|ya|eo|ye|wa|oe|yo|wo|we|wi|yu|eu|ui|oo|ee|ou|a|e|o|u|i)"
    r"(?:ng|k|n|t|l|m|p|g)?")
# the surnames of about nine Koreans in ten, in the spellings they are written in (Statistics Korea's census tables)
_KOREAN_SURNAMES = frozenset("""kim gim lee yi rhee park pak bak choi choe jung jeong chung kang cho jo yoon yun jang
chang lim im han oh seo suh shin sin kwon hwang ahn an song yoo yu ryu hong jeon jun chun ko go moon mun yang son sohn
bae baek paik heo hur nam noh roh ha kwak sung seong cha joo ju woo koo gu min jin na ra yeo ji chae won do pyo bang
byun byeon seol tak um eom uhm sim shim cheon yeom""".split())
_KOREAN_GIVEN_RE = re.compile(r"(?<![\w\-.@/])([A-Z][a-z]{1,6})-([A-Za-z][a-z]{1,6})(?![\w\-@/]|\.\w)")
_KOREAN_SURNAME_AFTER_RE = re.compile(r"[ \t]+([A-Z][a-z]{1,5})\b")
_KOREAN_SURNAME_BEFORE_RE = re.compile(r"\b([A-Z][a-z]{1,5})[ \t]+\Z")


def _korean_given_names(text: str) -> list[tuple[int, int]]:
    """A hyphenated pair of Korean syllables with a person's evidence beside it: a Korean surname after or before it
    ("Seo-yeon Park", "Kim Min-jun") or what only a person does ("Ji-woo is on leave"). The syllables alone are no
    evidence: "Set-up", "Check-in" and "Re-run" are spelt with them too."""
    found: list[tuple[int, int]] = []
    for m in _KOREAN_GIVEN_RE.finditer(text):
        if not all(_KOREAN_SYLLABLE_RE.fullmatch(part.casefold()) for part in m.groups()) \
                or m.group(2).casefold() in _SPACY_STOP_WORDS:  # a phrasal noun: "Set-up", "Log-in", "Pop-up"
            continue
        start, end = m.span()
        after = _KOREAN_SURNAME_AFTER_RE.match(text, end)
        before = _KOREAN_SURNAME_BEFORE_RE.search(text, max(0, start - 8), start)
        if after and after.group(1).casefold() in _KOREAN_SURNAMES:
            found.append((start, after.end(1)))
        elif before and before.group(1).casefold() in _KOREAN_SURNAMES:
            found.append((before.start(1), end))
        elif acts_as_a_person(text, start, end):
            found.append((start, end))
    return found


_NOT_HANDLES = frozenset("here channel everyone all team teams oncall on-call channel admins admin ops devops sre "
                         "frontend backend platform infra security qa support bot bots".split())


# 11. *name field*: the value of a field that holds a person's name in data (JSON, YAML, forms: "family", "given",
# "first_name", "author": {"name": …}), and the patient name of an HL7 v2 PID segment (PID-5, FAMILY^GIVEN)
_NAME_FIELD_RE = re.compile(
    r"(?<![\w])[\"']?(?P<key>(?:full|first|last|middle|given|family|sur|maiden|display|contact|patient|author|owner|"
    # a person's role in a setting's name: ONCALL_NAME="…", MAINTAINER_NAME, REVIEWER_NAME (round 44, an .env file)
    r"on[_\- ]?call|maintainer|reporter|assignee|reviewer|approver|sender|recipient|manager|emergency[_\- ]?contact|"
    r"customer|employee|user)?[_\- ]?name|given|family|surname|forename|lastname|firstname|author|patient|"
    r"vorname|nachname|nom|pr[ée]nom|nombre|apellidos?|nome|cognome|sobrenome)[\"']?[ \t]*[:=][ \t]*"
    r"(?:\[[ \t]*)?[\"'](?P<v>[^\W\d_][^\"'\n\d]{1,60})[\"']", re.I)
_NAME_FIELD_KEYS = ("name", "given", "family", "author", "patient", "nom", "nombre", "apellido", "nome", "cognome")
_PERSON_OBJECT_RE = re.compile(r"[\"']?(?:author|owner|patient|customer|contact|person|user|employee|assignee|"
                               r"reporter|sender|recipient)[\"']?[ \t]*:[ \t]*\{[^{}]{0,40}$", re.I)
# a table's column of people's names ("first_name", "last_name", "full_name", "Nachname", "nom"); a bare "name" is
# anything's (a product's, a service's) and is left out
_PERSON_COLUMN_RE = re.compile(
    r"(?i)(?:(?:first|last|middle|given|family|full|sur|fore|maiden|customer|contact|employee|patient|member|"
    r"client|user)[ _\-]?name|surname|forename|vorname|nachname|familienname|pr[ée]nom|nom[ _]de[ _]famille|"
    r"apellidos?|cognome|sobrenome|nazwisko|imi[eę]|efternamn|f[öo]rnamn|fornavn|etternavn|achternaam|voornaam|"
    # (a header of a person's columns may leave "name" out: "first,last,email,phone")
    r"first|last|given|family)")
# a name in a URL's query ("…/cb?phone=…&name=Hayden%20Pike&slot=am"; the normalisation has decoded the %20)
_NAME_PARAM_RE = re.compile(
    r"(?i)[?&](?:(?:full|first|last|given|family|contact|customer|user|display)[_\-]?)?name=(?P<v>[^\W\d_][^&#=\s+]*"
    r"(?:[ +][^\W\d_][^&#=\s+]*){0,3})")
_HL7_PID_NAME_RE = re.compile(r"(?m)^PID\|(?:[^|\n]*\|){4}(?P<v>[^|\n^]+(?:\^[^|\n^]*){0,4})")


# a title-case word standing alone: not part of a handle, path, identifier or file name ("@Anna", "Anna.run")
_TITLE_WORD_RE = re.compile(r"(?<![\w@#/\\.\-'’])[^\W\d_a-z][^\W\d_A-Z]{2,}(?:[-'’][^\W\d_][^\W\d_A-Z]+)?"
                            r"(?![\w@/\\]|[.\-]\w|['’](?![sS]\b)\w)")
_PHRASE_END_RE = re.compile(r"[ \t]*(?:[!,?.:;)]|\n|\Z)")
_LOWER_ADDRESSED_RE = re.compile(
    r"(?:(?<![\w\-])(?:thanks(?:[ \t]+to)?|thank[ \t]+you|thx|ty|hi|hey|hello|cc|ping|dear|tell|ask|remind|"
    # talking or working with someone: "talked to rohan", "paired with tyler", "thanks to maria"
    r"(?:talked|spoke|chatted|synced|paired|pairing|met)[ \t]+(?:to|with))[ \t,]+"
    r"(?P<name>[^\W\d_A-Z]{3,})(?![\w@.\-/])"
    # … or opening a chat line, before what a person says or does: "ngozi said", "vikram can't reproduce it"
    r"|(?:(?P<bol>(?m:^))[ \t]*|(?<=[,;])[ \t]+|(?<=[a-z]:)[ \t]+)(?P<n2>[^\W\d_A-Z]{3,})(?=[ \t]+(?:"
    # what only a person does ...
    r"(?P<act>pls|please|can[ \t]+you|could[ \t]+you|said|says|asked|thinks|wants|mentioned|approved|reviewed|"
    r"and[ \t]+I|and[ \t]+me|"
    r"confirmed|escalated|paged|is[ \t]+(?:out|on[ \t]+(?:call|leave|pto))|will[ \t]+(?:take|handle|look|review)|"
    # where a person is this week: "ahmed is in Cairo", "priya is working from home", "omar is relocating"
    r"(?:is|was|will[ \t]+be)[ \t]+(?:(?:in|at)(?=[ \t]+[A-Z])|working[ \t]+(?:from|remotely)|relocating|travell?ing|"
    r"flying|visiting|presenting|sick)|"
    # two people doing something together: "jamal and tyler are pairing"
    r"and[ \t]+[^\W\d_A-Z]{3,}[ \t]+(?:are|were|will|have)[ \t]+(?:pairing|working|looking|on))"
    # ... or what a person or a thing may do
    r"|rolled[ \t]+back|deployed|shipped|reported|broke|fixed|pushed|merged|reverted|can['’]?t|cannot|won['’]t|"
    r"didn['’]t)\b))")
# a surname in capitals, then one to three title-case given names ("NGUYEN Thi Lan")
# (the particles the span widening steps over)
_LOWER_PARTICLE_NAME_RE = re.compile(
    r"(?<![\w@./\-])([a-zß-ÿ][a-zß-ÿ'\-]+)((?:[ \t]+(?:" + "|".join(sorted(_NAME_PARTICLES)) + r")){1,3})"
    r"[ \t]+([a-zß-ÿ][a-zß-ÿ'\-]{2,})(?![\w@.\-])")
# ... and with an Arabic article or a patronymic joined to the surname by a hyphen ("mohammed al-farsi", "omar
# el-sayed", "yusuf bin-salleh")
_LOWER_JOINED_PARTICLE_NAME_RE = re.compile(
    r"(?<![\w@./\-])([a-zß-ÿ][a-zß-ÿ']+)[ \t]+((?:al|el|ul|ad|ar|as|ash|at|az|an|abu|bin|ibn|ben)-)"
    r"([a-zß-ÿ][a-zß-ÿ']{2,})(?![\w@.\-])")
_INITIAL_SURNAME_RE = re.compile(r"(?<![\w.])[A-Z]\.[ \t]?([A-Z][a-zß-ÿ][\w'’\-]+)(?![\w@]|[.\-]\w)")
_CAPS_SURNAME_FIRST_RE = re.compile(
    r"(?<![\w@#/\\.\-])([A-ZÀ-Þ]{2,}(?:-[A-ZÀ-Þ]{2,})?)"
    r"((?:[ \t]+[A-ZÀ-Þ][a-zß-ÿ]+(?:-[A-ZÀ-Þ][a-zß-ÿ]+)?){1,3})(?![\w@/])")
# Surnames that open place names too ("Costa Rica", "Ho Chi Minh", "Hong Kong", "Rio de Janeiro"), so the words of
# places above: after a given name, and with no capitalised word after them, they end a person's name
_PLACE_HEAD_SURNAMES = frozenset("costa santo rio fort abu ho hong".split())
# the word after a name that makes it a firm's or an institution's ("Conway Inc.", "Hopkins University")
_ORG_AFTER_RE = re.compile(r",?[ \t]+([A-Z][A-Za-z]*\.?)")
# a street named after someone: "Isaac Lodge Street", "Victor Hugo Road"
_STREET_AFTER_NAME_RE = re.compile(r"(?:[ \t]+" + _T + r"){0,2}[ \t]+(?:" + _STREET_TYPES + r")(?![\w])")
_PREVIOUS_WORD_RE = re.compile(r"([^\W\d_]+)[ \t]+\Z")
_NEXT_TITLE_RE = re.compile(r"[ \t]+([^\W\d_a-z][^\W\d_A-Z]{1,}(?:[-'’][^\W\d_][^\W\d_A-Z]+)?)(?![\w@/\\]|[.\-]\w)")


_TITLE_PAIR_RE = re.compile(r"(?<![\w@.\-])([A-Z][a-z]+)[ \t]+([A-Z][a-z]+(?:-[A-Z][a-z]+)?)(?![\w@]|[.\-]\w)")
_OPENING_NAME = r"[A-Z][a-z]+(?:-[a-z]+)?"
_OPENING_PEOPLE_RE = re.compile(
    r"(?:(?m:^)[ \t>*\-]*|(?<=[,;])[ \t]+|(?<=[a-z][.!?])[ \t]+)(?P<a>" + _OPENING_NAME
    + r")(?:(?:[ \t]*,[ \t]*|[ \t]+(?:and|&)[ \t]+)(?P<b>" + _OPENING_NAME
    # (a person's team between the names and the verb: "Summer and River from design want …", "Jade from QA signs")
    + r"))?(?=(?:[ \t]+from[ \t]+(?:the[ \t]+)?(?:design|product|qa|ux|sales|support|marketing|legal|finance|"
    r"security|infra|platform|data|hr|ops|devops|sre|frontend|backend|mobile|web|ios|android)(?:[ \t]+team)?)?"
    r"(?:[ \t]+(?:both|also|just|already))?[ \t]*,?[ \t]+(?:said|says|asked|mentioned|pushed|fixed|broke|"
    r"want|wants|needs|voted|signs[ \t]+off|signed[ \t]+off|is[ \t]+cc['’]?d|was[ \t]+cc['’]?d|called|emailed|"
    r"confirmed|escalated|escalates|paged|demoed|owns|reported|"
    # (what a developer does to code, which the code does not do to itself)
    r"ported|rewrote|reimplemented|refactored|debugged|triaged|investigated|commented|volunteered|"
    r"merged|reverted|approved|reviewed|covers|covered|is[ \t]+(?:handling|working|covering|out|on[ \t]+(?:call|leave|"
    r"pto|vacation))|are[ \t]+(?:both[ \t]+)?(?:out|on[ \t]+leave|pairing|covering|working)|can[ \t]+you|"
    r"could[ \t]+you|will[ \t]+(?:take|handle|look|review))\b)")


def calls_no_one(handle: str) -> bool:
    """A chat handle (after "@") that calls the channel, a team or a bot ("@channel", "@here", "@oncall", "@sre"):
    :data:`_NOT_HANDLES`."""
    return handle.lower() in _NOT_HANDLES


def handle_of_a_person(handle: str) -> bool:
    """A chat handle (after "@") that is a person's: no team, bot or word of the channel (:data:`_NOT_HANDLES`), no
    digit, and an unknown word, a dotted name ("mei.lin") or led by a name of some list ("@maria", "@hunter.b")."""
    parts = [p for p in re.split(r"[._\-]", handle) if p]
    return not calls_no_one(handle) and not any(c.isdigit() for c in handle) and bool(parts) and (
        (_unknown_word(handle) and any(_unknown_word(p) for p in parts)) or dotted_name_handle(handle)
        or _a_name_of_some_list(parts[0]))


def dotted_name_handle(handle: str) -> bool:
    """A handle of a person's name parts ("mei.lin", "anna_berg"): two or three letter-only parts, one of them a
    given name or surname of the lexicon ("db.internal" and "build_logs" are no one's)."""
    parts = re.split(r"[._\-]", handle)
    return 2 <= len(parts) <= 3 and all(p.isalpha() for p in parts) and any(
        p.casefold() in given_names() or p.casefold() in surnames() for p in parts)


# Above the small model's 0.85: Presidio drops a span that another of its type contains at an equal or higher score,
# before the engine decides on the model's span. "cc @wei.zhang @fatima.b — Snowflake credits spiked" was one model
# "person" from "cc" to "Snowflake", which the engine refuses (a word of technology); the two handles inside it,
# found at 0.85, were gone with it (round 42).
_ABOVE_THE_MODEL = 0.86

# A messenger's handle, after the messenger's name ("tg": "@mostafa_elsayed", "DM me on discord, zaynab#4471", "her
# skype is live:.cid.7f3a2b19c0"); a messenger whose name is a word too ("signal", "line") only after a possessive
# ("his signal is mattias.84": "the signal is sent to worker.py" names none). The handle is no word: it holds a
# digit, "_", ".", "#" or ":" or follows "@".
MESSENGER_BEFORE_RE = re.compile(
    r"(?i)(?:\b(?:telegram|tg|discord|skype|insta(?:gram)?|twitter|snap(?:chat)?|tiktok|wechat|weixin|viber|"
    r"threema|keybase|mastodon|bluesky|bsky|kakao(?:talk)?|slack|line[ \t]+id|qq)|微信号?|\b(?:my|his|her|their|your)"
    r"[ \t]+(?:signal|line|ig|x))"
    r"[\"']?(?:[ \t]*(?:[:=,]|\bis\b|\bwas\b|\bas\b|\bjust\b|\bhandle\b|\bid\b|\busername\b|\bme\b|\bon\b|"
    r"\bat\b)[ \t]*[\"']?)*[ \t]*\Z")
# (a QQ number is digits: "QQ: 48213390")
_HANDLE_RE = re.compile(r"(?<![\w@])@?(?P<h>live:[\w.\-]{3,40}|[^\W\d_][\w.\-]{1,30}(?:#\d{4})?|\d{5,11})(?![\w@])")
_FILE_LIKE_RE = re.compile(r"\.(?:py|js|ts|go|rs|java|rb|sh|ya?ml|json|toml|md|txt|log|conf|cfg|ini|sql|html?)\Z",
                           re.I)


#: Set on the recognition metadata of a handle (:func:`messenger_handles`): the engine keeps such a span whole —
#: digits, dots and underscores are a handle's, not an identifier's.
HANDLE_KEY = "recmem_handle"


def messenger_handles(text: str) -> list[tuple[int, int]]:
    """Handles of people: named after a messenger (:data:`MESSENGER_BEFORE_RE`), in a Telegram link, in a user field of
    data or a log (:data:`_USER_FIELD_RE`), or a name's parts written without "@" (:data:`_BARE_HANDLE_RE`)."""
    out = []
    for m in _HANDLE_RE.finditer(text):
        h = m.group("h")
        if not (text[m.start()] == "@" or re.search(r"[\d_.#:]", h)) or _FILE_LIKE_RE.search(h) \
                or h.endswith(".") or calls_no_one(h) or re.match(r"v?\d+\.\d", h):
            continue
        before = MESSENGER_BEFORE_RE.search(text, max(0, m.start() - 40), m.start())
        if before and (not h.isdigit() or re.search(r"(?i)qq", before.group(0))):
            out.append(m.span("h"))
    for m in _TELEGRAM_LINK_RE.finditer(text):
        if not m.group("h").lower().endswith("bot") and m.group("h").lower() not in ("joinchat", "share", "s"):
            out.append(m.span("h"))
    for m in _USER_FIELD_RE.finditer(text):
        if person_handle(m.group("h")):
            out.append(m.span("h"))
    for m in _BARE_HANDLE_RE.finditer(text):
        if _bare_name_handle(m.group(0)) and not _FILE_LIKE_RE.search(m.group(0)):
            out.append(m.span())
    return out


# a Telegram link to a person's account ("https://t.me/olena_devops"; a bot's name ends in "bot")
_TELEGRAM_LINK_RE = re.compile(r"(?i)\bt\.me/(?P<h>[a-z][\w]{4,31})\b(?![/.]\w)")
# the value of a field that holds a user in data or a log ("assignee": "svetlana.ivanova", user=lkovacs, slack: ezra.g,
# "for user mdiallo")
_USER_FIELD_RE = re.compile(
    r"(?i)(?:\b(?:user(?:[_ ]?name)?|login|assignee|reporter|author|owner|uid|handle|github|gitlab|slack)[\"']?"
    r"[ \t]*[:=][ \t]*[\"']?|\bfor[ \t]+user[ \t]+)(?P<h>(?-i:[a-z][a-z0-9._\-]{2,30}))(?![\w@\-]|\.\w|[ \t]+[^\W\d_])")
# a handle of a name's parts written in prose without its "@" ("meant rohan.m not rohan.k", "ask anna_berg")
_BARE_HANDLE_RE = re.compile(r"(?<![\w@./\-`])[a-z]{1,20}[._][a-z]{1,20}(?:[._][a-z]{1,20})?(?![\w@`(]|[./\-]\w)")


def _initial_handle(handle: str) -> bool:
    """A handle of a given name or surname and an initial ("t.haddad", "rohan.m", "ezra.g")."""
    parts = re.split(r"[._]", handle)
    if len(parts) != 2 or sorted(len(p) for p in parts)[0] != 1:
        return False
    word = max(parts, key=len)
    return len(word) >= 3 and (word in given_names() or word in surnames()) and _unknown_word(word)


def _bare_name_handle(handle: str) -> bool:
    """A handle written without "@" in prose, of a name and an initial ("rohan.m") or a given name and a surname
    ("anna.berg"), each of no word of prose or technology — stricter than a handle after "@": "vi.fn", "my_list" and
    "np.array" are code."""
    parts = re.split(r"[._]", handle)
    if len(parts) != 2:
        return False
    if _initial_handle(handle):
        return True
    a, b = parts
    return min(len(a), len(b)) >= 3 and all(_unknown_word(p) and not is_tech_word(p) for p in parts) and (
        (a in given_names() and b in surnames()) or (b in given_names() and a in surnames()))


def person_handle(handle: str) -> bool:
    """A user name of a person's name parts: a dotted name, an initial and a name, a given name of the lexicon, or an
    initial glued to a surname ("lkovacs", "mdiallo"); no team, bot, technology or word of prose ("root", "deploy")."""
    low = handle.casefold()
    if calls_no_one(low) or is_tech_word(low) or not _unknown_word(low.replace("_", " ").split()[0]):
        return False
    if dotted_name_handle(low) or _initial_handle(low):
        return True
    parts = [p for p in re.split(r"[._\-]", low) if p]
    if any(len(p) >= 3 and p in given_names() and _unknown_word(p) for p in parts):
        return True
    return low.isalpha() and len(low) >= 5 and low[1:] in surnames() and _unknown_word(low[1:])


# The holder of a personal record: a two- or three-word name right before the record's label ("Chidera Obi, DOB …",
# "Ole Haugen - passport …", "Sipho Nkosi (tel …") or right after a bank's "in the name of" ("intestato a Chiara
# Bianchi", "Kontoinhaber: Jonas Weber"): each word of no lexicon of prose or technology, or a name of some list.
_RECORD_LABEL_AFTER_RE = re.compile(
    r"[ \t]*(?:,|;|[ \t]-|[ \t]—|[ \t]–|\(|:)?[ \t]*(?i:DOB|D\.O\.B\.?|date[ \t]+of[ \t]+birth|born|geb\.|geboren|"
    r"n[ée]e?[ \t]+le|nacid[oa]|nat[oa][ \t]+il|passport|pasaporte|passeport|reisepass|SSN|NINO?|NI[ \t]+number|"
    r"national[ \t]+id|tax[ \t]+id|phone|tel\.?|mobile|cell|e-?mail|home[ \t]+address|address|IBAN|PESEL|CPF|"
    r"DNI|NIE|BSN|Aadhaar|fnr|f[øo]dselsnummer|personnummer|henkilötunnus|codice[ \t]+fiscale|Steuer-?ID|NIR|"
    r"CURP|SIN|TFN)\b")
_RECORD_HOLDER_BEFORE_RE = re.compile(
    r"(?i:intestat[oa][ \t]+a|a[ \t]+nome[ \t]+di|in[ \t]+the[ \t]+name[ \t]+of|account[ \t]+holder|titular|"
    r"beneficiar(?:y|io|ia)|kontoinhaber(?:in)?|au[ \t]+nom[ \t]+de|a[ \t]+nombre[ \t]+de|em[ \t]+nome[ \t]+de|"
    r"payee|rekeninghouder|ten[ \t]+name[ \t]+van)[ \t]*:?[ \t]*\Z")
_TITLE_RUN_RE = re.compile(r"(?<![\w@#/.\-'’])[^\W\d_a-z][^\W\d_A-Z]+(?:-[^\W\d_a-z][^\W\d_A-Z]+)?"
                           r"(?:[ \t]+[^\W\d_a-z][^\W\d_A-Z]+(?:-[^\W\d_a-z][^\W\d_A-Z]+)?){1,2}(?![\w@/]|[.\-]\w)")


_NAME_WORD = r"[^\W\d_a-z][^\W\d_A-Z]+(?:-[^\W\d_a-z]?[^\W\d_A-Z]+)?"
# who is reached at a number or an address ("reach Thabo at 082.555.3194", "text Ana on +351 …", "email Kofi at k@…")
_REACHED_AT_RE = re.compile(
    r"(?i:\b(?:reach|call|text|ring|contact|e-?mail|ping|whatsapp|message|phone))[ \t]+(?P<n>" + _NAME_WORD
    + r"(?:[ \t]+" + _NAME_WORD + r")?)[ \t]+(?i:at|on|via)[ \t]+(?=[+(]?\d|[\w.+\-]+@)")
# a name in brackets after a number or an address it owns ("… is her cell (Mio)", "… (Pradeep, lives in …)", "502호
# (김서연)"): one or two words, the bracket closing on them or a comma
_BRACKETED_NAME_RE = re.compile(r"\((?P<n>[^\W\d_][^\W\d_'’\-]*(?:[ \t]+[^\W\d_][^\W\d_'’\-]*)?)(?=[ \t]*[,)])")
_OWNED_BEFORE_RE = re.compile(r"(?i)\d(?:[ .\-]?\d){5}|\d+[ \t]?호|\b(?:cell|phone|mobile|number|tel|address|landlord|"
                              r"flat|apartment|apt)\b")
# who lives or moved somewhere, said in the languages of the leak sets' chats ("Sem woont nu op …", "Pau s'ha mudat:
# …", "Jonas wohnt jetzt in …", "Inês mora na …")
_LIVES_AFTER_RE = re.compile(
    r"[ \t]+(?:(?:woont|wohnt|vit|vive|mora|abita|mieszka|bor|asuu|живёт|живет|lives|moved|zog|verhuisd)\b|"
    r"s['’]ha[ \t]+mudat|se[ \t]+mud[oó]|se[ \t]+mudou|si[ \t]+[èe][ \t]+trasferit[oa]|is[ \t]+moving|"
    r"ist[ \t]+umgezogen|est[ \t]+d[ée]m[ée]nag[ée]e?|a[ \t]+d[ée]m[ée]nag[ée])")
_LINE_OPENING_RE = re.compile(r"(?:(?m:^)|(?<=[.!?:;])[ \t]+)[ \t>*\-]*(?P<n>" + _NAME_WORD + r")")
# a message signed in lower case at its end ("… will stick to code review — sam"): a given name of the lexicon
# (the masker reads normalised text, where every dash is a hyphen-minus: "— sam" arrives as "- sam")
_LOWER_SIGN_OFF_RE = re.compile(r"[ \t](?:(?:—|–|--)[ \t]*|-[ \t]+)([a-z]{2,15})[ \t]*\Z")


# a role a person holds, then who holds it, in a sentence ("his onboarding buddy will be yusuf", "the reviewer is
# Kagiso.", "on-call this week is ngozi"): one name word, the clause closing on it
_ROLE_IS_RE = re.compile(
    r"(?i:\b(?:buddy|mentor|reviewer|approver|owner|lead|contact|on-?call(?:[ \t]+this[ \t]+week)?|dri|assignee|"
    r"backup|sponsor|manager|point[ \t]+of[ \t]+contact|poc|scribe|facilitator)[ \t]+(?:will[ \t]+be|is|was))[ \t]+"
    r"(?P<n>[^\W\d_][^\W\d_'’\-]+)(?=[ \t]*(?:[,.;!?)]|\Z))")


def _a_name_here(word: str) -> bool:
    return (_unknown_word(word) or _a_name_of_some_list(word)) and not is_tech_word(word) \
        and word.casefold() not in _NOT_NAME_WORDS


def owners_of_contact_details(text: str) -> list[tuple[int, int]]:
    """Names a message gives as the owner of its contact details or home (round 53): reached at a number
    (:data:`_REACHED_AT_RE`), in brackets after a number or an address (:data:`_BRACKETED_NAME_RE`), opening a line
    before a verb of living or moving (:data:`_LIVES_AFTER_RE`), holding a role (:data:`_ROLE_IS_RE`), or signing the
    message in lower case."""
    out = []
    for m in _REACHED_AT_RE.finditer(text):
        if all(_a_name_here(w) for w in m.group("n").split()):
            out.append(m.span("n"))
    if "(" in text:
        for m in _BRACKETED_NAME_RE.finditer(text):
            words = m.group("n").split()
            if not _OWNED_BEFORE_RE.search(text, max(0, m.start() - 40), m.start()):
                continue
            if all("\uac00" <= c <= "\ud7a3" for w in words for c in w):
                if len(words) == 1 and 2 <= len(words[0]) <= 4:
                    out.append(m.span("n"))  # a Korean name: a surname syllable and a given name of one or two
            elif all(w[:1].isupper() and not w.isupper() and _a_name_here(w) for w in words):
                out.append(m.span("n"))
    for m in _LINE_OPENING_RE.finditer(text):
        if _LIVES_AFTER_RE.match(text, m.end()) and _a_name_here(m.group("n")):
            out.append(m.span("n"))
    for m in _ROLE_IS_RE.finditer(text):
        word = m.group("n")
        if (word.casefold() in given_names() and _unknown_word(word)) or (word[:1].isupper() and _a_name_here(word)):
            out.append(m.span("n"))
    if (m := _LOWER_SIGN_OFF_RE.search(text)) and m.group(1) in given_names() and _unknown_word(m.group(1)):
        out.append(m.span(1))
    return out


def record_holders(text: str) -> list[tuple[int, int]]:
    """Names holding a personal record (:data:`_RECORD_LABEL_AFTER_RE`, :data:`_RECORD_HOLDER_BEFORE_RE`)."""
    out = []
    for m in _TITLE_RUN_RE.finditer(text):
        words = m.group(0).split()
        if not name_shaped(words, min_words=2) or not all(_a_name_here(w) for w in words):
            continue
        if _RECORD_LABEL_AFTER_RE.match(text, m.end()) or _RECORD_HOLDER_BEFORE_RE.search(
                text, max(0, m.start() - 30), m.start()):
            out.append(m.span())
    return out
_LOWER_WORD_RE = re.compile(r"(?<![\w@#/\\.\-'’])[^\W\d_]{2,}(?![\w@/\\]|[.\-'’]\w)")


def _lower_name_word(word: str, lexicon) -> bool:
    """A lower-case word of the name lexicon (a given name or a surname) that is no word of prose or technology."""
    return (word in lexicon or word in surnames()) and word not in _SPACY_STOP_WORDS and _unknown_word(word)


# Case endings a given name takes in the languages that inflect it, and what to put back: Finnish ("Mikolta" from
# Mikko: a case ending halves the double consonant; "Liisalle"), Czech ("Petry", "Janovi", "Martinou"), Polish
# ("Tomaszowi", "Agnieszką", "Kasi"), Hungarian ("Bencét", "Annának", "Péterrel"), German's genitive ("Annas Laptop").
_CASE_ENDINGS: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "fi": (("lta", ("", "a")), ("ltä", ("", "ä")), ("lle", ("", "e")), ("lla", ("", "a")), ("llä", ("", "ä")),
           ("ssa", ("",)), ("ssä", ("",)), ("sta", ("",)), ("stä", ("",)), ("ksi", ("",)), ("n", ("",))),
    "cs": (("ovi", ("",)), ("em", ("",)), ("ou", ("a",)), ("y", ("a",)), ("ě", ("a",)), ("e", ("a", "")),
           ("u", ("", "a")), ("a", ("",)), ("i", ("a",))),
    "pl": (("owi", ("",)), ("em", ("",)), ("ą", ("a",)), ("ę", ("a",)), ("y", ("a",)), ("i", ("a", "ia")),
           ("u", ("",)), ("a", ("",)), ("ce", ("ka",)), ("ze", ("ga",))),
    "hu": (("nak", ("",)), ("nek", ("",)), ("val", ("",)), ("vel", ("",)), ("nál", ("",)), ("nél", ("",)),
           ("hoz", ("",)), ("hez", ("",)), ("höz", ("",)), ("tól", ("",)), ("től", ("",)), ("ról", ("",)),
           ("ről", ("",)), ("ért", ("",)), ("t", ("",))),
    "de": (("s", ("",)),),
}
# (a line too short to tell its language, not English: the languages that inflect names most)
_INFLECTING = ("fi", "cs", "pl", "hu")
_LONG_VOWELS = {"á": "a", "é": "e"}
_HALVED = re.compile(r"([kpt])([aeiouyäö])$")
# Turkish writes a name's case ending after an apostrophe ("Ahmet'in", "Zeynep'e", "Elif'le"); English's own
# contractions are no case ("Anna's", "Anna'll")
_TURKISH_SUFFIX_RE = re.compile(
    r"['’](?:n?[ıiuü]n|y?[ıiuü]|y?[ae]|[dt][ae]n?|y?l[ae]|[nN]?[ıiuü]n|l[ae]r|y?[ıiuü]m)(?![^\W\d_])")


def _stems(word: str, languages) -> set[str]:
    """The given names ``word`` may be a case of in ``languages`` (:data:`_CASE_ENDINGS`), lower case."""
    low = word.casefold()
    out: set[str] = set()
    endings = sorted({e for lang in languages for e in _CASE_ENDINGS.get(lang, ())}, key=lambda e: -len(e[0]))
    for ending, backs in endings:
        if not low.endswith(ending) or len(low) - len(ending) < 2:
            continue
        stem = low[: -len(ending)]
        if stem[-1] in _LONG_VOWELS:
            stem = stem[:-1] + _LONG_VOWELS[stem[-1]]
        if stem.endswith("ř"):
            stem = stem[:-1] + "r"
        if len(stem) >= 3 and stem[-1] == stem[-2] and stem[-1] not in "aeiouy":
            out.add(stem[:-1])  # Hungarian's assimilated -val/-vel: "Péterrel"
        for back in backs:
            out.add(stem + back)
            halved = _HALVED.search(stem + back)
            if halved:  # Finnish halves a double consonant before a case ending: "Mikolta" is Mikko's
                out.add(stem[: halved.start()] + halved.group(1) + stem[halved.start():] + back)
    return out


def _inflected_given_names(text: str, add, taken: list[tuple[int, int]]) -> None:
    """A capitalised word inside a sentence that is a given name of the lexicon in a case of the language the text
    is written in — its ending taken off and what the case took back put on (:func:`_stems`; a line of four words or
    more too short to tell, not English: the languages that inflect names most) — or in a Turkish case after an
    apostrophe: a name list holds "Anna"; "Annának", "Annas", "Annou" are hers. A word opening a sentence ("Este",
    "Alle": its capital says nothing), a function word of any of those languages, a word of prose, of technology or
    of the lists itself is not read again."""
    if not _CASE_WORD_RE.search(text):
        return
    lexicon = given_names()
    languages: set[str] | None = None
    for m in _CASE_WORD_RE.finditer(text):
        word = m.group("w")
        if any(s <= m.start() < e for s, e in taken):
            continue
        if m.group("suffix"):
            if _a_given_name(word, lexicon) and not is_tech_word(word):
                add(m.start(), m.end("w"), 0.8)
            continue
        if (len(word) < 4 or word.casefold() in lexicon or not _unknown_word(word) or is_name_term(word)
                or foreign_script(word) or _first_word_of_a_sentence(text, m.start())
                or word.casefold() in _foreign_stop()
                or word.casefold() in _kept_out_of_the_lexicon()):  # "France" is no case of Franca
            continue
        if languages is None:
            languages = written_languages(text) or (
                set() if reads_as_english(text) or len(text.split()) < 4 else set(_INFLECTING))
        if any(stem in lexicon and _unknown_word(stem) for stem in _stems(word, languages)):
            add(m.start(), m.end("w"), 0.8)


def _first_word_of_a_sentence(text: str, start: int) -> bool:
    before = text[:start].rstrip(" \t\"'“‘(«")
    return not before or before[-1] in ".!?:;\n•-–—|>*"


@functools.cache
def _day_and_month_names() -> frozenset[str]:
    """English's and every calendar's of Faker, lower case ("Wednesday's branch cut" is no one's)."""
    import calendar

    english = {*calendar.day_name, *calendar.month_name} - {""}
    return frozenset(w.casefold() for w in (*faker_calendar_names(), *english))


@functools.cache
def _kept_out_of_the_lexicon() -> frozenset[str]:
    from ..vocabulary import lexicon_exclusions

    return frozenset(lexicon_exclusions())


@functools.cache
def _foreign_stop() -> frozenset[str]:
    return frozenset(w for lang in WRITTEN_LANGUAGES for w in spacy_stop_words(lang))


_CASE_WORD_RE = re.compile(
    r"(?<![\w@#/\\.\-'’])(?P<w>[^\W\d_a-z][^\W\d_A-Z]{2,})(?P<suffix>" + _TURKISH_SUFFIX_RE.pattern + r")?"
    r"(?![\w@/\\]|[.\-]\w)")


def _unknown_word(word: str) -> bool:
    """Neither a word of prose (the common words, spaCy's stop words) nor a technology word."""
    low = word.casefold()
    return low not in common_words() and low not in _SPACY_STOP_WORDS and not is_tech_word(word)


_LOWER_STOP = frozenset(
    """a an the and or but so is are was were be been am i me my you your he she it we they him her them his
    their our this that these those in on at to for of from with by as not no yes ok please thanks thank hi
    hello hey here there now then just also too very really who what when where why how which everyone
    everybody someone somebody nobody anyone today tonight tomorrow yesterday later soon asap anytime back
    monday tuesday wednesday thursday friday saturday sunday morning afternoon evening""".split()
) | frozenset(_SPACY_STOP_WORDS)  # "name is: see metadata", "call me tomorrow": function words and times

# Determiners and possessives of the languages agents write in: a capitalised span that starts with one is a noun
# phrase ("Meine Nummer", "Die Bahn", "Le Monde"), not a person's name.
_DETERMINERS = frozenset(
    """the a an my our your his her their its this that these those der die das den dem des ein eine einen einem
    einer mein meine meinen meinem meiner dein deine unser unsere euer eure ihr ihre sein seine le la les un une
    des mon ma mes ton ta tes son sa ses notre nos votre vos leur leurs el los las una unos unas mi mis tu tus su
    sus nuestro nuestra il lo gli uno mio mia miei mie tuo tua suo sua het een mijn jouw zijn haar ons onze o os
    um uma meu minha""".split()
)


# The words languages put before a person's given name: Portuguese's article ("o João", "a Beatriz e o Tiago"),
# Italian's and Spanish's "a" (to: "chiedi a Francesca", "pregunta a Lucía"), the colloquial article of spoken German
# ("frag den Lukas"); "a Redis cluster", "the Bruno collection" stay things in English
_NAME_ARTICLES = {"o": ("pt",), "a": ("pt", "it", "es"), "os": ("pt",), "as": ("pt",), "der": ("de",),
                  "die": ("de",), "den": ("de",), "dem": ("de",)}


def _article_of_a_name(word: str, text: str) -> bool:
    """``word`` (a determiner right before a listed given name) is how the language the text is written in leads
    a person's name (:data:`_NAME_ARTICLES`)."""
    langs = _NAME_ARTICLES.get(word.casefold())
    return bool(langs) and bool(written_languages(text) & set(langs))


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
            compound = _COMPOUND_INITIAL_TAIL_RE.match(text, end)  # "J.-P."
            if compound:
                end, word = compound.end(), word + compound.group(0)
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
        if w.lower() in _LOWER_STOP or len(w) < 2 or text[e:e + 1] in ("_", "/", "\\", "("):
            break  # (a word an identifier goes on from is no name: "a node named int_orders", "named foo()")
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
       (e-mail, phone, address) (0.7);
    8. *display name*: a 2-4 word name (one word when quoted) right before an e-mail address in brackets (0.88);
    9. *subject*: a name-shaped word of no lexicon (prose, technology) before a verb in a person's tense (0.75);
    10. *mention*: a chat handle that is no team, word or technology (0.86);
    11. *name field*: the value of a person's name field in data, an HL7 PID-5 name (0.86-0.9);
    12. *given name*: a title-case word of the given-name lexicon, with its surname (0.86, see :meth:`_given_names`);
    13. *name term*: a technology word that is a given name too, acting as a person (:func:`acts_as_a_person`: "Julia
        is on call", "Luigi and I") (0.75; the engine lets the vocabulary yield to it).
    """

    RELABEL = {"ORG", "GPE", "LOC", "FAC", "PRODUCT", "WORK_OF_ART", "NORP", "EVENT"}

    def __init__(self, supported_language: str = "en"):
        super().__init__(
            supported_entities=["PERSON"],
            name="RecMemPersonHeuristics",
            supported_language=supported_language,
        )

    def load(self) -> None:
        # the word lists the case endings and the language of a text are read with, before the process takes work
        # (the lexicon's exclusions take ~0.7 s to gather)
        _kept_out_of_the_lexicon(), _foreign_stop(), _day_and_month_names(), written_languages("")

    def analyze(self, text: str, entities: list[str], nlp_artifacts=None) -> list[RecognizerResult]:
        found: dict[tuple[int, int], float] = {}

        def add(start: int, end: int, score: float) -> None:
            start, end = _trim_span(text, start, end)
            if end - start < 2:
                return
            if score < CUED_NAME_SCORE and foreign_script(text[start:end]):
                # the engine drops a weak guess on another script; kept, it would hide the script recognizer's
                # evidence on the same span from Presidio's de-duplication ("김민수 is on call", "田中さん said")
                return
            if found.get((start, end), 0) < score:
                found[(start, end)] = score

        person_spans: list[tuple[int, int]] = []
        places: list[tuple[int, int]] = []
        for start, end, label, ent_text in _raw_entities(nlp_artifacts):
            if foreign_script(ent_text):
                continue  # the English model on another script is noise: no span of it is evidence here
            if label == "PERSON":
                person_spans.append((start, end))
                continue
            if label in ("GPE", "LOC", "FAC"):
                places.append((start, end))
            words = ent_text.replace("’s", "").replace("'s", "").split()
            if label in self.RELABEL and "\n" not in ent_text.strip() and name_shaped(words, min_words=2):
                add(start, end, 0.86)

        lower_text = not any(c.isupper() for c in text)  # case carries no information: read words as title case

        def shaped(words: list[str], **kwargs) -> bool:
            return name_shaped([w[:1].upper() + w[1:] for w in words] if lower_text else words, **kwargs)

        self._cues(text, add, places, lower_text)

        for m in re.finditer(r"\b([^\W\d_][\w'’\-]+)[ \t]+([A-Z])\.?[ \t]+([^\W\d_][\w'’\-]+)", text):
            if name_shaped([m.group(1), m.group(2), m.group(3)], min_words=3):
                add(m.start(), m.end(), 0.7)

        # an initial and a surname of the lexicon ("K. Andersson", "A. Kowalczyk"): no word of prose or technology
        for m in _INITIAL_SURNAME_RE.finditer(text):
            if m.group(1).casefold() in surnames() and _unknown_word(m.group(1)):
                add(m.start(), m.end(), 0.86)

        # a surname first and in capitals, as rosters, forms and passports write it ("NGUYEN Thi Lan", "KOWALSKA Anna
        # Maria"): a surname of the lexicon that is no word of prose or technology, then one to three title-case words
        for m in _CAPS_SURNAME_FIRST_RE.finditer(text):
            surname, given = m.group(1), m.group(2).split()
            if (surname.casefold() in surnames() and _unknown_word(surname)
                    and not any(w.casefold() in _NOT_NAME_WORDS for w in given)):
                add(m.start(), m.end(), 0.88)  # the form is the evidence: given names may be words too ("Thi Lan")

        # a name in lower case with its particles ("ludwig van der berg pushed to main", "maria da silva"): a given
        # name of the lists that is no word of prose or technology, and a surname of the lists (or spelt like one)
        for m in itertools.chain(_LOWER_PARTICLE_NAME_RE.finditer(text), _LOWER_JOINED_PARTICLE_NAME_RE.finditer(text)):
            given, last = m.group(1), m.group(3)
            joined = m.group(2).endswith("-")  # (the joined article is evidence enough of the surname)
            if given in given_names() and _unknown_word(given) and not is_plain_word(last) \
                    and not is_tech_word(last) and (joined or last in surnames() or (name_shape(last) or 0.0) >= 0.9):
                add(m.start(), m.end(), 0.9)

        speakers = [m for m in _SPEAKER_RE.finditer(text) if shaped(m.group("name").split(), max_words=2)]
        if len(speakers) >= 2:
            for m in speakers:
                add(m.start("name"), m.end("name"), 0.9)
        elif speakers and not text[: speakers[0].start("name")].strip(" \t>") and all(
                _unknown_word(w) and w.casefold() not in _CHAT_LABELS for w in speakers[0].group("name").split()) \
                and _TURN_RE.search(text[speakers[0].end():].partition("\n")[0]):
            # one turn of a transcript ("Sven: Hey Caroline, I …", as agents send them one by one): the tag opening
            # the text is its speaker when it is no word of any lexicon ("Lesson:", "Kafka:", "Update:" are labels)
            # and what follows is said by someone to someone ("Prereqs: Python 3.11" is a label's list)
            add(speakers[0].start("name"), speakers[0].end("name"), 0.75)

        if text.count("\n") >= 2 and _CONTACT_HINT_RE.search(text):
            for m in _NAME_LINE_RE.finditer(text):
                words = m.group("name").split()
                if shaped(words, min_words=2) and not any(
                    ps <= m.start("name") < pe for ps, pe in places
                ):
                    add(m.start("name"), m.end("name"), 0.7)

        for m in _SUBJECT_VERB_RE.finditer(text):
            words = m.group("name").split()
            if (name_shaped(words) and len(words[0]) >= 3 and not re.search(r"['’](?:ve|ll|re|d|s|m|t)$", words[0])
                    and _unknown_word(words[0]) and not is_tech_word(words[-1])):
                add(m.start("name"), m.end("name"), 0.75)

        low = text.lower()
        if ("\"" in text or "'" in text) and any(k in low for k in _NAME_FIELD_KEYS):
            for m in _NAME_FIELD_RE.finditer(text):
                value, key = m.group("v").strip(), m.group("key").lower().replace("-", "_").replace(" ", "_")
                words = re.split(r"[ \t]+", value)
                generic = key == "name" and not _PERSON_OBJECT_RE.search(text[max(0, m.start() - 60) : m.start()])
                # a bare "name" is anything's (a service, a job) unless the object holding it is a person's
                if 1 <= len(words) <= 4 and all(w.replace("-", "").replace("'", "").isalpha() for w in words) and (
                        not generic or (shaped([w.capitalize() for w in words], min_words=2)
                                        and all(_unknown_word(w) for w in words))):
                    add(m.start("v"), m.start("v") + len(value), _ABOVE_THE_MODEL)
        if any(sep in text for sep in (",", ";", "\t", "|")) and _PERSON_COLUMN_RE.search(text):
            # 11b. the cells of a table's name column (a CSV header "first_name,last_name", an SQL column list)
            for s, e in table_cells(text, _PERSON_COLUMN_RE):
                words = text[s:e].split()
                if 1 <= len(words) <= 4 and all(w.replace("-", "").replace("'", "").replace(".", "").isalpha()
                                                for w in words):
                    add(s, e, _ABOVE_THE_MODEL)
        if "name=" in text:
            for m in _NAME_PARAM_RE.finditer(text):
                words = re.split(r"[ +]", m.group("v"))
                if all(w.isalpha() for w in words) and (
                        len(words) >= 2 or _a_name_of_some_list(words[0])) and not is_tech_word(words[0]):
                    add(m.start("v"), m.end("v"), _ABOVE_THE_MODEL)
        if "PID|" in text:
            for m in _HL7_PID_NAME_RE.finditer(text):
                for part in re.finditer(r"[^\^]+", m.group("v")):  # family, given, middle: each a name
                    if any(c.isalpha() for c in part.group(0)):
                        add(m.start("v") + part.start(), m.start("v") + part.end(), 0.9)

        if "@" in text:
            for m in _MENTION_RE.finditer(text):
                if handle_of_a_person(m.group("h")):
                    add(m.start("h"), m.end("h"), _ABOVE_THE_MODEL)
            for m in _DISPLAY_NAME_RE.finditer(text):
                words = m.group("name").split()
                if shaped(words, min_words=2) or (m.group("q") and shaped(words, min_words=1)):
                    add(m.start("name"), m.end("name"), 0.88)
            for start, end in _names_an_address_spells(text):
                add(start, end, 0.88)

        if ">" in text or "|" in text or "•" in text or "·" in text or "»" in text:
            segments = separated_address_segments(text)
            if segments and segments[0][2] == "name" and name_shaped(text[segments[0][0] : segments[0][1]].split(),
                                                                     min_words=2):
                add(segments[0][0], segments[0][1], 0.9)  # the recipient of a one-line address block

        self._given_names(text, add, places, person_spans)
        if "/" in text:
            for m in _PRONOUNS_AFTER_NAME_RE.finditer(text):
                add(m.start(1), m.end(1), 0.9)  # the pronouns a person gives: "Oluwadamilare (he/him)"
        if (sign_off := _signed(text)) and all(_a_name_of_some_list(w) for w in sign_off.group(1).split()):
            add(sign_off.start(1), sign_off.end(1), 0.9)  # a message signed at its end: "— Sam", "-- Kai Yang"
        if ":" in text or "assigned" in text:
            for start, end in _holders_of_a_role(text):
                add(start, end, 0.9)  # the role is the evidence, as an honorific is ("assigned to Julia": no place)
        if "-" in text:
            for start, end in _korean_given_names(text):
                if not any(s <= start < e for s, e in places):
                    add(start, end, 0.88)
        _inflected_given_names(text, add, places + person_spans)
        if name_term_set():
            # 13. a word that is a product and a given name, doing what only a person does ("Julia is on call")
            for m in _TITLE_WORD_RE.finditer(text):
                # (the model's place on the very word is none: a technology word is never a place, and the claim
                # drops it — "reviewed by Julia" was read as a place)
                if is_name_term(m.group(0)) and acts_as_a_person(text, m.start(), m.end()) and not any(
                        s <= m.start() < e and (s, e) != m.span() for s, e in places):
                    add(m.start(), m.end(), 0.75)
        # 14. one or two names opening a chat line before what people do there ("River mentioned …", "Amber and
        # Jasper both approved …", "Jade, can you …"); a technology word only when it is a given name too ("Sage
        # pushed"; "Kafka broke prod" is the product)
        for m in _OPENING_PEOPLE_RE.finditer(text):
            for group in ("a", "b"):
                word = m.group(group)
                if word and (_a_name_of_some_list(word) or _unknown_word(word)) and (
                        not is_tech_word(word) or is_name_term(word)):
                    add(m.start(group), m.end(group), 0.9)
        # 15. a person's handle, the holder of a personal record, the owner of contact details (round 53)
        handles = set(messenger_handles(text))
        for start, end in [*handles, *record_holders(text), *owners_of_contact_details(text)]:
            add(start, end, 0.9)
        self._lists(text, person_spans + list(found), add)
        self._consistency(text, person_spans + list(found), add)
        results = [_result(self, "PERSON", s, e, score) for (s, e), score in found.items()]
        for r in results:
            if (r.start, r.end) in handles:
                r.recognition_metadata[HANDLE_KEY] = True
        return results

    @staticmethod
    def _cues(text: str, add, places: list[tuple[int, int]], lower_text: bool = False) -> None:
        for m in _HONORIFIC_CUE.finditer(text):
            span = _leading_name(text, m.end(), min_words=1) or (_lower_name_after(text, m.end()) if lower_text
                                                                 else None)
            particles = _SURNAME_PARTICLES_RE.match(text, m.end())
            if span is None and particles is not None:
                after = _leading_name(text, particles.end(), min_words=1)
                span = (m.end(), after[1]) if after else None
            if span:
                add(*span, 0.9)
        for m in _TRAILER_CUE_RE.finditer(text):
            span = _leading_name(text, m.end(), min_words=1)
            if span:
                add(*span, 0.9)
        for m in _POSSESSIVE_OF_A_PERSON_RE.finditer(text):
            # (the noun is the evidence: a word no list holds will do, one of prose or technology will not —
            # "Grafana's dashboard", "Monday's standup")
            name = m.group("name")
            if (a_persons_name(name) or (_unknown_word(name) and not is_name_term(name))) \
                    and name.casefold() not in _day_and_month_names() \
                    and not any(s <= m.start() < e for s, e in places):
                add(m.start("name"), m.end("name"), 0.88)
        for m in _HONORIFIC_AFTER_RE.finditer(text):
            if is_name_token(m.group(1)) and not any(s <= m.start() < e for s, e in places):
                add(m.start(1), m.end(1), 0.9)
        for m in itertools.chain(_RELATION_CUE.finditer(text), _OTHER_RELATION_CUE.finditer(text)):
            span = _leading_name(text, m.end(), min_words=1, max_words=2) or (
                _lower_name_after(text, m.end()) if lower_text else None)
            if span:
                add(*span, 0.9)
        for m in _ROLE_CUE.finditer(text):
            span = _leading_name(text, m.end(), min_words=1, max_words=2)
            if span and not is_tech_word(text[span[0]:span[1]].split()[0]):
                add(*span, 0.9)
        for m in _STRONG_CUE.finditer(text):
            span = _leading_name(text, m.end(), min_words=1)
            if span:
                add(*span, 0.88)
            elif lower_text or re.search(r"name\s*(?:is|was|'s|:)|call(?:s|ed)? me|named|called|surname|forename|"
                                         r"nickname", m.group(0), re.I):
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
    def _given_names(text: str, add, places: list[tuple[int, int]], persons: list[tuple[int, int]]) -> None:
        """A title-case word of the given-name lexicon (:func:`.vocabulary.given_names`: real names of ~80 countries
        that are no word of prose, technology, language or strong place), with the surname-shaped word after it. The
        small model misses names it has seen little of ("Grzegorz and I are at the booth", "thanks Björn,", "Yusuf
        watches the error budget"). Not after a determiner ("the Bruno collection" is a thing), nor inside a place
        the model found ("São Paulo"), a street ("Victor Hugo Road") or a firm ("Conway Inc.")."""
        lexicon = given_names()
        if not lexicon:
            return
        streets: list[tuple[int, int]] | None = None
        taken = places + persons
        for m in _TITLE_WORD_RE.finditer(text):
            word = m.group(0)
            if (not _a_given_name(word, lexicon) or word.casefold() in _SPACY_STOP_WORDS or not name_shaped([word])
                    or foreign_script(word)):
                continue  # another script's names are ScriptNameRecognizer's
            if any(s <= m.start() < e for s, e in taken) or _STREET_AFTER_NAME_RE.match(text, m.end()):
                continue  # the model's own person (the whole "Mary Jenkins") or place
            if streets is None:  # found once per text, only when a name is found
                streets = [x.span() for rx in (_STREET_RE, _EURO_STREET_RE, _CORNER_RE) for x in rx.finditer(text)]
            if any(s <= m.start() < e for s, e in streets):
                continue  # a street named after someone ("04862 Victor Hugo u. 49") is an address
            before = _PREVIOUS_WORD_RE.search(text, max(0, m.start() - 30), m.start())
            if (before is not None and before.group(1).casefold() in _DETERMINERS
                    and not _article_of_a_name(before.group(1), text)):
                continue
            end = m.end()
            after = _NEXT_TITLE_RE.match(text, end)
            if after is not None and name_shaped([after.group(1)]) and (
                    after.group(1).casefold() in surnames() or after.group(1).casefold() not in common_words()):
                end = after.end(1)
            elif (after is not None and after.group(1).casefold() in _PLACE_HEAD_SURNAMES
                  and not _NEXT_TITLE_RE.match(text, after.end(1))):
                add(m.start(), after.end(1), 0.86)  # "Beatriz Costa", "Minh Ho": no "Rica", "Chi Minh" after it
                continue
            organisation = _ORG_AFTER_RE.match(text, end)
            after_word = organisation.group(1).casefold() if organisation else ""
            if organisation is None or after_word not in _NOT_NAME_WORDS or (
                    after_word in _NAME_PARTICLES and _NEXT_TITLE_RE.match(text, organisation.end())):
                add(m.start(), end, 0.86)  # (a particle before a surname is none of a firm's words: "Jean Le Gall")
        # a surname of the lexicon that no prose or technology uses, after a word some list holds as a given name
        # ("Hope Adeyemi", "Ilya Sokolov"): the pair is a person's name whichever word the lexicon left out
        for m in _TITLE_PAIR_RE.finditer(text):
            first, last = m.group(1), m.group(2)
            if (last.casefold() in surnames() and _unknown_word(last) and _a_name_of_some_list(first)
                    and (not is_tech_word(first) or is_name_term(first))  # "Patience Asante", "Sage Patel"
                    and not any(s <= m.start() < e for s, e in taken)):
                before = _PREVIOUS_WORD_RE.search(text, max(0, m.start() - 30), m.start())
                if before is None or before.group(1).casefold() not in _DETERMINERS:
                    add(m.start(), m.end(), 0.86)
        # in lower case only where a person is addressed: "thanks zainab!!", "hi dario,", "dario pls approve …"
        for m in _LOWER_ADDRESSED_RE.finditer(text):
            group = "name" if m.group("name") else "n2"
            start, end = m.span(group)
            word = m.group(group)
            # (a line opening with what someone did is the stronger cue: "dev" after "--ask" is no one; a word no list
            # holds counts only opening a line, before what only a person does: "xlarge didn't speed it up")
            # (a name term said to, at the end of its phrase: "thanks sam!", "hi kai," — "cc dev team" goes on)
            said_to = word in lexicon or (is_name_term(word) and _PHRASE_END_RE.match(text, end) is not None)
            if ((said_to if group == "name" else _a_name_of_some_list(word) or (
                    _unknown_word(word) and m.group("bol") is not None and m.group("act") is not None))
                    and word not in _SPACY_STOP_WORDS
                    and not any(s <= start < e for s, e in places)):
                add(start, end, 0.86)
        # a whole name in lower case, in any script: a given name and a surname of the lexicon side by side, neither a
        # word of prose nor of technology ("иван петров заболел", "nguyễn văn hùng pushed the fix")
        runs: list[list[re.Match[str]]] = []  # lower-case name words side by side, up to three
        for w in _LOWER_WORD_RE.finditer(text):
            if w.group(0) != w.group(0).lower() or not _lower_name_word(w.group(0), lexicon):
                continue
            last = runs[-1] if runs else None
            if last and len(last) < 3 and text[last[-1].end() : w.start()] in (" ", "\t"):
                last.append(w)
            else:
                runs.append([w])
        for run in runs:
            words = {r.group(0) for r in run}
            if len(run) >= 2 and words & lexicon and words & surnames() and not any(
                    s <= run[0].start() < e for s, e in places):
                # another script's pair is as firm (the English model, whose weak guesses are dropped there, reads none)
                start, end = run[0].start(), run[-1].end()
                add(start, end, 0.88 if foreign_script(text[start:end]) else 0.8)

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
                        # a list after "founders:" is people: above the NER's guess that a surname is a place
                        add(s, e, 0.86 if has_person or introduced else 0.75)

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


# articles that open Italian, Spanish and French surnames ("Lo Russo", "La Rosa", "Le Gall", "Los Santos")
_SURNAME_ARTICLES = frozenset("lo la le li los las del della delle dello".split())


def determiner_led(span_text: str) -> bool:
    """A span whose first word is a determiner or possessive ("Meine Nummer", "The Beatles"): a noun phrase. Not a
    word alone ("Mia is on call tonight", "her cell (Mio)": a determiner of some language alone is no noun phrase,
    and these are given names), nor an article that opens a surname ("Lo Russo", "La Rosa", "Le Gall")."""
    words = span_text.split()
    if len(words) < 2:
        return False
    first = words[0]
    if re.fullmatch(r"[A-Z]\.", first):
        return False  # an initial: "A. Kowalczyk", "O. Adeyemi" (the article "A" takes no full stop)
    folded = first.strip(".,;:!?\"'’()").lower()
    if folded in _SURNAME_ARTICLES and first[:1].isupper() and all(
            w.strip(".,;:!?\"'’()").casefold() in surnames() for w in words[1:]):
        return False
    return folded in _DETERMINERS


def a_determiner_alone(word: str, sentence: str, text: str = "") -> bool:
    """One word that is a determiner of some language, read as a name: the determiner in a sentence (or a ``text``:
    a sentence alone may be too short to tell) written in another language ("Les options sont …", "Het is mogelijk
    …"), or when no list holds it as a given name; a given name in English ("Mia is on call tonight", "her cell
    (Mio)")."""
    folded = word.strip(".,;:!?\"'’()").casefold()
    if folded not in _DETERMINERS:
        return False
    if not (folded in given_names() or folded in name_dictionary()):
        return True
    return bool(written_languages(sentence) or (text and written_languages(text)))



# --------------------------------------------------------------------------------------------------
# Places after the verbs and prepositions English uses for places (LOCATION)
# --------------------------------------------------------------------------------------------------

_PLACE_CUE = re.compile(
    r"\b(?:(?:born|grew up|raised|lives?|lived|living|resides?|resided|residing|settled|stays?|stayed|staying|based|"
    r"located|headquartered|stationed|vacationing|holidaying|studied|studying)[ \t]+(?:in|at|near)|"
    r"(?:moved|moving|relocated|relocating|travell?ed|travell?ing|flew|flying|drove|driving|trip|emigrated|"
    r"immigrated|returned|returning|headed|heading|commuted?)[ \t]+(?:back[ \t]+)?(?:to|from)|"
    r"(?:arrived|arriving|landed)[ \t]+(?:at|in)|(?:i'm|i am|we're|we are|is|are|was|were|comes?|came)[ \t]+from|"
    r"(?:i'm|i am|we're|we are)[ \t]+(?:currently[ \t]+|now[ \t]+)?in)[ \t]+",
    re.I,
)
_PLACE_TOKEN_RE = re.compile(r"[^\W\d_][\w'’.\-]*")
_PLACE_PARTICLES = frozenset("de del della di da do dos das du des la le les el upon on am an im sur en y".split())
_PLACE_STOP = frozenset(
    w.lower()
    for w in """I Me Him Her Them Us You It This That The A An My Our Your His Their Work Home School Bed Town
    Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May June July August
    September October November December Today Tomorrow Yesterday Here There Now Then Inc Inc. LLC Ltd Ltd. Corp
    Corp. Corporation Company GmbH AG Group Holdings University College School Bank Solutions Systems
    Technologies Software Labs Services""".split()
)


def _place_span(text: str, pos: int, *, lower_ok: bool) -> tuple[int, int] | None:
    """1-3 place words (title case or ALL CAPS; lower case only in an all-lower-case text) joined by particles."""
    i = _SPACE_RE.match(text, pos).end()
    if text[i : i + 4].lower() == "the ":
        i += 4
    start = end = None
    words = 0
    while words < 3:
        m = _PLACE_TOKEN_RE.match(text, i)
        if not m:
            break
        tok = m.group(0).rstrip(".")
        low = tok.lower()
        if low in _PLACE_PARTICLES and start is not None:
            j = _SPACE_RE.match(text, m.end()).end()
            if j == m.end():
                break
            i = j
            continue
        if low in _PLACE_STOP or low in _SPACY_STOP_WORDS:
            break
        if not (tok[0].isupper() or (lower_ok and len(tok) >= 3) or foreign_script(tok)):
            break  # (a word of another script has no case: "moved to 北京", "born in Москва")
        start = m.start() if start is None else start
        end = m.start() + len(tok)
        words += 1
        j = _SPACE_RE.match(text, end).end()
        if j == end or text[end : end + 1] in ",.;:!?":
            break
        i = j
    return (start, end) if start is not None else None


class PlaceCueRecognizer(EntityRecognizer):
    """LOCATION after the phrases English uses for places: ``born in``, ``grew up in``, ``lives in``, ``moved
    to``, ``travelled to``, ``returned to``, ``arrived at``, ``is from``, ``I'm in`` ... followed by 1-3 title-case
    or ALL-CAPS words (joined by particles such as ``de``/``upon``; lower-case words only in a text with no capital
    letter at all, where case carries no information). Score 0.87: above the NER's guess that an unfamiliar place
    name is a person (0.85), below the person cues (0.88+)."""

    def __init__(self, supported_language: str = "en"):
        super().__init__(supported_entities=["LOCATION"], name="RecMemPlaceCues",
                         supported_language=supported_language)

    def load(self) -> None:
        return None

    def analyze(self, text: str, entities: list[str], nlp_artifacts=None) -> list[RecognizerResult]:
        lower_ok = not any(c.isupper() for c in text)
        out = []
        for m in _PLACE_CUE.finditer(text):
            span = _place_span(text, m.end(), lower_ok=lower_ok)
            if span and span[1] - span[0] >= 2:
                out.append(_result(self, "LOCATION", span[0], span[1], 0.87))
        if not all(c < "\u0370" for c in text):
            out += [_result(self, "LOCATION", s, e, 0.87) for s, e in _script_places(text)]
        return out


# The same phrases in other languages (the English model reads no place in another script): Chinese 住在/来自/出生在/
# 搬到 + a Han place name (up to its 市/省/区/县 or three characters), Japanese/Korean place + 出身/に住んで/에 살아/
# 출신, Russian/Ukrainian "живу в", "родился в", "переехал в" + a capitalised word.
_ZH_PLACE_CUE_RE = re.compile("(?:住在|来自|來自|出生在|出生于|出生於|生于|搬到|搬去|老家在|老家是|定居在|定居于)")
_HAN_PLACE_RE = re.compile("[\u4e00-\u9fff]{1,4}?[市省区區县縣州都府道]|[\u4e00-\u9fff]{2,3}")
_CJK_PLACE_AFTER_RE = re.compile("([\u4e00-\u9fff\u30a0-\u30ff]{2,5}|[\uac00-\ud7a3]{2,5})[ \t]?"
                                 "(?:出身|に住んで|に住む|から来|에[ \t]?살|출신|에서[ \t]?왔)")
_CYR_PLACE_CUE_RE = re.compile(
    r"(?:живу|живёт|живет|жила?|родил(?:ся|ась)|переехал[аи]?|вырос(?:ла)?|проживаю|мешкаю|народився|переїхав)"
    r"[ \t]+(?:в|во|у|из|до)[ \t]+([А-ЯЁІЇЄ][а-яёіїє'\-]+(?:[ \t]+[А-ЯЁІЇЄ][а-яёіїє'\-]+)?)", re.I)


def _script_places(text: str) -> list[tuple[int, int]]:
    out = []
    for m in _ZH_PLACE_CUE_RE.finditer(text):
        p = _HAN_PLACE_RE.match(text, m.end())
        if p and p.group(0)[0] not in "这這那一哪此该該我你他她它":  # "住在这里" (lives here) names no place
            out.append(p.span())
    out += [m.span(1) for m in _CJK_PLACE_AFTER_RE.finditer(text)]
    out += [m.span(1) for m in _CYR_PLACE_CUE_RE.finditer(text)]
    return out


# --------------------------------------------------------------------------------------------------
# Names in other scripts (PERSON)
# --------------------------------------------------------------------------------------------------

# The most frequent Chinese surnames (simplified and traditional forms; ~100 cover about 85 % of people) and
# compound ones; Korean surnames (a closed class: the first syllable of almost every name); common Japanese ones.
_HAN_SURNAMES = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪"
    "范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤常温康施文牛樊葛邢安齐易乔伍庞颜"
    "倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚符舒阮柯纪梅童凌毕单季裴霍涂成苗谷盛曲翁冉骆蓝路游辛靳管柴蒙鲍华喻祁蒲"
    "房滕屈饶解牟艾尤阳时穆农司卓古吉缪简车项连芦麦褚娄窦戚岑景党宫费卜冷晏席卫米柏宗瞿桂全佟应臧闵苟邬边卞姬师和仇栾隋商"
    "刁沙荣巫寇桑郎甄丛仲虞敖巩明佘池查麻苑迟邝張劉陳楊黃趙吳孫馬鄭謝許韓馮鄧蕭葉蘇呂盧鍾譚陸賈鄒閻龍賀顧龔萬錢嚴湯溫莊聶"
    "魯歐關蘭賴鄔邊欒鞏龐顏蔣"
)
_HAN_COMPOUND_SURNAMES = frozenset(
    """欧阳 歐陽 司马 司馬 诸葛 諸葛 上官 东方 東方 夏侯 皇甫 尉迟 尉遲
    公孙 公孫 令狐 慕容 宇文 长孙 長孫 端木 司徒 西门 西門""".split()
)
_JA_SURNAMES = frozenset(
    """佐藤 鈴木 高橋 田中 伊藤 渡辺 山本 中村 小林 加藤 吉田 山田 佐々木
    山口 松本 井上 木村 清水 山崎 池田 橋本 阿部 石川 山下 中島 石井 小川
    前田 岡田 長谷川 藤田 後藤 近藤 村上 遠藤 青木 坂本 斉藤 斎藤 福田 太田
    西村 藤井 金子 岡本 藤原 三浦 中野 中川 原田 松田 竹内 小野 田村 中山
    和田 石田 森田 上田 内田 柴田 酒井 宮崎 横山 高木 安藤 宮本""".split()
)
_KO_SURNAMES = frozenset(
    "김이박최정강조윤장임한오서신권황안송류전홍고문양손배백허유남심노하곽성차주우구민진나지엄채원천방공현함변염여추도소석선설마"
    "길연위표명기반왕금옥육인맹제모탁국어은편용예경봉사부가복태목형피두감음빈동온호범좌"
)
# Characters of given names (the most frequent ones in name statistics, simplified and traditional): with no cue, a
# short Han run is a name only when the surname is followed by such characters — "王伟" is, "谢谢" (thanks), "文件"
# (file), "方法" (method), "时间" (time) are words that merely start with a surname character. Time words (天, 日)
# are left out: "明天" is tomorrow.
_HAN_GIVEN = frozenset(
    "伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀英华平刚桂玉兰霞萍燕红鹏辉飞鑫波斌宇浩凯健俊帆帅旭宁龙林欣晨瑞博文婷颖琳雪"
    "慧佳倩晶琴云莉丹蕾薇璐梅芬玲婉凤洁梦思雨嘉子涵轩睿泽然昊宏志建国新海亮峰晓小春秋冬阳光辰星若一成立德正永家振世"
    "中金荣福贵生祥才发东南山江义庆兵保仁安力彬锋铭晗悦怡琪瑶菲妍彤诗可心语馨楠航毅威坤鸿琦莹媛露珊蓉婧萱倪韬翔"
    "偉華軍強麗靜傑濤輝鵬飛龍寧曉國東鳳潔夢萬鴻瑩蘭雲慶銘晴儀韻"
)
# Nouns that take a Japanese or Korean honorific and are not names: kinship and social roles ("皆さん" everyone,
# "お客様" customer, "고객님" customer, "사장님" boss); a name is never led by the honorific prefix お/ご.
_JA_TITLED_NOUNS = frozenset("皆 客 神 王 奥 母 父 兄 姉 弟 妹 娘 息子 子 赤 嬢 坊 殿 旦那 馳走 苦労 皆様 仏".split())
_KO_TITLED_NOUNS = frozenset(
    "고객 선생 사장 부장 과장 차장 팀장 실장 원장 교수 회장 대표 이사 주인 형 누나 언니 오빠 어머 아버 할머 할아버 "
    "목사 신부 스승 관리자 담당자 회원 손 님 여러분 기사 작가 의사 간호사 변호사 부모 사모 누 선배 후배 대리 주임 "
    "하나 부처 아드 따".split())
# Courtesy words (greetings, thanks, please, sorry, yes/no) of the caseless scripts: in English text a short run of
# another script is often one of them ("Thanks! شكرا"), not a name. With each language's stop words (spaCy's lists)
# they are what the bare-run rule never takes for a name.
_COURTESY = frozenset(
    """شكرا شكراً مرحبا مرحباً السلام عليكم أهلا اهلا وسهلا فضلك عفوا نعم صباح مساء الخير السلامة شاء الله الحمد
    حبيبي يلا تمام سلام ممنون مرسی مرسي خداحافظ لطفا بله شلوم שלום תודה רבה בבקשה סליחה כן לא בוקר טוב להתראות ערב
    नमस्ते धन्यवाद शुक्रिया कृपया माफ़ माफ हाँ हां नहीं जी अच्छा ठीक स्वागत नमस्कार ধন্যবাদ নমস্কার நன்றி வணக்கம்
    สวัสดี ขอบคุณ ครับ ค่ะ คะ ขอโทษ ใช่ ไม่ ยินดี โชคดี นะ გამარჯობა მადლობა ሰላም አመሰግናለሁ ສະບາຍດີ ຂອບໃຈ
    ຂອບໃຈຫຼາຍໆ សួស្តី អរគុណ ជំរាបសួរ မင်္ဂလာပါ ကျေးဇူးတင်ပါတယ် ကျေးဇူး བཀྲ་ཤིས་བདེ་ལེགས། ཐུགས་རྗེ་ཆེ།""".split())
_THAI_PARTICLE_END_RE = re.compile("(?:ครับ|ค่ะ|คะ|นะ|จ้ะ|จ้า)$")
_STOP_LANGS = ("ar", "fa", "ur", "he", "hi", "mr", "ne", "bn", "ta", "te", "kn", "gu", "si", "am", "ti")
# Marathi's and Nepali's lists were counted from text and hold names ("पाटील", "किरीटी", "नाना"): they may say a run
# is no name (:func:`_listed`), not that a run is a phrase (:func:`_run_names`)
_NAMES_IN_STOP_LISTS = ("mr", "ne")


# Function words spaCy's lists leave out, a closed class: Urdu's postpositions, negation and auxiliaries ("کا", of;
# "نہیں", not), Hindi's future and imperative forms and auxiliaries ("होगा", will be; "करो", do). In a mixed message
# they were read as names ("login کا bug", "release होगा आज").
_MORE_STOP_WORDS = {
    "ur": frozenset("""کا کی کے نہیں نہ میں سے کیا کو پر ہے ہیں تھا تھی تھے گا گی گے ہو ہوا ہوئی ہوئے یہ وہ اور بھی
    تو ابھی کب کیوں کون جو کر کرو کریں کرنا دیا دی دے رہا رہی رہے سکتا سکتی سکتے چاہیے گیا گئی گئے لیکن مگر اگر بس
    """.split()),
    "hi": frozenset("""होगा होगी होंगे करो करें करिए कीजिए किसने किसको किसका किया किये गई गए गये रही रहे दो दें दीजिए
    लो लें लीजिए सकता सकती सकते चाहिए यार बस अभी करेंगे करेगा करेगी करूंगा करूँगा करूंगी जाएगा जाएगी जाएंगे
    रहेगा रहेगी रहेंगे""".split()),
}


def _stop_words_by_language() -> dict[str, frozenset[str]]:
    out = {lang: spacy_stop_words(lang) | _MORE_STOP_WORDS.get(lang, frozenset()) for lang in _STOP_LANGS}
    # Thai's list, read word by word where a mixed message puts spaces ("API gateway มี bug ใหม่"); less the
    # nicknames it holds ("น้อย", "นิด")
    out["th"] = spacy_stop_words("th") - _caseless_given()
    return out


@functools.cache
def _script_stop_words() -> frozenset[str]:
    return frozenset().union(*_stop_words_by_language().values())


@functools.cache
def function_words() -> frozenset[str]:
    """The stop words of the caseless scripts (:func:`_phrase_stop_words`) that no list holds as a name: "पर" (on),
    "کا" (of); not "علي" (Ali, and "on")."""
    return _phrase_stop_words() - _caseless_given() - surnames()


@functools.cache
def _phrase_stop_words() -> frozenset[str]:
    """The stop words that mark a phrase: all of :func:`_script_stop_words` but those of
    :data:`_NAMES_IN_STOP_LISTS`."""
    return frozenset().union(*(words for lang, words in _stop_words_by_language().items()
                               if lang not in _NAMES_IN_STOP_LISTS))


@functools.cache
def _calendar_words() -> frozenset[str]:
    return _CALENDAR | {w for w in faker_calendar_names() if w[0] >= "\u0590"}


def _ordinary_caseless(run: str) -> bool:
    """A run of a caseless script that is prose, not a name: a courtesy word in it, stop words only, or a Thai phrase
    that ends with a polite particle."""
    if _THAI_PARTICLE_END_RE.search(run) or any(w in run for w in _COURTESY if "\u0e00" <= w[0] <= "\u0e7f"):
        return True
    words = [w.strip("\u064b\u064c\u064d\u064e\u064f\u0650\u0651\u0652.,!?؟،") for w in run.split()]
    stop = _script_stop_words()  # all of them: "علي" (Ali) is also a preposition
    return any(w in _COURTESY for w in words) or all(w in stop for w in words)


_HAN = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_HANGUL = r"\uac00-\ud7a3"
_HAN_RUN_RE = re.compile(f"[{_HAN}]+")
_HANGUL_WORD_RE = re.compile(f"(?<![{_HANGUL}])[{_HANGUL}]{{2,4}}(?![{_HANGUL}])")
_ZH_CUE_RE = re.compile(
    f"(?:我叫|名叫|叫做|我是|他是|她是|名字是|名字叫|姓名[:：]?\\s*|同事|朋友|老板|老闆|经理|經理|老师|老師|同学|同學|"
    f"妻子|丈夫|太太|儿子|兒子|女儿|女兒|哥哥|姐姐|弟弟|妹妹|妈妈|媽媽|爸爸|客户|客戶|医生|醫生)(?=[{_HAN}])"
)
# Japanese and Korean introductions: "田中と申します", "名前は山田", "제 이름은 김민수입니다", "저는 박지훈이에요"
_JA_INTRO_RE = re.compile(f"(?:名前は|私は|わたしは)?([{_HAN}\u30a0-\u30ff]{{2,6}})"
                          f"(?:と申します|と言います|といいます|と申す)"
                          f"|(?:名前は|お名前は)[ \t]*([{_HAN}\u30a0-\u30ff]{{2,6}})")
_KO_INTRO_RE = re.compile(f"(?:이름은|저는|나는|제[ \t]+이름은)[ \t]*([{_HANGUL}]{{2,4}}?)"
                          f"(?:입니다|이에요|예요|이라고|라고|이야|야)")
_ZH_TITLE_RE = re.compile(f"([{_HAN}]{{1,2}})(?:先生|女士|小姐|老师|老師|同学|同學|经理|經理|医生|醫生|教授)")
_JA_TITLE_RE = re.compile(f"([{_HAN}\u30a0-\u30ff]{{1,4}})(?:さん|様|さま|くん|君|ちゃん|先生|氏)")
# a name written in hiragana before its title ("やまもと さん"; the normalisation may put a space between): not a
# word of kinship or courtesy written in hiragana ("みなさん", "おかあさん", "あかちゃん", "おつかれさま")
_JA_KANA_TITLE_RE = re.compile("(?<![\u3040-\u309f])([\u3040-\u309f]{2,5})[ \t]?(?:さん|さま|様|くん|ちゃん)")
_JA_KANA_NOT_NAMES = ("お", "ご", "みな", "あか", "にい", "ねえ", "じい", "ばあ", "とう", "かあ", "ぼっ")
_KO_TITLE_RE = re.compile(f"([{_HANGUL}]{{2,4}})[ \\t]?(?:씨|님|선생님)")
# cased scripts other than Latin: Cyrillic, Greek, Armenian
_CASED_WORD = "[\u0400-\u04ff\u0370-\u03ff\u0531-\u0587][\u0400-\u04ff\u0370-\u03ff\u0531-\u0587'’\\-]+"
_CASED_NAME_RE = re.compile(f"(?<![\\w])({_CASED_WORD}(?:[ \\t]+{_CASED_WORD}){{1,2}})(?![\\w])")
# caseless scripts written with spaces: Arabic, Hebrew, Devanagari and other Indic scripts, Thai, Georgian, Ethiopic
_CASELESS = ("\u0590-\u05ff\u0600-\u06ff\u0750-\u077f\u0900-\u0dff\u0e00-\u0e7f\u0e80-\u0eff\u0f00-\u0fff"
             "\u1000-\u109f\u10a0-\u10ff\u1200-\u137f\u1780-\u17ff")
_CASELESS_RUN_RE = re.compile(f"[{_CASELESS}]+(?:[ \\t]+[{_CASELESS}]+){{0,2}}")


# Georgian surnames carry their own mark: -ძე ("son of"), -შვილი ("child of"), the Svan -ლიანი; a given name and
# such a surname are a person in any text
_GEORGIAN_NAME_RE = re.compile("(?<![\u10d0-\u10ff])([\u10d0-\u10ff]{2,12}[ \t]+[\u10d0-\u10ff]{1,16}"
                               "(?:ძე|შვილი|ლიანი))(?![\u10d0-\u10ff])")


# Code in a sentence is no Latin prose: a format placeholder ("%(verbose_name)s", "{name}"), markup, a code span, a URL,
# a snake_case identifier. Counted as Latin words, it made a Thai or Burmese UI string "mostly Latin" and its words
# names ("ไม่มี %(verbose_name_plural)s ที่ใช้ได้"). (An e-mail address, a domain or a file name stays: English chat
# writes them.)
_CODE_TOKEN_RE = re.compile(
    r"%\([^)\s]*\)[-#0 +]*\d*(?:\.\d+)?[A-Za-z]|\{[^{}\s]*\}|<[^<>\n]*>|`[^`\n]*`|https?://\S+|\w*_\w*")


def _prose(text: str) -> str:
    """``text`` with its code blanked out (:data:`_CODE_TOKEN_RE`), for weighing its scripts."""
    return _CODE_TOKEN_RE.sub(" ", text) if any(c in text for c in "%{<`/_") else text


# Names in Arabic and Hebrew sentences (Arabic script also writes Persian and Urdu): the scripts have no capitals,
# so a name is known by the name lists (Faker's native-script lists, in :func:`.vocabulary.given_names`) — a given name
# followed by a surname or a second given name (a father's: "ليلى حسن", "אבי מזרחי"), or a given name called to (after
# "يا", or opening the text before a comma: "תמר, אפשר …"). A listed word that is a function word or a courtesy
# ("לי", "שלי", "علي", "שלום") is none; a one-letter preposition or conjunction written on the name ("لليلى", "ודנה")
# is read past.
_SEMITIC = "\u0590-\u05ff\u0600-\u06ff\u0750-\u077f"
_SEMITIC_WORD_RE = re.compile(f"[{_SEMITIC}]+")
# (each word with the next: the second word of a pair is the first of the next)
_SEMITIC_PAIR_RE = re.compile(f"(?<![{_SEMITIC}])([{_SEMITIC}]+)(?=[ \t]+([{_SEMITIC}]+)(?![{_SEMITIC}]))")
_SEMITIC_CALLED_RE = re.compile(f"(?:(?<![{_SEMITIC}])يا[ \t]+|\\A[ \t]*|\n[ \t]*)([{_SEMITIC}]+)"
                                f"(?=[ \t]*[،,!])|(?<![{_SEMITIC}])يا[ \t]+([{_SEMITIC}]+)")
# Arabic wa-, fa-, bi-, li-, ka-; Hebrew ve-, ha-, be-, le-, mi-, she-, ke-
_PROCLITICS = frozenset("وفبلك" "והבלמשכ")
# the proclitics that stack before another ("ולמשה", and to Moshe; "שבדנה"; "ولمحمد", and to Muhammad)
_STACKING_PROCLITICS = frozenset("وف" "ו")
# (only "and" stacks before a preposition in chat; "שלישי", third, is not she- + le- + "ישי", nor "שורות" rows
# she- + ve- + "רות")
_STACKED_PROCLITICS = frozenset("بلك" "בלמכש")


def _proclitic_stems(word: str) -> tuple[str, ...]:
    """``word`` and what is left of it without one or two proclitics ("ולמשה" → "למשה", "משה"), each stem at least
    three letters long."""
    stems = [word]
    if len(word) > 3 and word[0] in _PROCLITICS:
        stems.append(word[1:])
        if len(word) > 4 and word[0] in _STACKING_PROCLITICS and word[1] in _STACKED_PROCLITICS:
            stems.append(word[2:])
    return tuple(stems)


# A phrase of another script in an English message ("Sprint retro moved to Tuesday, اجتماع قصير, 30 minutes max",
# "The on-call roster for इस हफ्ते is still empty") is no name: its words are read one by one (:func:`_run_names`).
# An honorific beside a word makes it a name ("अंकित जी", "সৌরভ দা", "رضا جان"; before it: "آقای محمدی", "أبو يوسف",
# "አቶ አበበ"), even when the honorific is also a courtesy or a function word.
_HONORIFIC_AFTER = frozenset("जी जीः साहब साहिब भाई दीदी भैया দা দি ভাই আপা সাহেব জী جان صاحب".split())
# Hindi and Urdu postpositions of a person: the agent's ने, the recipient's को ("अमित ने", "سارہ کو")
_OF_A_PERSON_AFTER = frozenset("ने को نے کو".split())
_HONORIFIC_BEFORE = frozenset("""श्री श्रीमती सुश्री श्रीमान डॉ डॉ. डॉक्टर শ্রী শ্রীমতী জনাব ডঃ ডা. آقای آقا خانم جناب دکتر
    مهندس استاد السيد السيدة الأستاذ الأستاذة الدكتور الدكتورة أستاذ دكتور المهندس أبو أم ابن بنت يا אדון גברת
    አቶ ወይዘሮ ወ/ሮ ዶክተር ዶ/ር""".split())
# "and" between two words of a run: a list of names ("ফারহানা আর সাকিব", "ሄለን እና ዮናስ"), not a phrase
_AND = frozenset("و آو और एवं व আর ও এবং እና და և และ".split())
# Hebrew words that carry the article (ha-, with a proclitic before it: ve-ha-, be-ha-, le-ha-, mi-ha-, she-ha-,
# ke-ha-) or the preposition be- ("in") are nouns of prose, not names, unless a name list holds them ("הדר", "בועז")
_HEBREW_ARTICLE_RE = re.compile("^(?:[ובלמשכ]?ה[\u05d0-\u05ea]{3,}|ב[\u05d0-\u05ea]{4,})$")
# Arabic words written with a preposition and the article (bi-l-, wa-l-, fa-l-, ka-l-, li-l-): prose, not names
_ARABIC_ARTICLE_RE = re.compile("^(?:[وف]?(?:بال|كال|لل)|وال|فال)[\u0621-\u064a]{2,}$")
# The calendar's words in the caseless scripts (today, tomorrow, yesterday, day, week, weekend, the weekdays): "Sprint
# starts شنبه", "The release goes out আগামীকাল" (the weekday and month names of Faker's locales are added to them)
_CALENDAR = frozenset("""היום מחר אתמול מחרתיים שבוע השבוע יום סופ"ש סופ״ש ראשון שני שלישי רביעי חמישי שישי שבת
    امروز فردا دیروز هفته روز شنبه یکشنبه دوشنبه سه‌شنبه چهارشنبه پنجشنبه پنج‌شنبه جمعه آخرهفته
    اليوم غدا غداً بكرة بكره أمس امبارح الأسبوع اسبوع أسبوع يوم الويكند
    आज कल परसों हफ्ते हफ़्ते हफ्ता हफ़्ता सप्ताह दिन सोमवार मंगलवार बुधवार गुरुवार शुक्रवार शनिवार रविवार वीकेंड
    আজ কাল আগামীকাল গতকাল পরশু সপ্তাহ সপ্তাহে দিন উইকেন্ড
    இன்று நாளை நேற்று வாரம் நாள்
    วันนี้ พรุ่งนี้ เมื่อวาน สัปดาห์ อาทิตย์ วันจันทร์ วันอังคาร วันพุธ วันพฤหัส วันพฤหัสบดี วันศุกร์ วันเสาร์
    วันอาทิตย์ สุดสัปดาห์
    ዛሬ ነገ ትናንት ሳምንት ቀን ሰኞ ማክሰኞ ረቡዕ ሐሙስ ዓርብ ቅዳሜ እሁድ
    დღეს ხვალ გუშინ კვირა კვირაში დღე შაბათ-კვირა""".split())
# the scripts whose names the native-script lists hold well (Hebrew, Arabic script, Georgian)
_LISTED_SCRIPT_RE = re.compile(f"[{_SEMITIC}\u10a0-\u10ff]")
_WORD_EDGE = ".,!?;:؟،؛()\"'“”«»—–-\u064b\u064c\u064d\u064e\u064f\u0650\u0651\u0652"


def _run_names(run: str, *, listed_script: bool) -> list[tuple[int, int]]:
    """The spans of ``run`` (one to three words of a caseless script in an English message) that may be a name.

    Each word is a name of the native-script lists, an honorific, "and", prose (a stop word, a courtesy or calendar
    word of the script, a Hebrew or Arabic word carrying the article, a Thai word holding a courtesy or a particle) or
    unknown — a word both listed and a stop word ("علي", Ali and "on"; "איתי", Itay and "with me") is unknown. Then:

    * beside an honorific, the words that are no prose are a name ("अंकित जी", "آقای محمدی");
    * with a listed name, the words of no prose joined to it are ("דנה כהן בתורנות" is "דנה כהן");
    * with prose and no listed name, in a script the lists hold (Hebrew, Arabic script, Georgian) the run is a phrase
      ("המשמרת של היום"); in another it is a phrase when half of its words are prose ("আমি দেখছি"), and the words
      that open it before its first prose are a subject named first ("সৌরভ এই সপ্তাহে", Sourav this week);
    * with no prose, the whole run, as before: a short run of another script in English is more often a name.
    """
    # (punctuation of the script on its own, an Arabic comma, is no word)
    words = [(m.start(), m.end(), w) for m in re.finditer(r"\S+", run) if (w := m.group(0).strip(_WORD_EDGE))]
    stop, calendar = _phrase_stop_words(), _calendar_words()
    given, family = given_names(), surnames()
    kinds = []
    for _, _, w in words:
        if w in _HONORIFIC_AFTER or w in _HONORIFIC_BEFORE or w in _OF_A_PERSON_AFTER:
            kinds.append("honorific")
        elif _listed(w, given):
            kinds.append("name")
        elif _listed(w, family):
            kinds.append("surname")
        elif w in _AND:
            kinds.append("and")
        # (a word drawn out with a tatweel is a clitic written before a foreign word: "للـ pod", "الـ API")
        elif w.endswith("\u0640") or w in _COURTESY or w in calendar or (
                w in stop and not (w in given or w in family)) or (
                _HEBREW_ARTICLE_RE.match(w) or _ARABIC_ARTICLE_RE.match(w)) or (
                "\u0e00" <= w[0] <= "\u0e7f" and _ordinary_caseless(w)):  # Thai: a courtesy or a particle in it
            kinds.append("prose")
        else:
            kinds.append("unknown")

    # a surname of the lists names someone beside a given name or an honorific; alone it may be a word ("قصير",
    # short, is a surname too: "اجتماع قصير جدا" is a short meeting)
    named_kind = "name" if "name" in kinds or "honorific" in kinds else "unknown"
    kinds = [named_kind if k == "surname" else k for k in kinds]

    def groups(keep) -> list[list[int]]:
        out: list[list[int]] = []
        for i, kind in enumerate(kinds):
            if keep(kind):
                if out and out[-1][-1] == i - 1:
                    out[-1].append(i)
                else:
                    out.append([i])
        return out

    def spans(chosen: list[list[int]]) -> list[tuple[int, int]]:
        out = []
        for g in chosen:
            while g and kinds[g[0]] == "and":
                g = g[1:]
            while g and kinds[g[-1]] == "and":
                g = g[:-1]
            if g:
                out.append((words[g[0]][0], words[g[-1]][1]))
        return out

    # names and unknown words, joined by "and": "თამარი და დავითი" (a listed name and one with its case ending)
    named = groups(lambda k: k in ("name", "unknown", "and"))
    if "honorific" in kinds:
        near = {i + d for i, k in enumerate(kinds) if k == "honorific"
                for d in ((1,) if words[i][2] in _HONORIFIC_BEFORE else (-1,))}
        return spans([g for g in named if near & set(g)])
    if "name" in kinds:
        return spans([g for g in named if any(kinds[i] == "name" for i in g)])
    prose = kinds.count("prose")
    if not prose:
        return [(words[0][0], words[-1][1])] if words else []
    if prose == len(kinds):
        return []
    if not listed_script and kinds[0] != "prose":
        # a subject named first, then words of its sentence ("সৌরভ এই সপ্তাহে", Sourav this week): the leading words
        return spans(named[:1])
    if listed_script or 2 * prose >= len(kinds):
        return []
    return [(words[0][0], words[-1][1])]


def _listed(word: str, lexicon: frozenset[str]) -> bool:
    stop = _script_stop_words()
    for w in _proclitic_stems(word):
        if w in lexicon and w not in stop and w not in _COURTESY:
            return True
    return False


def _semitic_names(text: str) -> list[tuple[int, int]]:
    given, family = _caseless_given(), surnames()
    out = [(m.start(1), m.end(2)) for m in _SEMITIC_PAIR_RE.finditer(text)
           if _listed(m.group(1), given) and (_listed(m.group(2), family) or _listed(m.group(2), given))]
    for m in _SEMITIC_CALLED_RE.finditer(text):
        g = 1 if m.group(1) else 2
        if _listed(m.group(g), given):
            out.append(m.span(g))
    return out


# Common given names of these scripts that Faker's lists leave out (its Hebrew list has no "יוסי", its Hindi and Thai
# ones no "राहुल", "प्रिया", "สมชาย")
_MORE_CASELESS_NAMES = frozenset("""
יוסי רונית אבי משה דוד יוני נועה מיכל תמר יעל שירה עומר איתי רון גיל טל ליאור אורי עידו נועם דניאל מאיה רותם הילה
שני אסף עמית ענבל אלון גלעד יונתן אביטל קרן שרון רוני ליה יואב אריאל ערן עדי נטע ירדן אופיר שחר ניר מוטי שלומי אלי
חיים יעקב אברהם שרה רחל לאה אסתר אורית סיגל מורן לימור אפרת דנה
राहुल प्रिया अमित सुनील अनिल राजेश सुरेश रमेश महेश दिनेश विकास विजय संजय अजय अभिषेक आकाश रोहित मोहित सचिन नेहा
पूजा अंजलि सीमा गीता सुनीता अनीता कविता स्नेहा दीपक मनोज प्रवीण नितिन आदित्य अर्जुन करण विशाल गौरव सौरभ आशीष
अंकित अंकिता श्वेता प्रियंका दिव्या रवि राज रिया सोनिया निधि अमन हर्ष कुणाल वरुण तरुण सुमित अनुराग पंकज
स्वाति शालिनी मेघा पल्लवी रश्मि ऋतिक इरफ़ान इमरान सलमान फ़ातिमा आयशा
สมชาย สมศรี สมศักดิ์ สมพงษ์ สมหญิง วิชัย สุรชัย ณัฐพล ธนากร กิตติ อนุชา ปิยะ นภา มาลี ศิริพร สุภาพร วิไล ประเสริฐ
ชัยวัฒน์ อภิชาติ ธีรพงษ์ พิมพ์ชนก ปวีณา กมล ต่าย นิด น้อย ปู แบงค์ บอย
""".split())
# given names that are words of their language too (dew, age, song, light; generous, happy, hope, beauty; lamp,
# lotus, worship, victory, limit, line …): opening a sentence they are the word; called ("يا جميل،"), with an
# honorific or beside a surname they stay names
_CASELESS_NAMES_THAT_ARE_WORDS = frozenset("""
טל גיל רון אור חן שני עדי ים ירדן שחר ניר קרן שרון אלון ענבר שקד הדר סופי
كريم جميل سعيد أمل نور هدى حسن أمين منير رشيد سالم فاضل شريف لطيف حكيم مجيد نبيل حليم رحيم زكي وفاء صالح عادل
سعيدة جميلة كريمة منى عمر بدر فجر رحمة إيمان أمان حياة سماح رجاء نجاح فرح هناء ضياء عماد ناصر منصور فؤاد جمال كمال
ماهر باسم وسيم محفوظ وجود فريد كبير سرور عزيز رئيس سلطان ملك أمير صاحب شباب راضي مين رمضان رجب شعبان هزار
باران بهار بلند تمام ثابت جوان روز شامل علم
जय दीपक कमल पूजा आशा विजय किरण सूरज ज्योति प्रेम शांति राज अमर सागर आकाश प्रकाश मोती रानी गीता सीमा रेखा वर्षा
उषा संध्या सरिता हीरा नीलम मंगल धन
กมล พิมพ์ น้อย ปู นิด มกรา กุมภา มีนา เมษา พฤษภา มิถุนา กรกฎา สิงหา กันยา ตุลา พฤศจิกา ธันวา
""".split())
# a word after a verb of speech ("قالت فاطمة", "אמר יוסי")
_SAID_BEFORE_RE = re.compile(f"(?<![{_CASELESS}])(?:قال|قالت|سأل|سألت|أخبر|أخبرت|كتب|كتبت|طلب|طلبت|يقول|تقول|"
                             f"אמר|אמרה|שאל|שאלה|ביקש|ביקשה|כתב|כתבה|گفت|نوشت|پرسید|کہا|کہتے|کہتی)[ \t]+"
                             f"([{_CASELESS}]+)")
# Hindi and Urdu after a person: the agent's ने ("राहुल ने")
_AGENT_NEXT_RE = re.compile(r"[ \t]+(?:ने|نے)(?![^\W\d_])")
_NISBA_AFTER_RE = re.compile("[ \t]+(ال[\u0621-\u064a]{2,}ي)(?![\u0600-\u06ff])")


def _caseless_given() -> frozenset[str]:
    return _with_more_names(given_names())


@functools.cache
def _with_more_names(given: frozenset[str]) -> frozenset[str]:
    # (cached per list: the union is read for every word of a text)
    return given | _MORE_CASELESS_NAMES


# the Indic scripts, Sinhala and Thai, where given names are words of the language first (virtues, nature, "new",
# "true"): a name of the lists there needs a cue unless it is one of the common names above
_SCRIPT_OF_WORD_NAMES_RE = re.compile("[\u0900-\u0dff\u0e00-\u0e7f]")


def _own_script_name(word: str, *, strong: bool) -> bool:
    """A given name of the lists (:func:`_listed`, with :data:`_MORE_CASELESS_NAMES`), unless it is a word of the
    language too (:data:`_CASELESS_NAMES_THAT_ARE_WORDS`) with no ``strong`` cue beside it."""
    if not _listed(word, _caseless_given()):
        return False
    if strong:
        return True
    if _SCRIPT_OF_WORD_NAMES_RE.match(word) and word not in _MORE_CASELESS_NAMES:
        return False  # (a listed name of these scripts is most often a word too: "पूर्ण", whole; "नवीन", new)
    # (a word that opens with a proclitic's letter may be a word whole: "وجود", existence, is not wa- + "جود")
    stems = _proclitic_stems(word) if word not in _caseless_given() else (word,)
    return not any(w in _CASELESS_NAMES_THAT_ARE_WORDS for w in stems)


# thanks and greetings right before a name ("धन्यवाद लक्ष्मी", "شكرا سارة", "תודה לרונית", "ممنون از نازنین")
_GREETING_BEFORE = frozenset("""धन्यवाद शुक्रिया नमस्ते नमस्कार شكرا شكراً مرحبا أهلا ممنون مرسی مرسي سلام
תודה היי שלום ขอบคุณ สวัสดี""".split())


# between two names of a list: "and" as a word (و, और, اور, และ). Not the "and" written onto a word ("وصل" is
# "arrived", not "and Sal"), nor a comma ("רונית, תעדכני" is a name called, then what she is asked to do).
_LIST_GAP_RE = re.compile(r"[ \t]+(?:و|ו|और|एवं|اور|และ|آو)[ \t]+")
_NEXT_CASELESS_RE = re.compile(f"[ \t]+([{_CASELESS}]+)")
# Hebrew, the Arabic script, the Indic scripts and Thai
_OWN_SCRIPT_NAME_RE = re.compile("[\u0590-\u06ff\u0750-\u077f\u0900-\u0dff\u0e00-\u0e7f]")


def _own_script_names(text: str) -> list[tuple[int, int]]:
    """Names in a sentence written in their own caseless script (Arabic, Hebrew, Hindi, Persian, Urdu, Thai …), which
    no capital marks. A given name of the lists that is no word of the language is a name wherever it stands
    ("שאלתי את מיכל", "كلمت حمودي"); one that is a word too ("كريم", "दीपक") only with a cue: after a verb of speech
    ("قالت فاطمة"), before the agent's ने, beside an honorific ("विजय भाई", "أستاذ مصطفى") or after thanks or a greeting
    ("धन्यवाद लक्ष्मी"). An honorific makes an unlisted word a name too; a surname of the lists or of the Arabic
    "al-…-i" shape after a name joins it."""
    # (the scripts of the lists' caseless names read here; a word written onto another with a hyphen is a suffix:
    # "%(count)s-ია" is Georgian "is", not the name Ia)
    words = [(m.start(), m.end(), m.group(0)) for m in _CASELESS_WORD_RE.finditer(text)
             if _OWN_SCRIPT_NAME_RE.match(m.group(0)) and text[m.start() - 1 : m.start()] != "-"
             and text[m.end() : m.end() + 1] != "-"]
    stop, calendar = _phrase_stop_words(), _calendar_words()
    said = {m.start(1) for m in _SAID_BEFORE_RE.finditer(text)}
    out = []
    for i, (start, end, word) in enumerate(words):
        before = words[i - 1][2] if i and not text[words[i - 1][1] : start].strip(" \t") else ""
        after = words[i + 1][2] if i + 1 < len(words) and not text[end : words[i + 1][0]].strip(" \t") else ""
        honorific = before in _HONORIFIC_BEFORE or after in _HONORIFIC_AFTER
        # ("يا" calls a group too, "يا شباب": it makes no word a name)
        strong = ((honorific and before != "يا") or start in said or bool(_AGENT_NEXT_RE.match(text, end))
                  or before in _GREETING_BEFORE or (_SCRIPT_OF_WORD_NAMES_RE.match(word) is not None
                                                    and bool(after) and _listed(after, surnames())))
        if _own_script_name(word, strong=strong):
            out.append((start, end))
        elif honorific and before != "يا" and word not in stop and word not in _COURTESY and word not in calendar and (
                word not in _HONORIFIC_BEFORE and word not in _HONORIFIC_AFTER):
            out.append((start, end))
    # a word joined to a name by "and" is one too ("طارق وهبة ومنى", "रोहन और सिमरन ने"), unless it is prose (a stop,
    # courtesy or calendar word)
    # (one sweep each way carries a chain "A و B و C" from either end: linear in the text, whatever it holds)
    found = {a for a, _ in out}
    for order, step in ((range(len(words)), -2), (range(len(words) - 1, -1, -1), 2)):
        for i in order:
            start, end, word = words[i]
            j = i + step
            if start in found or not 0 <= j < len(words) or words[j][0] not in found or (
                    word in stop or word in _COURTESY or word in calendar or word in _AND):
                continue
            if _LIST_GAP_RE.fullmatch(text[min(end, words[j][1]) : max(start, words[j][0])]):
                out.append((start, end))
                found.add(start)
    grown = []
    for start, end in sorted(out):
        n = _NISBA_AFTER_RE.match(text, end) or _NEXT_CASELESS_RE.match(text, end)
        if n and (n.re is _NISBA_AFTER_RE or _listed(n.group(1), surnames())):
            end = n.end(1)
        grown.append((start, end))
    return grown



def _latin_share(text: str) -> float:
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return 0.0
    return sum(1 for c in letters if c < "\u0250") / len(letters)


_LATIN_WORD_RE = re.compile(r"(?<![^\W\d_])[A-Za-z\u00c0-\u024f]{2,}(?![^\W\d_])")
_CASELESS_WORD_RE = re.compile(f"[{_CASELESS}]+")


def _latin_by_words(text: str) -> bool:
    latin = len(_LATIN_WORD_RE.findall(text))
    return latin >= 3 and latin > len(_CASELESS_WORD_RE.findall(text))


# a word holding a letter of a script other than Latin (digits, marks and punctuation aside)
_OTHER_SCRIPT_WORD_RE = re.compile(r"[^\W\d_]*[^\W\d_\u0000-\u024f\u1e00-\u1eff][^\W\d_]*")
_HIRAGANA_RE = re.compile("[\u3040-\u309f]")


def _an_island(text: str) -> bool:
    """Is the text Latin prose with a short island of another script (at most three words, fewer than the Latin
    ones: "cc @Светлана on the rollback plan", "Thanks, ყვარყვარე — merged.")? Such an island is a name far more often
    than prose. Japanese is never an island: it is written with hiragana around its katakana and kanji words."""
    latin = len(_LATIN_WORD_RE.findall(text))
    other = len(_OTHER_SCRIPT_WORD_RE.findall(text))
    return 2 <= latin and 0 < other <= 3 and other < latin and not _HIRAGANA_RE.search(text)


# a person cue in the Latin text right before a run of another script: "Reviewed by: ইমরান হোসেন", "@יעל", "ping
# ശ്രീജിത്ത്", "Owner: ترانه رضایی", "pairing with ソフィア"
_SCRIPT_NAME_CUE_RE = re.compile(
    r"(?:@|\b(?:by|with|cc|ping|pinged|thanks|thank[ \t]+you|thx|ask|asked|tell|told|hi|hey|hello|dear|"
    r"owner|reviewer|assignee|author|on[ \t-]?call|contact)\b[ \t]*[:,]?[ \t]*)\Z", re.IGNORECASE)
# one capitalised word of a cased script (not an acronym: "ГОСТ"), or a katakana name (its parts joined by "・")
_CASED_ONE_RE = re.compile(f"(?<![\\w])({_CASED_WORD})(?![\\w])")
# a whole word in Han, or in kana, between spaces or punctuation
_HAN_WORD_RE = re.compile(f"(?<![\\w])[{_HAN}]+(?![\\w])")
_KANA_WORD_RE = re.compile("(?<![\\w])[\u3041-\u3096\u30a1-\u30fa\u30fc]{2,8}(?![\\w])")
_JA_COURTESY = frozenset("ありがとう ありがとうございます よろしく よろしくお願いします おつかれさま おつかれ おはよう "
                         "こんにちは すみません ごめん ごめんなさい はい いいえ サンキュー".split())
_KATAKANA_NAME_RE = re.compile("(?<![\u30a0-\u30ff])[\u30a1-\u30fa][\u30a0-\u30ff]+(?:[・･][\u30a1-\u30ff]+)*")


def _han_name(run: str, *, cued: bool = True) -> int:
    """Length of a surname-led name at the start of a Han run (0 when it does not start with a surname). Without a
    cue (``cued=False``) a one-character surname must be followed by given-name characters only."""
    if run[:2] in _HAN_COMPOUND_SURNAMES:
        return min(len(run), 4) if len(run) >= 3 else 0
    if run[:3] in _JA_SURNAMES or run[:2] in _JA_SURNAMES:
        return min(len(run), 4)
    if run[0] in _HAN_SURNAMES and len(run) >= 2:
        if cued:
            return min(len(run), 3)
        given = 0
        while given < 2 and 1 + given < len(run) and run[1 + given] in _HAN_GIVEN:
            given += 1
        return 1 + given if given else 0
    return 0


class ScriptNameRecognizer(EntityRecognizer):
    """PERSON in scripts the English NER cannot read.

    * Han (Chinese, Japanese kanji): a short run (2-4 characters) embedded in other text that starts with one of the
      common surnames (the surnames are a small closed class); after an introduction (``我叫``, ``名字是``) the
      surname and one or two given-name characters; a name before a title (``王先生``, ``田中さん``).
    * Hangul: a 2-4 syllable word starting with a Korean surname, in text that is mostly Latin, or before
      ``씨``/``님``.
    * Cyrillic, Greek, Armenian (scripts with case): two or three capitalised words in a row.
    * Arabic, Hebrew, Indic, Thai, Lao, Khmer, Burmese, Tibetan, Georgian, Ethiopic: a run of 1-3 words in a text
      that is mostly Latin script (code aside: :func:`_prose`) — in English text a short run of another script is a
      name (or a place, a greeting) more often than prose — read word by word (:func:`_run_names`): a phrase with
      its stop, courtesy or calendar words is none, an honorific or a listed name picks the name out of it.
    * An island of another script in English (:func:`_an_island`), or a word of it after a person cue: a capitalised
      Cyrillic, Greek or Armenian word, a kana word, a surname-led Han word.
    * Inside Arabic and Hebrew sentences: a given name of the native-script lists with a surname, or called to
      (:func:`_semitic_names`).
    * In a text of Hebrew, the Arabic script, an Indic script or Thai: a given name of the lists that is no word of the
      language anywhere, one that is a word too beside a cue (a verb of speech, ने, an honorific, thanks), an unlisted
      word beside an honorific, and a word joined to a name by "and" (:func:`_own_script_names`).
    """

    def __init__(self, supported_language: str = "en"):
        super().__init__(supported_entities=["PERSON"], name="RecMemScriptNames",
                         supported_language=supported_language)

    def load(self) -> None:
        # the word lists a phrase of another script is read with, before the process takes work
        _script_stop_words(), _phrase_stop_words(), _calendar_words(), _caseless_given()

    def analyze(self, text: str, entities: list[str], nlp_artifacts=None) -> list[RecognizerResult]:
        if all(c < "\u0370" for c in text):  # Latin only: nothing to do (the common case, kept cheap)
            return []
        out = []
        # mostly Latin by letters, or by words in a short sentence ("محمد العتيبي sent the contract": a name of six
        # letters outweighs three short English words by letters, not by words)
        prose = _prose(text)
        latin = _latin_share(prose) >= 0.6 or _latin_by_words(prose)
        for m in _HAN_RUN_RE.finditer(text):
            run = m.group(0)
            n = _han_name(run, cued=False)
            if n and len(run) <= 4:
                out.append(_result(self, "PERSON", m.start(), m.start() + n, 0.86))
        for m in _ZH_CUE_RE.finditer(text):
            run = _HAN_RUN_RE.match(text, m.end())
            n = _han_name(run.group(0)) if run else 0
            if n:
                out.append(_result(self, "PERSON", m.end(), m.end() + n, 0.9))
        for m in _ZH_TITLE_RE.finditer(text):
            # the name is the end of the Han run before the title: a surname alone ("王先生"), or with one or two
            # given-name characters ("请联系李伟先生"), or a compound surname
            tail = text[max(0, m.start(1) - 2) : m.end(1)]
            for k in (4, 3, 2, 1):
                cand = tail[-k:]
                if len(cand) != k or not all("\u3400" <= c <= "\ufaff" for c in cand):
                    continue
                if cand[:2] in _HAN_COMPOUND_SURNAMES or (k < 4 and cand[0] in _HAN_SURNAMES and (
                        k == 1 or all(c in _HAN_GIVEN for c in cand[1:]))):
                    out.append(_result(self, "PERSON", m.end(1) - k, m.end(), 0.9))
                    break
        for m in _JA_TITLE_RE.finditer(text):
            name = m.group(1)
            if text[m.start(1) - 1 : m.start(1)] in ("お", "ご", "御") or any(
                    name.endswith(w) and (len(name) == len(w) or len(w) >= 2) for w in _JA_TITLED_NOUNS):
                continue  # お客様, ご苦労様, 皆さん: a noun with an honorific
            out.append(_result(self, "PERSON", m.start(1), m.end(1), 0.85))
        for m in _JA_KANA_TITLE_RE.finditer(text):
            if not m.group(1).startswith(_JA_KANA_NOT_NAMES):
                out.append(_result(self, "PERSON", m.start(1), m.end(1), 0.85))
        for m in _JA_INTRO_RE.finditer(text):
            g = 1 if m.group(1) else 2
            # "名前は必須です" (the name is required) is no introduction: after 名前は, a surname or a katakana name
            if g == 2 and not (_han_name(m.group(2)) or all("\u30a0" <= c <= "\u30ff" for c in m.group(2))):
                continue
            out.append(_result(self, "PERSON", m.start(g), m.end(g), 0.88))
        for m in _KO_INTRO_RE.finditer(text):
            if m.group(1)[0] in _KO_SURNAMES:  # "저는 학생입니다" (I am a student) is no name
                out.append(_result(self, "PERSON", m.start(1), m.end(1), 0.9))
        for m in _HANGUL_WORD_RE.finditer(text):
            # no cue: the common shape only (surname + two syllables; "안녕" hello and "감사" thanks are two)
            if m.group(0)[0] in _KO_SURNAMES and latin and len(m.group(0)) == 3:
                out.append(_result(self, "PERSON", m.start(), m.end(), 0.8))
        for m in _KO_TITLE_RE.finditer(text):
            name = m.group(1)
            # a surname first, or in English a given name of two syllables alone ("수진님, can you check …")
            if (name[0] in _KO_SURNAMES or (latin and len(name) == 2)) and not any(
                    name.endswith(w) for w in _KO_TITLED_NOUNS) and not (
                    name.endswith("장") and len(name) <= 3 and m.group(0).endswith("님")):
                out.append(_result(self, "PERSON", m.start(1), m.end(1), 0.9))
        for m in _CASED_NAME_RE.finditer(text):
            words = m.group(1).split()
            if all(w[0].isupper() and not w.isupper() for w in words):
                out.append(_result(self, "PERSON", m.start(1), m.end(1), 0.86))
        if _SEMITIC_WORD_RE.search(text):
            out += [_result(self, "PERSON", a, b, 0.85) for a, b in _semitic_names(text)]
        if not latin and _CASELESS_WORD_RE.search(text):
            out += [_result(self, "PERSON", a, b, 0.8) for a, b in _own_script_names(text)]
        for m in _GEORGIAN_NAME_RE.finditer(text):
            out.append(_result(self, "PERSON", m.start(1), m.end(1), 0.86))
        island = _an_island(prose)

        def cued(start: int, end: int) -> bool:
            return bool(_SCRIPT_NAME_CUE_RE.search(text, max(0, start - 24), start)) or acts_as_a_person(
                text, start, end)

        for m in _CASELESS_RUN_RE.finditer(text):
            run = m.group(0)
            if cued(m.start(), m.end()):
                if not _ordinary_caseless(run):
                    out.append(_result(self, "PERSON", m.start(), m.end(), 0.6))
            elif latin or island:
                out += [_result(self, "PERSON", m.start() + a, m.start() + b, 0.6)
                        for a, b in _run_names(run, listed_script=bool(_LISTED_SCRIPT_RE.match(run)))]
        # alone, only the text's one word of another script ("Ошибка подключения" is a quoted message)
        lone_word = island and len(_OTHER_SCRIPT_WORD_RE.findall(text)) == 1
        for m in _CASED_ONE_RE.finditer(text):
            word = m.group(1)
            if word[0].isupper() and not word.isupper() and (lone_word or cued(m.start(1), m.end(1))):
                out.append(_result(self, "PERSON", m.start(1), m.end(1), 0.6))
        if not _HIRAGANA_RE.search(text):
            # with a cue only: a katakana word alone in English is as often a quoted loanword ("ログイン", login)
            for m in _KATAKANA_NAME_RE.finditer(text):
                if cued(m.start(), m.end()):
                    out.append(_result(self, "PERSON", m.start(), m.end(), 0.6))
            # a surname-led Han word standing alone in English: of three characters, the common shape of a name
            # (a word of two is as often a UI label: "Click 文件 then 保存"), or of two to four after a person cue
            # ("Reviewers for this PR: 林美玲, Ana and me", "thanks 王芳")
            for m in _HAN_WORD_RE.finditer(text):
                n = len(m.group(0))
                if 2 <= n <= 4 and _han_name(m.group(0)) == n and (
                        (island and n == 3) or cued(m.start(), m.end())):
                    out.append(_result(self, "PERSON", m.start(), m.end(), 0.8))
        for m in _KANA_WORD_RE.finditer(text):
            # a word in kana alone after a person cue in English ("Thanks ゆうき for the hotfix"), no courtesy
            if _LATIN_WORD_RE.search(text) and cued(m.start(), m.end()) and m.group(0) not in _JA_COURTESY:
                out.append(_result(self, "PERSON", m.start(), m.end(), 0.8))
        return out
