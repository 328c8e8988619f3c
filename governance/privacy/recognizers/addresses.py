"""A street address as one run of parts: the street and what the country writes after it on its line.

The street patterns of :mod:`.names` find a street ("Seefeldstrasse 112", "Viale Monza 140"); the rest of an
address — flat, district, postcode, city — follows it in as many conventions as there are countries ("…, scala B,
20127 Milano", "…, lgh 1102, 411 38 Göteborg", "…, bairro Jardim Paulista, São Paulo - SP, CEP 01415-000"), and
the parts left in clear name the place a person lives. Here each comma-separated part of a clause is read for what
it is — a street, a house number, a unit, a landmark or district, a postcode with or without its place, a place —
and a run of such parts is an address when it has two kinds of evidence: a street with any other part; a weaker
street (words and a number, a number and words) with a unit, a number or a postcode; a unit with a postcode or a
place. Words and a number alone ("Python 3, Django 5") or a postcode-shaped number with a capitalised word ("8080
Kafka") are never one. Written from the conventions of the countries (postal formats, street-type words in their
languages), checked on a set of 80 addresses of 25 countries of which half was read.
"""

from __future__ import annotations

import functools
import re

from ..vocabulary import all_tech, given_names, is_name_term, is_plain_word, name_shape

# A street-type word in the languages of the addresses (the type alone makes a part a street: "вул. Хрещатик",
# "R. das Flores", "Rehov Dizengoff 150"); abbreviations with their dot. Looked up word by word: one regular
# expression over every part of every text was a tenth of the masking time.
_TYPE_WORD_SET = frozenset("""rua r. av. avda. avenida alameda al. travessa tv. estrada rodovia calle c/ cl. carrera
cra. kr. diagonal transversal paseo pº camino ronda bv. blvd. bulevar rue chemin ch. allée impasse quai place cours via
viale v.le piazza p.za vicolo corso largo strada ulica ul. aleja osiedle os. náměstí nám. třída ulice utca út körút tér
str. bulevardul bd. sokak sok. cadde caddesi cad. bulvar bulvarı mah. mahallesi odos οδός rehov rechov jalan jl. lorong
lrg. soi thanon đường phố marg carrer vul. vulytsia ulitsa prosp. prospekt naberezhnaya pereulok вул. вулиця ул.
улица просп. проспект пр-т пер. переулок провулок бульвар б-р шосе шоссе רחוב רח' שדרות شارع طريق""".split())
# English types name products too ("Google Drive", "Azure Boards"): a street only with its house number
_EN_TYPE_SET = frozenset("""street st road rd avenue ave lane ln drive dr boulevard blvd crescent cres close court ct
place pl terrace tce parade pde highway hwy way grove gardens mews row square sq""".split())
# a street word with its type as a suffix ("Storgatan", "Nørregade", "Seefeldstrasse", "Teheran-ro"), or the type
# as a word of its own after the name ("Thereses gate 14")
_TYPE_SUFFIXES = tuple("""strasse straße gasse weg platz allee ring damm ufer gatan gata gate vägen veien vegen vej
gade katu kuja tie straat laan plein gracht kade singel utca -ro -gil -dong -daero""".split())
_TYPE_ALONE = frozenset("gate gata vei vej".split())


def _type_word(w: str) -> bool:
    return w.casefold() in _TYPE_WORD_SET


def _en_type_word(w: str) -> bool:
    return w.casefold().rstrip(".") in _EN_TYPE_SET


def _suffix_typed(w: str) -> bool:
    low = w.casefold().rstrip(".")
    return low in _TYPE_ALONE or (len(low) > 4 and w[0].isalpha() and not w[0].islower()
                                  and low.endswith(_TYPE_SUFFIXES))


def _starts_typed(part: str) -> bool:
    words = part.split(None, 1)
    return bool(words) and _type_word(words[0])


# postcodes as countries write them (digits, "00-514", "105 63", "530-0001", "01415-000", UK, Canada, Ireland,
# the Netherlands, a country letter before the code)
_POSTCODE = (
    r"(?:\d{5}-\d{3}|\d{3}-\d{4}|\d{2}-\d{3}|\d{3}[ \u00a0]\d{2}|\d{4,6}|[A-Z]{1,2}\d[A-Z\d]?[ ]?\d[A-Z]{2}"
    r"|[A-Z]\d[A-Z][ ]?\d[A-Z]\d|[A-Z]\d{2}[ ]?[A-Z\d]{4}|\d{4}[ ]?[A-Z]{2}|[A-Z]{1,2}-\d{4,5})"
)
_POSTCODE_CUE = r"(?:(?i:CEP|C\.P\.|CP|PIN|PLZ|ZIP|Post ?code|Eircode|PIN ?code)[:.]?[ ]*|〒[ ]*)"
_POSTCODE_RE = re.compile(r"(?<![\d\w-])" + _POSTCODE_CUE + r"?" + _POSTCODE + r"\b")
_CUED_POSTCODE_RE = re.compile(_POSTCODE_CUE + _POSTCODE + r"\b")
# a house number: "22", "12B", "84/92", "nº 123", "No: 118", "# 12-34", "s/n"
_NUMBER = (r"(?:(?i:n[º°o]\.?|no\.?:?|nr\.?|#|д\.|дом|буд\.)[ ]*)?(?:[A-Z]-?)?\d{1,5}[A-Za-z]?"
           r"(?:[/-]\d{1,4}[A-Za-z]?)*")
_NUMBER_RE = re.compile(_NUMBER + r"|(?i:s/n)")
# a unit: flat, floor, staircase, door, room, building, plot (its label in many languages, then a short value)
_UNIT_RE = re.compile(
    r"(?:(?i:apt|apto|apartment|appartement|app|appt|flat|unit|suite|ste|room|rm|piso|planta|puerta|pta|esc|"
    r"escalera|scala|sc|int|interno|lgh|lägenhet|m|kv|кв|квартира|корп|корпус|д|daire|kat|blok|bloco|bl|"
    r"torre|tower|building|bldg|bâtiment|bât|bat|étage|etage|floor|fl|dpto|depto|departamento|casa|lote|"
    r"manzana|mz|lt|plot|house|h\.? ?no|door|dirah|bte|bus|דירה|office|shop|stg|stiege|top|whg|wohnung|号室|室)\.?:?"
    r"[ ]*(?:no\.?[ ]*)?(?:(?=[\w/-]*\d)[\w/-]{1,6}|[A-Z]|[IVX]{1,4})(?:[ ](?:[A-Z]|\d{1,3}))?\.?"
    r"|\d{1,2}[ ]?[ºª°oa]\.?(?:[ ]*(?i:izquierda|derecha|izda|izq|dcha|dcho|dta|dto|esq|frente|centro)\.?|[ ][A-Z])?"
    r"|\d{1,2}(?:st|nd|rd|th|e|er|ème)[ ](?i:floor|étage|etage)|\d{1,2}(?:ος|ο|ης)[ ](?:όροφος|ορόφου)"
    r"|\d{1,2}(?:r|n|er|t|º|ª|o)[ ]\d{1,2}(?:a|ª|º|o)"
    r"|(?i:blk|block|lot|bldg)[ ]?\d{1,5}[A-Z]?(?:[ ](?i:blk|block|lot)[ ]?\d{1,5}[A-Z]?)?)"
)
# a district or a landmark named as part of the address ("near Shiv Mandir", "bairro Jardim Paulista", "Col.
# Roma Norte", "Cadastral Zone B06")
_AREA_RE = re.compile(
    r"(?i:near|opp\.?|opposite|behind|beside|next to|bairro|barrio|col\.|colonia|mah\.|mahalle|sector|sec\.|"
    r"zone|phase|block|blk|stage|layout|nagar|district|quartier|ortsteil|brgy\.?|barangay)\b[ ]*\S.*"
    r"|.*\b(?i:nagar|layout|colony|sector[ ]\S+|zone[ ]\S+|phase[ ]\S+|block[ ]\S+|estate|residency|enclave|"
    r"society|barangay)\b.*"
)
_PARTICLES = frozenset("de des du la le les del della di da do dos das d' l' van von der den ter am an im upon on "
                       "sur sous en y i e und et".split())
_REGION_RE = re.compile(r"[A-Z]{2,3}")


def _place_word(w: str) -> bool:
    """Capitalised, or of a caseless script (Han, Thai, Arabic, Hebrew …); not a number."""
    w = w.strip("()")
    return bool(w) and w[0].isalpha() and not w[0].islower()


def _is_place(part: str) -> bool:
    """One to four place words (particles between, a region code after a dash: "São Paulo - SP")."""
    words = [w for w in part.replace(" - ", " ").split() if w]
    if not 1 <= len(words) <= 5:
        return False
    named = 0
    for w in words:
        if w.lower() in _PARTICLES:
            continue
        if not _place_word(w):
            return False
        named += 1
    return named >= 1


def _is_postal(part: str) -> bool:
    """A postcode alone, after its cue, or with the place before or after it ("8008 Zürich", "Tel Aviv 6346214",
    "Toowong QLD 4066", "Haryana 121007", "CEP 01415-000")."""
    m = _POSTCODE_RE.search(part)
    if m is None:
        m = re.search(r"\d{7}\b", part)  # Israel writes seven digits, after the place only
        if m is None or m.start() == 0:
            return False
    before, after = part[:m.start()].strip(" ,-"), part[m.end():].strip(" ,-")
    if before and after:
        return False
    rest = before or after
    if not rest:
        return bool(_CUED_POSTCODE_RE.fullmatch(part.strip())) or bool(re.fullmatch(r"\d{5,6}|\d{2}-\d{3}|"
                                                                                      r"\d{5}-\d{3}|\d{3}-\d{4}",
                                                                                      part.strip()))
    words = rest.split()
    if words and _REGION_RE.fullmatch(words[-1]) and len(words) > 1:
        words = words[:-1]
    return _is_place(" ".join(words))


def _is_number(part: str) -> bool:
    return bool(_NUMBER_RE.fullmatch(part)) and not _YEAR_RE.fullmatch(part)


# a date is no street: "19 June, 2022", "on April 20, 2022"
_YEAR_RE = re.compile(r"(?:19|20)\d\d")
_CALENDAR = frozenset("""january february march april may june july august september october november december jan feb
mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu
thur thurs fri sat sun januar februar märz mai juni juli oktober dezember janvier février mars avril juin juillet août
septembre octobre novembre décembre enero febrero marzo abril mayo junio julio agosto septiembre setiembre octubre
noviembre diciembre gennaio febbraio aprile maggio giugno luglio settembre ottobre dicembre janeiro fevereiro março
maio junho julho setembro outubro novembro dezembro""".split())


def _is_unit(part: str) -> bool:
    return bool(_UNIT_RE.fullmatch(part))


def _is_area(part: str) -> bool:
    return bool(_AREA_RE.fullmatch(part)) and len(part.split()) <= 6


def _is_typed_street(part: str) -> bool:
    """A street named by its type, in any order, with or without its number."""
    words = part.split()
    if not 1 <= len(words) <= 8:
        return False
    typed = any(_type_word(w) or _suffix_typed(w) for w in words) or (
        any(_en_type_word(w) for w in words) and any(c.isdigit() for c in part))
    return typed and any(_place_word(w) or w[0].isdigit() for w in words)


def _is_weak_street(part: str) -> bool:
    """Words and a house number, or a number and words ("Ερμού 45", "3-14-2 Jingumae", "15 Teheran-ro 7-gil",
    "7 Banksia Cres"): a street only with a second kind of evidence."""
    words = part.split()
    if len(words) > 2 and re.fullmatch(r"(?i:no\.?|n[º°]\.?|#)", words[0]):
        words = words[1:]
    if not 2 <= len(words) <= 6:
        return False
    # a product and its version ("Node 18", "Postgres 16") is no street, nor a date ("19 June", "on April 20")
    named = [w for w in words if not _NUMBER_RE.fullmatch(w)]
    if all_tech(" ".join(named)) or any(w.strip(".,").lower() in _CALENDAR for w in named):
        return False
    if _NUMBER_RE.fullmatch(words[-1]) and any(_place_word(w) for w in words[:-1]):
        return all(_place_word(w) or w.lower() in _PARTICLES or _NUMBER_RE.fullmatch(w) for w in words[:-1])
    if _NUMBER_RE.fullmatch(words[0]):
        return all(_place_word(w) or w.lower() in _PARTICLES or _NUMBER_RE.fullmatch(w) for w in words[1:]) \
            and any(_place_word(w) for w in words[1:])
    return False


_RURAL_RE = re.compile(r"(?i:RR|HC|R\.R\.|rural route|P\.?[ ]?O\.?[ ]?Box|Postfach|Apartado|Caixa Postal)[ ]\d{1,5}"
                       r"(?:[ ](?i:box)[ ]\d{1,5})?")


def _is_numbered_street(part: str) -> bool:
    return (_is_typed_street(part) and any(c.isdigit() for c in part)) or _starts_typed(part) \
        or bool(_RURAL_RE.fullmatch(part))


# what a part is, the first test that holds (a typed street with its number before a unit, a postcode before the
# weaker shapes, a place last)
_KINDS = (("street", _is_numbered_street), ("unit", _is_unit), ("postal", _is_postal), ("weak", _is_weak_street),
          ("number", _is_number), ("area", _is_area), ("street", _is_typed_street), ("place", _is_place))


@functools.lru_cache(maxsize=8192)
def _kind(part: str) -> str:
    # (cached: a run's first part is read again from each of its words, and a text's parts recur in a batch)
    return next((kind for kind, test in _KINDS if part and test(part)), "")


def _is_address(kinds: list[str], strong: bool) -> bool:
    if len(kinds) < 2:
        return False
    have = set(kinds)
    if strong or "street" in have:
        return True
    if "weak" in have and have & {"postal", "unit", "number", "area"}:
        return True
    if "area" in have and have & {"postal", "number", "unit"}:
        return True
    if "number" in have and "postal" in have and len(kinds) >= 3:  # "B-12/3, Lajpat Nagar II, New Delhi 110024"
        return True
    return "unit" in have and bool(have & {"postal", "place"})


# A stop ends a clause unless it ends an abbreviation: one letter, a word without a vowel ("Brgy.", "Blk.",
# "Str."), or a short word of addresses and titles ("Avda.", "Col.", "Mah.", "No.", "Mag.").
_ABBREVIATIONS = frozenset("av avda ave col mah cad sok apt no nr st ste bv blvd jl cra dr mag prof sr sra srta mr mrs "
                           "ms mme mlle dott ing ul al os pl bd vul kv prosp str rd tel fax mob approx ca".split())
_STOP_RE = re.compile(r"(?<=[^\W\d_])\.(?=[ \t]+\S)|(?<=[\d)])\.(?=[ \t]+\S)|[!?](?=[ \t]|$)|\.$|\.(?=[ \t]*$)")
# (the normalisation writes a dash as "-"; " - SP" is Brazil's state after its city, and a dash before the
# neighbourhood of a Brazilian address goes on to it: "apto 93 - Consolação, São Paulo - SP, 01304-001")
_CLAUSE_END_RE = re.compile(r"\n|;|[ \t][—–-][ \t](?![A-Z]{2,3}\b(?![ \t]*\w))"
                            r"(?![^\n;:|]{1,60}[ \t][—–-][ \t][A-Z]{2}\b)|"
                            # (a Turkish address labels its number, flat and floor: "No: 217 D: 9", "Kat: 3")
                            r"(?<!\bNo)(?<!\bD)(?<!\bKat)(?<!\bDaire)(?<!\bBlok):[ \t]|[()\[\]]|\|")
_VOWELS = set("aeiouàáâãäåæèéêëìíîïòóôõöøùúûüýœαεηιουωаеёиоуыэюяіїє")


def _clause_ends(text: str) -> list[tuple[int, int]]:
    ends = [(m.start(), m.end()) for m in _CLAUSE_END_RE.finditer(text)]
    for m in _STOP_RE.finditer(text):
        word = re.search(r"(\w+)$", text[:m.start()])
        w = word.group(1).lower() if word else ""
        if m.group(0) == "." and w and not w.isdigit() and (
                len(w) == 1 or w in _ABBREVIATIONS or _type_word(w + ".") or _UNIT_RE.fullmatch(w + ". 1")
                or (w.isalpha() and not any(c in _VOWELS for c in w))):
            continue
        ends.append((m.start(), m.end()))
    return sorted(ends)


_PART_SPLIT_RE = re.compile(r",[ \t]*|，|、|[ \t][—–-][ \t]")  # (a dash no clause ends at parts a Brazilian address)


def address_runs(text: str, streets: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Spans of address runs in ``text``; ``streets`` are the spans the street patterns found (strong evidence)."""
    if ("," not in text and "，" not in text and "、" not in text) or not any(c.isdigit() for c in text):
        return []  # (every run has a comma between its parts and a number: see _runs)
    out = []
    pos = 0
    for start, end in [*_clause_ends(text), (len(text), len(text))]:
        if start > pos:
            out.extend(_runs(text, pos, start, streets))
        pos = max(pos, end)
    return out


def _lead(part: str) -> tuple[int, str]:
    """Where the address begins in a run's first part, and its kind: at a house number, a street-type word or a
    unit's label, or at the place words that lead to the number ("I'm at 7 Banksia Cres", "indirizzo di Luca è
    Viale Monza 140", "на вул. Хрещатик", "Courier address: H.No. 245")."""
    # Address words all the way to the part's end: "12 bis rue des Lilas", "Mariahilfer Straße 88", "Ερμού 45";
    # not "678 y mi dirección es Calle Mayor 45" (a phone number's last group before the sentence that gives the
    # address). Only the part's tail of address words is tried, left to right.
    words = [(m.start(), m.group(0)) for m in re.finditer(r"\S+", part)]
    first = len(words)
    while first > 0 and _address_word(words[first - 1][1]):
        first -= 1
    for off, word in words[first:]:
        rest = part[off:]
        if not (word[0].isdigit() or _type_word(word) or _place_word(word) or _UNIT_RE.match(rest)
                or _RURAL_RE.match(rest)):
            continue
        k = _kind(rest)
        if k in ("street", "weak", "unit", "number"):
            return off, k
    kind = _kind(part)
    return (0, kind) if kind in ("street", "weak", "unit", "number") else (-1, "")


# what is written around a house number ("12 bis", "nº 8", "# 1 Sur-100", "155 bte 3")
_NUMBER_WORDS = frozenset("bis ter quater # no no. nº n° nr nr. bte bus s/n".split())


def _address_word(w: str) -> bool:
    low = w.casefold()
    return bool(_place_word(w) or low in _PARTICLES or low in _NUMBER_WORDS or _NUMBER_RE.fullmatch(w)
                or _type_word(w) or _en_type_word(w) or _suffix_typed(w) or _UNIT_RE.fullmatch(w + " 1")
                or (any(c.isdigit() for c in w) and re.fullmatch(r"[\w/-]{1,6}", w)))


def _tail(part: str) -> int:
    """How much of a run's last part is address: the longest prefix that is a postcode, a unit, a place …
    ("Toowong QLD 4066 now drop the esky off")."""
    ends = [m.end() for m in re.finditer(r"\S+", part)]
    for end in reversed(ends):
        if _kind(part[:end].rstrip(".")) in ("postal", "unit", "number", "area"):
            return len(part[:end].rstrip("."))
    return 0


def _runs(text: str, start: int, end: int, streets: list[tuple[int, int]]) -> list[tuple[int, int]]:
    clause = text[start:end]
    # every address written in parts has a number: a house, a flat, a postcode (and prose rarely has both)
    if ("," not in clause and "，" not in clause and "、" not in clause) or not any(c.isdigit() for c in clause):
        return []
    parts = []
    p = 0
    for sep in [*_PART_SPLIT_RE.finditer(clause), None]:
        q = sep.start() if sep is not None else len(clause)
        raw = clause[p:q]
        lead = len(raw) - len(raw.lstrip())
        parts.append((start + p + lead, start + p + len(raw.rstrip())))
        p = sep.end() if sep is not None else q
    kinds = [_kind(text[s:e]) for s, e in parts]
    found = []
    i = 0
    while i < len(parts):
        s, e = parts[i]
        off, kind = _lead(text[s:e])
        if kind not in ("street", "weak", "unit", "number"):
            i += 1
            continue
        run, run_kinds = [(s + off, e)], [kind]
        j = i + 1
        while j < len(parts) and kinds[j]:
            run.append(parts[j])
            run_kinds.append(kinds[j])
            j += 1
        if j < len(parts) and not kinds[j]:
            ps, pe = parts[j]
            cut = _tail(text[ps:pe])
            if cut:
                run.append((ps, ps + cut))
                run_kinds.append(_kind(text[ps:ps + cut]))
        strong = any(_overlaps(span, streets) for span in run)
        if _is_address(run_kinds, strong):
            found.append((run[0][0], run[-1][1]))
        i = j
    return found


def _overlaps(span: tuple[int, int], streets: list[tuple[int, int]]) -> bool:
    return any(s < span[1] and span[0] < e for s, e in streets)


# CJK addresses have no commas to read: the administrative units in a row, then numbers with their units and the
# names of the block or building before a number ("東京都新宿区新宿3-14-2 メゾン新宿405号室", "北京市朝阳区建国路88号
# …1203室", "서울특별시 강남구 테헤란로 152"). The normalisation has put spaces between the scripts and the digits.
_CJK = "\u3400-\u9fff\u3040-\u30ff"
_CJK_UNIT = r"(?:号室|号楼|号|號|番地|番|丁目|室|楼|階|F|幢|栋|单元|單元|호|동|층)"
_CJK_ADDRESS_RE = re.compile(
    r"(?:〒[ ]?\d{3}-?\d{4}[ ]?)?"
    r"(?:(?:[" + _CJK + r"]{1,6}?(?:都|道|府|県|省|市|区|區|郡|町|村|县|镇|鎮|乡|路|街|大道|胡同|巷|弄)){2,}"
    r"|(?:[\uac00-\ud7a3]{1,8}(?:특별시|광역시|시|도|구|군)[ ]){1,3}[\uac00-\ud7a3]{1,10}(?:로|길|동|가))"
    r"(?:[ ]?\d+(?:[-－]\d+)*[ ]?" + _CJK_UNIT
    + r"?|(?:[ ]?[" + _CJK + r"\uac00-\ud7a3A-Za-z\-－ー]{1,12}){1,3}?(?=[ ]?\d))+"
)


def cjk_addresses(text: str) -> list[tuple[int, int]]:
    if all(c < "\u1100" for c in text):
        return []
    return [(m.start(), m.end()) for m in _CJK_ADDRESS_RE.finditer(text)]


# the recipient named before an address, after "to" in the languages of the addresses ("Ship to Jessica Park, RR 2
# Box 45 …", "Enviar a Valentina Restrepo, Carrera 43A …"): two to four capitalised words, then the comma
_RECIPIENT_RE = re.compile(
    r"(?:^|(?<![\w])(?i:to|an|à|a|para|per|naar|do|till|til|for|für|pour|attn\.?|c/o|для|к))[ \t]+"
    r"((?:[A-ZÀ-ÞĀ-ſ\u0391-\u03a9\u0410-\u042f][\w'’\-]*[ \t]+){1,3}[A-ZÀ-ÞĀ-ſ\u0391-\u03a9\u0410-\u042f][\w'’\-]*),"
    r"[ \t]*\Z")


def recipients(text: str, runs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The names written right before an address run, after a word of sending it "to" someone."""
    out = []
    for start, _ in runs:
        line = text.rfind("\n", 0, start) + 1
        m = _RECIPIENT_RE.search(text, max(line, start - 80), start)
        if m is None:
            continue
        words = m.group(1).split()
        # a person's given name first ("Earl Jenkins"), not a desk or a department ("Service Desk, 25 rue …")
        if not any(_type_word(w) or w.isupper() or is_plain_word(w) for w in words) \
                and (words[0].casefold() in given_names() or is_name_term(words[0])
                     or (name_shape(words[0]) or 0.0) >= 0.5):
            out.append(m.span(1))
    return out
