"""Technology vocabulary: names of products, services, tools, formats and operating systems, and file names.

An engineering team's memory is about Redis, Kafka, Jenkins, ``postgresql.conf`` and Windows. The small NER model
calls such words people, places or nationalities, and a pseudonym erases the subject of the memory. A name or place
guess whose every word is a term of this vocabulary (or a file name) is therefore dropped unless there is strong
evidence of a person or a place (see :func:`governance.privacy.engine` — an honorific, a relation, an introduction,
or a first word outside the vocabulary: "Mary Jenkins" is a person).

The vocabulary is *built from real data*, never a hand list (:func:`build`; ``manage.py build_tech_vocabulary``):

* the names, classifiers and keywords of the Python distributions installed in the environment;
* the most downloaded PyPI projects (a ``name<TAB>version<TAB>month<TAB>rank<TAB>summary`` list; only ranked
  rows): their names, and the capitalised words their summaries share (``Kafka``, ``Gemini``) — minus the words the
  NER model reads as a person in most summaries that use them ("John");
* the most used npm packages (at least :data:`NPM_MIN_DOWNLOADS` downloads a month) and the NuGet packages of a
  listing: names (scopes and dotted parts too) and the capitalised words their summaries share (``Svelte``,
  ``Storybook``, ``Cosmos``) — what JavaScript and .NET teams talk about;
* every package of the Debian archive (its ``Packages`` index, as apt keeps it: names and the capitalised words of
  the short descriptions: ``Gradle``, ``Sidekiq``, ``Nomad``), and the installed ones of ``/var/lib/dpkg/status``;
* the file extensions of the files those packages and distributions install (``conf``, ``yaml``, ``service``);
* *product catalogues* (:func:`catalogue_names`, ``--catalogue``, repeatable): curated lists of what products,
  services and tools are called, which no package index holds because they ship as binaries, images or SaaS —
  simple-icons' ``data/simple-icons.json`` (CC0: ~3,400 brands and their aliases: ``Statuspage``, ``Dependabot``),
  the CNCF landscape's ``landscape.yml`` (Apache-2.0: ~2,400 cloud-native projects and vendors: ``Kyverno``,
  ``Karpenter``, ``Velero``) and the page names of tldr-pages' ``pages/`` (CC-BY-4.0: ~7,000 command-line tools).
  One entry makes its words terms (a curator named a product, not a person), except a word any list at hand holds
  as a person's or a place's name — Faker's given names and surnames, the word list's proper nouns, the places of
  Faker, libphonenumber and the time-zone database, the languages — so "Hugo", "Julia", "Morgan" and "Phoenix"
  stay names and places whatever product shares them.

A word is a term when at least :data:`MIN_SOURCES` distinct package names or summaries carry it (a single project
named after a person does not make the name a term). A word that names a place more strongly than a technology is
not a term — the weight of a place is how often libphonenumber's geocoding data names it, plus a bonus for a city of
the time-zone database; the language names of Django's locale table and libphonenumber's country names are never
terms — so a city stays masked (the default, see README: a city says where a person is) while
``Jenkins`` (a hamlet and a CI server) is a term.

The same sources give the *common words* (``data/common_words.txt``): words the package descriptions write in lower
case at least :data:`MIN_COMMON_USES` times ("will", "summer", "build"), and the lower-case entries of an English
word list (Debian's ``wamerican``: "staging", "grace"; its capitalised entries, names, are left out). A capitalised
common word is no evidence of a name: the pseudonym registry never re-applies the NER model's guess on one
(:func:`is_common_word`).

The same build writes the *name lexicon* (``data/given_names.txt``, ``data/surnames.txt``): the given names and
surnames of Faker's person providers (lists of real names for ~80 countries and languages), minus the common words,
the terms, the language names ("German") and the strong places ("Berlin": a city of the time-zone database or a
country). :class:`~governance.privacy.recognizers.PersonHeuristicRecognizer` reads it to find the names the small
model misses ("Grzegorz and I are at the booth", "thanks Björn,"). At run time the lexicon also reads the given names
of a dictionary of first names where its package is installed (:func:`dictionary_given_names`), less the names the
build found to be common words of another language (``data/name_dictionary_words.txt``, with wordfreq:
``--dictionary-words-only``).

And the *common words of other languages* (``data/foreign_common_words.txt``, :func:`foreign_common_words_of`; with
wordfreq, ``--foreign-words-only``): per word, the languages the masker can tell a sentence is written in where it is
common and names nobody and nowhere ("Obrigado": Portuguese). In a sentence of that language the NER model's guess
alone on one is no name or place, as on a plain word.

And the *plain words* (``data/plain_words.txt``, :func:`plain_words`; alone with ``--plain-words-only``): the common
words that no list at hand holds as a name or a place — not a proper noun of the word list ("Nice", "Grace"), no
given name, surname or place of Faker ("Baker", "Rose"), no city of the time-zone database or country ("Berlin").
The NER model's guess alone on such a word ("stuck in Pending", "Quay keeps the tags") is no name or place.

And the *name terms* (``data/name_terms.txt``, :func:`name_terms_of`; also with ``--plain-words-only``): the terms
that are given names too ("Ray", "Julia", "Cassandra"). Such a word is a person when the sentence has it act as one
("Ray said …", "ping Crystal", "Luigi and I"), whatever the vocabulary says.

And the *surname words* (``data/surname_words.txt``, :func:`surname_words_of`; also with ``--plain-words-only``): the
surnames of the lists that the lexicon leaves out because they are words too ("Kim", "Park", "Lee", "Page"). Beside a
given name they end a person's name ("Hana Kim", "Sam Park"); alone they are words.

And the *name shape* (``data/name_shape.tsv``, :func:`name_shape_model`; also with ``--plain-words-only``): a
logistic regression over the character n-grams of a word (2 to 4 letters, its start and end marked) fitted to tell
the name lexicon's words (Latin script, and its Cyrillic and Greek names read in Latin letters) from the terms and
plain words. It says how much a word no list holds is
*spelt* like a name: "Oluwaseun", "Tesfaye" and "Mykola" score high, "Promtail", "Runbook" and "Payouts" near zero
(:func:`name_shape`). The engine drops the NER model's guess of a person on one such word only when the score is
very low and the sentence has the word do nothing a person does.

The result is committed (``data/tech_terms.txt``, ``data/file_extensions.txt``, ``data/common_words.txt``, the name
lexicon, the plain words and the name terms) and loaded once per process (:func:`tech_terms`, :func:`file_extensions`,
:func:`common_words`, :func:`given_names`, :func:`surnames`, :func:`plain_word_set`, :func:`name_term_set`).
"""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from core.config import config

from .normalise import normalise

DATA_DIR = Path(__file__).resolve().parent / "data"
TERMS_FILE = DATA_DIR / "tech_terms.txt"
EXTENSIONS_FILE = DATA_DIR / "file_extensions.txt"
COMMON_FILE = DATA_DIR / "common_words.txt"
GIVEN_FILE = DATA_DIR / "given_names.txt"
DICTIONARY_WORDS_FILE = DATA_DIR / "name_dictionary_words.txt"
FOREIGN_WORDS_FILE = DATA_DIR / "foreign_common_words.txt"
SURNAME_FILE = DATA_DIR / "surnames.txt"
PLAIN_FILE = DATA_DIR / "plain_words.txt"
NAME_TERMS_FILE = DATA_DIR / "name_terms.txt"
SURNAME_WORDS_FILE = DATA_DIR / "surname_words.txt"
NAME_SHAPE_FILE = DATA_DIR / "name_shape.tsv"

MIN_SOURCES = 2
MIN_EXTENSION_FILES = 5
TZ_CITY_WEIGHT = 20
MIN_COMMON_USES = 3
NPM_MIN_DOWNLOADS = 100_000  # a month: the ~40,000 packages JavaScript projects actually use
_TOKEN_SPLIT_RE = re.compile(r"[^a-z]+")
_LOWER_WORD_RE = re.compile(r"(?<![\w'’.\-])[a-z]{3,}(?![\w'’\-])")
_SUMMARY_WORD_RE = re.compile(r"(?<![\w.])([A-Z][A-Za-z]{2,}|[A-Z]{2,}[a-z]*|[a-z]+[A-Z][A-Za-z]*)(?![\w])")
# Words in package names that are plumbing, not names of things (kept out so they never veto a name guess)
_NAME_GLUE = frozenset("python py lib libs dev dbg doc docs data common core utils util tools tool bin api sdk "
                       "client server plugin plugins extension extensions ext test tests the and for with".split())


def _name_tokens(name: str) -> set[str]:
    return {t for t in _TOKEN_SPLIT_RE.split(name.lower()) if len(t) >= 3 and t not in _NAME_GLUE}


def _installed_distributions(prose: Counter | None = None) -> tuple[Counter, set[str]]:
    """Per word: how many installed distributions carry it (name, classifiers, keywords); plus file extensions (and,
    into ``prose``, the lower-case words of their descriptions)."""
    import importlib.metadata as md

    counts: Counter = Counter()
    extensions: Counter = Counter()
    for dist in md.distributions():
        meta = dist.metadata
        # our own distributions describe themselves with our README, full of the examples the masker is tested on
        # ("@maria", "maria-db"): reading them would make the vocabulary depend on the documentation
        if (meta.get("Name") or "").lower() in ("recmem", "recmem-client"):
            continue
        if prose is not None:
            description = meta.get_payload() or meta.get("Description") or ""
            prose.update(set(_LOWER_WORD_RE.findall(str(description))))
        words: set[str] = set(_name_tokens(meta.get("Name") or ""))
        for classifier in meta.get_all("Classifier") or []:
            parts = [p.strip() for p in classifier.split("::")]
            if parts and parts[0] in ("Operating System", "Framework", "Environment", "Programming Language",
                                      "Topic"):
                for part in parts[1:]:
                    words |= {w.lower() for w in re.findall(r"[A-Za-z][A-Za-z+#]{2,}", part)}
        for kw in re.split(r"[,\s]+", meta.get("Keywords") or ""):
            if re.fullmatch(r"[A-Za-z][A-Za-z0-9]{2,}", kw):
                words.add(kw.lower())
        counts.update(words)
        for f in dist.files or []:
            suffix = Path(str(f)).suffix.lower().lstrip(".")
            if suffix:
                extensions[suffix] += 1
    return counts, {e for e, n in extensions.items() if n >= MIN_EXTENSION_FILES}


def _pypi_rows(path: Path) -> Iterator[tuple[str, str]]:
    """``(name, summary)`` of the ranked rows of a PyPI list (the most downloaded projects)."""
    with path.open(encoding="utf-8", errors="replace") as fh:
        header = fh.readline().rstrip("\n").split("\t")
        rank_col = next((i for i, h in enumerate(header) if h.startswith("rank")), None)
        for line in fh:
            cols = line.rstrip("\n").split("\t")
            if rank_col is None or len(cols) <= rank_col or not cols[rank_col].strip():
                continue
            yield cols[0], cols[-1] if len(cols) > rank_col + 1 else ""


def _faker_providers(kind: str) -> Iterator[type]:
    """The ``Provider`` class of every locale of one of Faker's provider packages (``person``, ``address``); none
    without Faker (the build still works, without the lists read from it)."""
    import importlib
    import pkgutil

    try:
        package = importlib.import_module(f"faker.providers.{kind}")
    except ImportError:
        return
    for module in pkgutil.iter_modules(package.__path__):
        try:
            yield importlib.import_module(f"{package.__name__}.{module.name}").Provider
        except (ImportError, AttributeError):
            continue


def faker_names() -> tuple[set[str], set[str]]:
    """``(given names, surnames)``, lower case, of Faker's person providers (``pip install faker``): lists of real
    names for ~80 countries and languages (Yusuf, Grzegorz, Aylin, Olena, Björn; Costa, Nowak). Empty without Faker
    (the build still works, without the name lexicon). Every list of a provider counts, in every script it gives:
    ``first_names``, ``middle_names``, the romanised lists and the (kanji, kana, romaji) pairs of Japanese (Kaito,
    Haruto); ``last_names``, ``male_last_names``, ``unisex_last_names``."""
    given: set[str] = set()
    family: set[str] = set()
    for provider in _faker_providers("person"):
        for attr in dir(provider):
            words = set(attr.split("_"))
            if not words & {"name", "names"} or attr.startswith(("_", "language")):
                continue
            into = given if words & {"first", "middle"} else family if "last" in words else None
            value = getattr(provider, attr)
            if into is None or not isinstance(value, (list, tuple, dict, set, frozenset)):
                continue
            entries = [e for item in value for e in ((item,) if isinstance(item, str) else
                                                      item if isinstance(item, tuple) else ())]
            into.update(w.casefold() for entry in entries if isinstance(entry, str)
                        for w in (_as_masking_reads(part) for part in re.split(r"[\s\-]+", entry))
                        if len(w) >= 2 and _a_name_word(w))
    return given, family


_ARABIC_SCRIPT_RE = re.compile("[\u0600-\u06ff\u0750-\u077f]")


def _as_masking_reads(word: str) -> str:
    """``word`` in the form the masking reads text (:func:`~.normalise.normalise`): the zero-width joiners inside
    an Indic name dropped ("अनन्\u200dत"), a nukta letter decomposed ("ज़"), the Armenian "և" as "եւ"."""
    return normalise(word).text


def _a_name_word(word: str) -> bool:
    """Letters, and the vowel signs and viramas an Indic, Thai or Sinhala name is written with ("रोहन", "लक्ष्मी",
    "ณัฐพล"): ``str.isalpha`` refuses those marks, and the lists lost nearly every name of those scripts. Not Arabic
    vowel marks: a name is written without them in chat, and with them the lists' entries are often words
    ("السّلام")."""
    if not word[:1].isalpha():
        return False
    if word.isalpha():
        return True
    return not _ARABIC_SCRIPT_RE.search(word) and all(
        c.isalpha() or unicodedata.category(c) in ("Mn", "Mc") for c in word)


def _npm_rows(path: Path, min_downloads: int = NPM_MIN_DOWNLOADS) -> Iterator[tuple[str, str]]:
    """``(name, summary)`` of the npm packages downloaded at least ``min_downloads`` times a month (name, version,
    downloads a month, summary). A scope is a name too: ``@reduxjs/toolkit`` carries "reduxjs" and "toolkit"."""
    with path.open(encoding="utf-8", errors="replace") as fh:
        fh.readline()
        for line in fh:
            cols = line.rstrip("\n").split("\t")
            if len(cols) >= 3 and cols[2].isdigit() and int(cols[2]) >= min_downloads:
                yield cols[0], re.sub(r"^\[tested here:[^\]]*\]\s*", "", cols[3]) if len(cols) > 3 else ""


def _nuget_rows(path: Path) -> Iterator[tuple[str, str]]:
    """``(name, summary)`` of a NuGet list (name, version, licence, summary [tags], versions); dotted names are read
    by their parts ("Microsoft.Azure.Cosmos")."""
    with path.open(encoding="utf-8", errors="replace") as fh:
        fh.readline()
        for line in fh:
            cols = line.rstrip("\n").split("\t")
            if len(cols) >= 4 and cols[1] not in ("not-served", "all-failed"):
                yield cols[0], re.sub(r"\[[^\]]*\]\s*$", "", cols[3])


def _debian_rows(path: Path) -> Iterator[tuple[str, str]]:
    """``(name, short description)`` of a Debian archive's ``Packages`` index (plain, or compressed with lz4, xz or
    gzip as apt keeps it in /var/lib/apt/lists): every package of the distribution, not only the installed ones."""
    if path.suffix == ".lz4":
        import subprocess

        data = subprocess.run(["lz4cat", str(path)], check=True, capture_output=True).stdout.decode("utf-8", "replace")
    elif path.suffix in (".xz", ".gz"):
        import gzip
        import lzma

        data = (lzma if path.suffix == ".xz" else gzip).open(path, "rt", encoding="utf-8", errors="replace").read()
    else:
        data = path.read_text(encoding="utf-8", errors="replace")
    for block in data.split("\n\n"):
        name = re.search(r"^Package: (\S+)", block, re.M)
        desc = re.search(r"^Description(?:-en)?: (.*)", block, re.M)
        if name:
            yield name.group(1), desc.group(1) if desc else ""


def _listing(rows: Iterable[tuple[str, str]], prose: Counter | None = None) -> tuple[Counter, Counter]:
    """Word counts over ``(name, summary)`` rows of a package index: in names, and capitalised words in summaries
    (and, into ``prose``, the lower-case words of the summaries)."""
    names: Counter = Counter()
    summaries: Counter = Counter()
    texts: list[str] = []
    for name, summary in rows:
        names.update(_name_tokens(name))
        summaries.update({m.group(1).lower() for m in _SUMMARY_WORD_RE.finditer(summary)
                          if m.start() > 0 or len(m.group(1)) > 3})
        if prose is not None:
            prose.update(set(_LOWER_WORD_RE.findall(summary)))
        if summary:
            texts.append(summary)
    # A word the NER reads as a person in most summaries that use it ("a port of John Gruber's Markdown") counts
    # only through the names of projects (two of them are needed: "confluent-kafka", "aiokafka").
    people = _entity_words(texts)
    for word, n in people.items():
        if n * 2 >= summaries[word]:
            summaries[word] = 0
    return names, summaries


_PERSONAL_LABELS = frozenset({"PERSON"})


def _entity_words(texts: list[str]) -> Counter:
    """Per lower-case word: in how many of ``texts`` the NER model tags it as (part of) a person's name."""
    counts: Counter = Counter()
    try:
        import spacy


        nlp = spacy.load(config().privacy.spacy_model, disable=["tagger", "parser", "lemmatizer", "attribute_ruler"])
    except Exception:  # no model: no exclusion (the build still works, with less precision)
        return counts
    for doc in nlp.pipe(texts, batch_size=256):
        words = {w.lower() for ent in doc.ents if ent.label_ in _PERSONAL_LABELS
                 for w in re.findall(r"[A-Za-z]+", ent.text)}
        counts.update(words)
    return counts


def _dpkg(status: Path, info_dir: Path, prose: Counter | None = None) -> tuple[Counter, set[str]]:
    counts: Counter = Counter()
    for block in status.read_text(encoding="utf-8", errors="replace").split("\n\n"):
        m = re.search(r"^Package: (\S+)", block, re.M)
        if m:
            counts.update(_name_tokens(m.group(1)))
        d = re.search(r"^Description: (.*(?:\n .*)*)", block, re.M)
        if d is not None and prose is not None:
            prose.update(set(_LOWER_WORD_RE.findall(d.group(1))))
    extensions: Counter = Counter()
    for listing in info_dir.glob("*.list") if info_dir.is_dir() else []:
        for line in listing.read_text(encoding="utf-8", errors="replace").splitlines():
            name = line.rsplit("/", 1)[-1]
            if "." in name.strip("."):
                extensions[name.rsplit(".", 1)[1].lower()] += 1
    return counts, {e for e, n in extensions.items() if n >= MIN_EXTENSION_FILES}


def _geocoded_english_names() -> list[str]:
    """libphonenumber's geocoding entries in English, one string per number prefix ("Frankfurt am Main", "Boston,
    MA"); empty without the package."""
    try:
        from phonenumbers.geodata import GEOCODE_DATA
    except ImportError:  # pragma: no cover - phonenumbers is a dependency
        return []
    return [by_language.get("en") or "" for by_language in GEOCODE_DATA.values()]


def _time_zone_cities() -> list[str]:
    """The place parts of the time-zone database's zone ids, as written there ("Sao_Paulo", "Jakarta")."""
    import zoneinfo

    return [part for zone in zoneinfo.available_timezones() for part in zone.split("/")[1:]]


def _place_weights() -> Counter:
    """How strongly a single word names a place: the number of libphonenumber geocoding entries that are exactly that
    name (a city appears under many number prefixes, a hamlet under one), plus :data:`TZ_CITY_WEIGHT` for a city of
    the time-zone database."""
    weights: Counter = Counter()
    for value in _geocoded_english_names():
        for part in value.split(","):
            word = part.strip().lower()
            if word.isalpha():
                weights[word] += 1
    for part in _time_zone_cities():
        if part.isalpha():
            weights[part.lower()] += TZ_CITY_WEIGHT
    return weights


def _proper_nouns(word_list: Path | None) -> frozenset[str]:
    """The capitalised entries of an English word list, lower-cased: names of people and places."""
    if word_list is None or not word_list.is_file():
        return frozenset()
    return frozenset(w.lower() for w in word_list.read_text(encoding="utf-8", errors="replace").split()
                     if w[:1].isupper() and w.isalpha())


def _faker_places() -> set[str]:
    """Words of the city, town, region, state and country lists of Faker's address providers, lower case."""
    keys = ("cit", "town", "village", "municipal", "district", "county", "province", "region", "state", "countr",
            "area")
    places: set[str] = set()
    for provider in _faker_providers("address"):
        for attr in dir(provider):
            value = getattr(provider, attr)
            if attr.startswith("_") or not any(k in attr for k in keys) or not isinstance(value, (list, tuple)):
                continue
            places.update(w.casefold() for entry in value if isinstance(entry, str)
                          for w in re.split(r"[\s\-]+", entry) if len(w) >= 3 and w.isalpha())
    return places


def catalogue_names(path: Path) -> Iterator[str]:
    """The product names of a catalogue: simple-icons' JSON (titles and aliases), a landscape YAML (every item's
    ``name``), a directory of tldr pages (``<command>.md`` below it) or a text file of one name per line."""
    if path.is_dir():
        seen: set[str] = set()
        for page in sorted(path.rglob("*.md")):
            if page.stem not in seen:
                seen.add(page.stem)
                yield page.stem
        return
    if path.suffix == ".json":
        import json

        for entry in json.loads(path.read_text(encoding="utf-8")):
            yield entry["title"]
            aliases = entry.get("aliases") or {}
            yield from aliases.get("aka") or []
            yield from (d["title"] for d in aliases.get("dup") or [])
        return
    if path.suffix in (".yml", ".yaml"):
        import yaml  # a dependency of presidio-analyzer and drf-spectacular

        def items(node: object) -> Iterator[str]:
            if isinstance(node, dict):
                if isinstance(node.get("name"), str) and "homepage_url" in node:
                    yield node["name"]
                for value in node.values():
                    yield from items(value)
            elif isinstance(node, list):
                for value in node:
                    yield from items(value)

        yield from items(yaml.safe_load(path.read_text(encoding="utf-8")))
        return
    yield from (line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip())


def plain_words(common: Iterable[str], *, word_list: Path | None,
                read: tuple[frozenset[str], set[str], set[str]] | None = None) -> list[str]:
    """The common words that name nobody and nowhere in any list at hand: not a proper noun of the word list
    ("Nice", "Reading", "Grace"), no given name or surname of Faker's ~80 countries ("Baker", "Rose"), no place of
    Faker's address lists, the time-zone database or libphonenumber ("Bath"). "pending", "quay", "bookworm".
    ``read``: the word list's proper nouns and Faker's given names and surnames, when the caller has them already."""
    proper, given, family = read or (_proper_nouns(word_list), *faker_names())
    named = _names_and_places(proper, given, family, _place_weights())
    return sorted(w for w in common if w not in named)


def _names_and_places(proper: Iterable[str], given: Iterable[str], family: Iterable[str],
                      places: Counter) -> set[str]:
    """Every word some list at hand holds as a person's or a place's name: the word list's proper nouns, Faker's
    given names, surnames and places, and the words ``places`` weighs."""
    return {*proper, *given, *family, *_faker_places(), *(w for w, n in places.items() if n > 0)}


def build(*, pypi_list: Path | None, dpkg_status: Path | None, dpkg_info: Path | None,
          npm_list: Path | None = None, nuget_list: Path | None = None, debian_packages: Path | None = None,
          word_list: Path | None = None, catalogues: Iterable[Path] = ()) -> Vocabulary:
    """The vocabulary and the name lexicon from the sources above (see the module docstring)."""
    sources: dict[str, int] = defaultdict(int)
    prose: Counter = Counter()
    installed, extensions = _installed_distributions(prose)
    for word, n in installed.items():
        sources[word] += n + 1  # an installed distribution's own name or classifier is strong evidence
    # The names of npm, NuGet and Debian packages are full of first names ("johnny-five", "maria-db", "max-age"): a
    # word of them counts unless the word list spells it as a proper noun ("Maria", "John"; not "helm", "siri")
    proper = _proper_nouns(word_list)
    wide: Counter = Counter()  # the evidence of the wide listings (npm, NuGet, the Debian archive) alone
    for path, rows, by_name in ((pypi_list, _pypi_rows, True), (npm_list, _npm_rows, False),
                                (nuget_list, _nuget_rows, False), (debian_packages, _debian_rows, False)):
        if path is None or not path.is_file():
            continue
        names, summaries = _listing(rows(path), prose)
        for word, n in names.items():
            if by_name or word not in proper:
                sources[word] += n
        for word, n in summaries.items():
            sources[word] += n
        if not by_name:
            wide.update({w: n for w, n in names.items() if w not in proper})
            wide.update(summaries)
    if dpkg_status is not None and dpkg_status.is_file():
        counts, dpkg_ext = _dpkg(dpkg_status, dpkg_info or Path("/nonexistent"), prose)
        for word, n in counts.items():
            sources[word] += n
        extensions |= dpkg_ext
    places = _place_weights()
    # languages are nationalities too ("German", "Spanish"): never a term (Django's table of language names)
    from django.conf.locale import LANG_INFO

    languages: set[str] = set()
    for info in LANG_INFO.values():
        for word in re.findall(r"[A-Za-z]+", info.get("name", "")):
            places[word.lower()] += 1000
            languages.add(word.lower())
    # and countries
    for word in _country_words():
        places[word] += 1000
    # a word that names a place more strongly than a technology stays a place ("Berlin", "Paris", "Phoenix")
    # A term only the wide listings make is never a place nor a proper noun of the word list at all ("Edinburgh",
    # "Aurora": a package summary that names a city does not make the city a technology)
    terms = {w for w, n in sources.items() if n >= MIN_SOURCES and w.isalpha() and len(w) >= 3
             and n > places[w] and not (n - wide[w] < MIN_SOURCES and (places[w] > 0 or w in proper))}
    given, family = faker_names()
    # a catalogue's entry is a product's name, but a word some list holds as a person or a place stays one
    # ("Hugo", "Julia", "Morgan", "Phoenix": products too)
    named = _names_and_places(proper, given, family, places)
    for path in catalogues:
        if not path.exists():
            continue
        for name in catalogue_names(path):
            # whole words only ("Café" is no "caf"); the plumbing words of package names are no product
            terms |= {w for w in (t.lower() for t in re.findall(r"[^\W\d_]+", name))
                      if len(w) >= 3 and w.isascii() and w not in _NAME_GLUE and w not in named}
    terms = sorted(terms)
    exts = sorted(e for e in extensions if re.fullmatch(r"[a-z][a-z0-9]{0,9}", e) and not places[e])
    common = {w for w, n in prose.items() if n >= MIN_COMMON_USES}
    if word_list is not None and word_list.is_file():
        # a dictionary's lower-case entries are words of prose ("staging", "grace"); its capitalised ones are names
        common |= {w for w in word_list.read_text(encoding="utf-8", errors="replace").split()
                   if len(w) >= 3 and w.isalpha() and w.islower() and w.isascii()}
    # the name lexicon: real names that are no word of prose ("Will", "Grace") and no term
    # "German", "Danish": given names somewhere, languages here; "Berlin", "Sydney": cities of the time-zone database
    # or countries (the weight of a strong place); a lesser place stays ("Helena": the recognizer skips a word the
    # model reads as a place)
    not_names = set(terms) | common | languages | {w for w, n in places.items() if n >= TZ_CITY_WEIGHT}
    given, family = with_latin_readings(given, not_names), with_latin_readings(family, not_names)
    return Vocabulary(terms=terms, extensions=exts, common=sorted(common), given_names=sorted(given - not_names),
                      surnames=sorted(family - not_names),
                      plain=plain_words(common, word_list=word_list, read=(proper, given, family)),
                      name_terms=name_terms_of(terms, given), surname_words=surname_words_of(not_names, family))


def name_terms_of(terms: Iterable[str], given: Iterable[str] | None = None) -> list[str]:
    """The terms that are given names too ("Ray", "Julia", "Cassandra", "Luigi", "Crystal"): a product in "Ray
    workers run out of memory", a person in "Ray said the GPU nodes are back". The vocabulary alone cannot tell
    them apart; the engine reads what the sentence has the word do (:func:`~.recognizers.names.acts_as_a_person`).
    ``given``: Faker's given names, when the caller has them already."""
    return sorted(set(terms) & set(given if given is not None else faker_names()[0]))


# the letters of a Latin-script name (with its diacritics, an apostrophe or a hyphen: "o'neil", "jean-luc")
_LATIN_NAME_RE = re.compile(r"[a-z\u00df-\u00f6\u00f8-\u024f]+(?:['\-][a-z\u00df-\u00f6\u00f8-\u024f]+)*")


def shape_grams(word: str) -> list[str]:
    """The character n-grams (2 to 4) of ``word``, lower case, its start and end marked ("^ru", "ok$")."""
    w = f"^{word.casefold()}$"
    return [w[i:i + n] for n in (2, 3, 4) for i in range(len(w) - n + 1)]


# Cyrillic and Greek names read in Latin letters, as people write them in English text ("Олександр" → "oleksandr",
# "Παπαδόπουλος" → "papadopoulos"): Faker lists the names of those countries in their own script, and a shape model
# fitted on Latin letters alone would take "Dratchev" or "Giorgos" for no name at all
_TRANSLIT = {**dict(zip("абвгдезийклмнопрстуфыэ", "abvgdeziyklmnoprstufye", strict=True)),
             "ё": "yo", "ж": "zh", "х": "kh", "ц": "ts", "ч": "ch", "ш": "sh", "щ": "shch", "ъ": "", "ь": "",
             "ю": "yu", "я": "ya", "є": "ye", "і": "i", "ї": "yi", "ґ": "g", "ђ": "dj", "ј": "j", "љ": "lj",
             "њ": "nj", "ћ": "c", "џ": "dz",
             **dict(zip("αβγδεζηικλμνξοπρστυφωάέήίόύώϊϋΐΰς", "avgdeziiklmnxoprstyfoaeiioyoiyiys", strict=True)),
             "θ": "th", "χ": "ch", "ψ": "ps"}
_GREEK_DIGRAPHS = (("ου", "ou"), ("ού", "ou"), ("αυ", "av"), ("ευ", "ev"), ("μπ", "b"), ("ντ", "d"), ("γγ", "ng"))


_CYRILLIC_OR_GREEK_RE = re.compile(r"[\u0370-\u03ff\u0400-\u04ff]")
_UKRAINIAN = {"и": "y", "г": "h"}  # Ukrainian's own readings of two letters ("Микола" → "mykola", "Гнат" → "hnat")


def latin_readings(name: str) -> set[str]:
    """A Cyrillic or Greek name in Latin letters (a common romanisation, and Ukrainian's): empty for another
    script."""
    if not _CYRILLIC_OR_GREEK_RE.search(name):
        return set()
    low = name.casefold()
    for digraph, latin in _GREEK_DIGRAPHS:
        low = low.replace(digraph, latin)
    out = {"".join(_TRANSLIT.get(ch, ch) for ch in low),
           "".join(_UKRAINIAN.get(ch) or _TRANSLIT.get(ch, ch) for ch in low)}
    return {w for w in out if _LATIN_NAME_RE.fullmatch(w)}


def with_latin_readings(names: Iterable[str], not_names: Iterable[str] = ()) -> set[str]:
    """``names`` and their Latin readings (:func:`latin_readings`), less ``not_names``. Faker lists Russian, Ukrainian,
    Bulgarian, Serbian and Greek names in their own script, but a team chat writes them in Latin letters ("Ilya
    Sokolov", "Dimitra Papadopoulou", "Giorgos"): without the readings the lexicon knew the Cyrillic "Илья" and not
    "Ilya". A reading that is a term, a word of prose or a strong place stays out, like any name."""
    names = set(names)
    excluded = set(not_names)
    return names | {r for n in names for r in latin_readings(n) if len(r) >= 3 and r not in excluded}


def surname_words_of(not_names: Iterable[str], family: Iterable[str] | None = None) -> list[str]:
    """The surnames of the lists that the lexicon leaves out as words (``not_names``: terms, prose, languages, strong
    places): "kim", "park", "lee", "page". A surname only beside a given name ("Hana Kim", "Sam Park").
    ``family``: Faker's surnames, when the caller has them already."""
    return sorted(set(family if family is not None else faker_names()[1]) & set(not_names))


def lexicon_exclusions() -> set[str]:
    """What the build keeps out of the name lexicon, from the committed files and the installed data alone: the
    terms, the common words, the language names and the strong places (:func:`build`)."""
    from django.conf.locale import LANG_INFO

    languages = {w.lower() for info in LANG_INFO.values() for w in re.findall(r"[A-Za-z]+", info.get("name", ""))}
    strong = {w for w, n in _place_weights().items() if n >= TZ_CITY_WEIGHT}
    return set(tech_terms()) | set(common_words()) | languages | strong | _country_words()


def _english_region_names() -> list[str]:
    """libphonenumber's region names in English ("*aa" points at the "aa" entry)."""
    try:
        from phonenumbers.geodata.locale import LOCALE_DATA
    except ImportError:  # pragma: no cover
        return []
    names = []
    for by_language in LOCALE_DATA.values():
        name = by_language.get("en", "")
        name = by_language.get(name[1:], "") if name.startswith("*") else name
        if name:
            names.append(name)
    return names


def _country_words() -> set[str]:
    """The words of the countries' English names (libphonenumber's region names), four letters or more: "Georgia",
    "Jordan", "Chad" are places before they are names."""
    return {w.lower() for name in _english_region_names() for w in re.findall(r"[A-Za-z]+", name) if len(w) >= 4}


# what a team calls a group of countries it sells in or runs in ("the Benelux storefront", "APAC", "the Nordics")
_COUNTRY_GROUPS = frozenset("""
eu e.u. eea uk u.k. us u.s. usa u.s.a. uae benelux dach nordics scandinavia baltics balkans latam apac emea mena anz
europe asia africa oceania korea czechia türkiye holland britain england scotland wales
""".split()) | {"north america", "south america", "latin america", "central america", "middle east", "southeast asia",
               "south asia", "east asia", "the americas", "great britain", "northern ireland"}


@functools.cache
def country_names() -> frozenset[str]:
    """The countries' English names, lower case (libphonenumber's region names, "Korea" and "Vietnam" as written
    there, with the short forms and the groups of countries a team sells or runs in: "UK", "USA", "Benelux",
    "APAC"). A country is too large a place to say where a person is on its own (HIPAA's Safe Harbor keeps a state)."""
    return frozenset(_COUNTRY_GROUPS | {name.casefold() for name in _english_region_names()})


@functools.cache
def place_names() -> frozenset[str]:
    """Whole names of places, lower case: libphonenumber's geocoded places ("Rotterdam", "Kraków", "São Paulo",
    "Ashburn"), the cities of the time-zone database ("Jakarta") and :func:`country_names`. The small model reads
    some of them as people ("the Kraków office"); a whole name found here is a place's before a person's unless a
    list of names holds it too (the engine asks)."""
    names = set(country_names())
    for value in _geocoded_english_names():
        for part in value.split(","):
            part = part.strip()
            if len(part) >= 3 and re.fullmatch(r"[^\W\d_]+(?:[ \-'][^\W\d_]+)*", part):
                names.add(part.casefold())
    names.update(part.replace("_", " ").casefold() for part in _time_zone_cities() if re.fullmatch(r"[A-Za-z_]+", part))
    return frozenset(names)


def name_shape_model(names: Iterable[str], words: Iterable[str]) -> dict[str, float]:
    """The weights of a logistic regression over :func:`shape_grams` telling ``names`` (the lexicon's given names and
    surnames, Cyrillic and Greek ones read in Latin letters: :func:`latin_readings`) from ``words`` (terms and plain
    words), Latin script only; ``""`` holds the intercept. Deterministic
    (L-BFGS, no sampling); weights are rounded to three decimals and the smallest dropped to keep the file small."""
    from sklearn.feature_extraction.text import CountVectorizer
    from sklearn.linear_model import LogisticRegression

    names = list(names)
    read = {r for n in names for r in latin_readings(n)}
    positive = sorted({w for w in [*names, *read] if len(w) >= 3 and _LATIN_NAME_RE.fullmatch(w)})
    taken = set(positive)
    negative = sorted({w for w in words if len(w) >= 3 and _LATIN_NAME_RE.fullmatch(w)} - taken)
    vectorizer = CountVectorizer(analyzer=shape_grams, min_df=2)
    features = vectorizer.fit_transform(positive + negative)
    model = LogisticRegression(C=2.0, max_iter=3000)
    model.fit(features, [1] * len(positive) + [0] * len(negative))
    weights = {gram: round(float(w), 3) for gram, w in zip(vectorizer.get_feature_names_out(), model.coef_[0],
                                                            strict=True) if abs(w) >= 0.01}
    weights[""] = round(float(model.intercept_[0]), 3)
    return weights


def write_name_shape(weights: dict[str, float]) -> None:
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    NAME_SHAPE_FILE.write_text(_GENERATED_HEADER + "".join(f"{g}\t{w}\n" for g, w in sorted(weights.items())),
                               encoding="utf-8")


@functools.cache
def name_shape_weights() -> dict[str, float]:
    """The committed name-shape model (:func:`name_shape_model`), loaded once per process; empty without the file."""
    if not NAME_SHAPE_FILE.is_file():
        return {}
    weights: dict[str, float] = {}
    for line in NAME_SHAPE_FILE.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("# "):
            gram, _, w = line.rpartition("\t")
            weights[gram] = float(w)
    return weights


def name_shape(word: str) -> float | None:
    """How much ``word`` is spelt like a person's name, 0 to 1 (:func:`name_shape_model`); None for a word of another
    script or without the model."""
    weights = name_shape_weights()
    low = _bare(word).casefold()
    if not weights or not _LATIN_NAME_RE.fullmatch(low):
        return None
    z = weights.get("", 0.0) + sum(weights.get(g, 0.0) for g in shape_grams(low))
    return 1.0 / (1.0 + math.exp(-z)) if z > -30 else 0.0


@dataclass(frozen=True)
class Vocabulary:
    terms: list[str]
    extensions: list[str]
    common: list[str]
    given_names: list[str]
    surnames: list[str]
    plain: list[str]
    name_terms: list[str]
    surname_words: list[str] = field(default_factory=list)


def write(vocabulary: Vocabulary) -> None:
    for path, words in ((TERMS_FILE, vocabulary.terms), (EXTENSIONS_FILE, vocabulary.extensions),
                        (COMMON_FILE, vocabulary.common), (GIVEN_FILE, vocabulary.given_names),
                        (SURNAME_FILE, vocabulary.surnames), (PLAIN_FILE, vocabulary.plain),
                        (NAME_TERMS_FILE, vocabulary.name_terms), (SURNAME_WORDS_FILE, vocabulary.surname_words)):
        write_words(path, words)


_GENERATED_HEADER = "# generated by `manage.py build_tech_vocabulary` (governance/privacy/vocabulary.py); do not edit\n"


def write_words(path: Path, words: Iterable[str]) -> None:
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    path.write_text(_GENERATED_HEADER + "\n".join(words) + "\n", encoding="utf-8")


def _read(path: Path) -> frozenset[str]:
    if not path.is_file():
        return frozenset()
    return frozenset(line.strip() for line in path.read_text(encoding="utf-8").splitlines()
                     if line.strip() and not line.startswith("#"))


@functools.cache
def tech_terms() -> frozenset[str]:
    """The committed vocabulary (lower case), loaded once per process."""
    return _read(TERMS_FILE)


@functools.cache
def file_extensions() -> frozenset[str]:
    return _read(EXTENSIONS_FILE)


@functools.cache
def common_words() -> frozenset[str]:
    """Words written in lower case in English prose (package descriptions): "will", "summer", "build"."""
    return _read(COMMON_FILE)


@functools.cache
def given_names() -> frozenset[str]:
    """Given names of many countries (Faker's lists and :func:`dictionary_given_names`, lower case) that are no word
    of prose and no term."""
    return listed_given_names() | dictionary_given_names()


@functools.cache
def listed_given_names() -> frozenset[str]:
    """The given names the build commits (Faker's lists and their Latin readings): what it rebuilds from."""
    return _read(GIVEN_FILE)


# Jörg Michael's dictionary of first names (``nam_dict.txt``, GNU FDL), as the gender-guesser package installs it.
_NAME_DICTIONARY = ("gender_guesser", "data/nam_dict.txt")


@functools.cache
def dictionary_given_names() -> frozenset[str]:
    """The given names of Jörg Michael's dictionary of first names (:func:`name_dictionary`) less what the build keeps
    out of the lexicon (:func:`lexicon_exclusions`) and the dictionary's names that are common words of another
    language (``data/name_dictionary_words.txt``, :func:`name_dictionary_words`: "que", "bitte", "temel").
    Faker's person lists hold a few hundred names per country and miss common names of India, Africa and the Arab
    world ("Karthik", "Priyanka", "Arvind"), which the dictionary has. It adds names and never re-decides a word the
    other lists know: a release codename stays a codename (:mod:`.codenames`: "Debian … Trixie"). (A surname of the
    lists that only the dictionary has as a given name, "Davidson", is no part of two joined given names:
    ``recognizers.names._a_given_name``.)"""
    from .codenames import LINES

    codenames = {w.casefold() for line in LINES.values() for name in line.codenames for w in name.split()}
    return frozenset(name_dictionary() - listed_given_names() - lexicon_exclusions() - _read(DICTIONARY_WORDS_FILE)
                     - codenames)


@functools.cache
def name_dictionary() -> frozenset[str]:
    """Every name of Jörg Michael's dictionary of first names (``nam_dict.txt``: ~48,000 names of 54 countries), lower
    case, read where pip installed the gender-guesser package and never copied into this repository (its licence is
    the GNU FDL). Its "+" joins the parts of an Arabic, Chinese or Korean name that may be written together
    ("Jun+Wei"): the written-together form counts, not its syllables alone ("jun", "wei"). Empty without the
    package."""
    import importlib.resources

    package, path = _NAME_DICTIONARY
    try:
        text = importlib.resources.files(package).joinpath(path).read_text(encoding="utf-8")
    except (ImportError, OSError):  # pragma: no cover - gender-guesser is a dependency
        return frozenset()
    names: set[str] = set()
    for line in text.splitlines():
        # "<sex> <name> <one frequency column per country>"; "#" comments, "=" pairs of equivalent spellings
        parts = line.split()
        if len(parts) < 2 or line[0] in "#=":
            continue
        name = parts[1].casefold().replace("+", "")
        if name.isalpha() and len(name) >= 3:
            names.add(name)
    return frozenset(names)


# A word this frequent in a language's running text (Zipf scale: once per 10,000 words) is one of its common words.
COMMON_WORD_ZIPF = 4.0
_COMMON_FREQUENCY = 10.0 ** (COMMON_WORD_ZIPF - 9)  # wordfreq's frequencies are per word; Zipf = log10(per billion)
_NON_LATIN_LANGUAGES = frozenset("ar bg bn el fa he hi ja ko mk ru ta uk ur zh".split())


def _latin_languages() -> list[str]:
    """wordfreq's languages written in Latin letters (their lists need no extra tokenizer)."""
    import wordfreq

    return [lang for lang in wordfreq.available_languages(wordlist="best") if lang not in _NON_LATIN_LANGUAGES]


def name_dictionary_words(names: Iterable[str], listed: Iterable[str] = (),
                          languages: Iterable[str] | None = None) -> list[str]:
    """The names of ``names`` (the dictionary's) that are common words of a language written in Latin letters
    (wordfreq's lists, ``pip install wordfreq``: a Zipf frequency of at least :data:`COMMON_WORD_ZIPF`), less
    ``listed`` (the names Faker lists, which stay names): "que", "dat", "bitte", "alle", "temel" are a name
    somewhere in the dictionary and a function word or a common word in the UI strings and chat of other languages.
    A frequent name is in such a list too ("Melih" in Turkish text) and is left out with them: the dictionary adds
    names, it never decides one that a language uses as a word. ``languages``: wordfreq's codes to read (by default
    every Latin-script one: a name of the dictionary is Latin, and their lists need no extra tokenizer)."""
    import wordfreq

    candidates = set(names) - set(listed)
    common: set[str] = set()
    for lang in _latin_languages() if languages is None else languages:
        frequencies = wordfreq.get_frequency_dict(lang, wordlist="best")
        common |= {w for w in candidates if frequencies.get(w, 0.0) >= _COMMON_FREQUENCY}
    return sorted(common)


def foreign_common_words_of(named: Iterable[str], languages: Iterable[str],
                            among: Iterable[str] | None = None) -> dict[str, list[str]]:
    """Per common word of ``languages`` (wordfreq's codes, written in Latin letters), the languages it is common in:
    a Zipf frequency of at least :data:`COMMON_WORD_ZIPF` there, :data:`ENGLISH_RATIO` times its frequency in English
    and :data:`SPREAD_RATIO` times the median of the other languages' of ``among`` (by default every Latin-script
    language wordfreq has); letters only, three or more; no English common word and no word a list at hand holds as
    a person's or a place's name (``named``: the lexicon, the dictionary of first names, places). "obrigado" (pt),
    "społeczność" (pl), "mehrere" (de). The small English model reads a capitalised word of another language as a
    person or a place ("Obrigado por passar …", "Społeczność Django"); in a sentence written in that language its
    guess alone on such a word is none (:func:`foreign_word_languages`)."""
    import wordfreq

    excluded = set(named) | set(common_words())
    every = sorted({"en", *languages, *(among or _latin_languages())})
    lists = {lang: wordfreq.get_frequency_dict(lang, wordlist="best") for lang in every}
    words: dict[str, list[str]] = {}
    for lang in sorted(set(languages) - {"en"}):
        for w, f in lists[lang].items():
            if (f < _COMMON_FREQUENCY or w in excluded or len(w) < 3 or not w.isalpha()
                    or f < ENGLISH_RATIO * lists["en"].get(w, 0.0)):
                continue
            # a name, a place or a brand is written in every language's text ("Frankfurt", "Cheung", "Pokémon");
            # a language's own word in few others ("obrigado"; "para" in Spanish and Portuguese alike)
            others = sorted(lists[x].get(w, 0.0) for x in every if x != lang)
            if f >= SPREAD_RATIO * others[len(others) // 2]:
                words.setdefault(w, []).append(lang)
    return dict(sorted(words.items()))


# How much more often than in English text a word must be written in its language to count as that language's own.
ENGLISH_RATIO = 10.0
# ... and than in the median of the other Latin-script languages' text.
SPREAD_RATIO = 100.0


def names_and_places_listed() -> set[str]:
    """Every word a committed list or an installed one holds as a person's or a place's name: the lexicon, the
    surnames that are words too, the dictionary of first names, the places of Faker, libphonenumber and the time-zone
    database, the countries."""
    return (_names_and_places((), listed_given_names() | name_dictionary(), surnames() | surname_words(),
                              _place_weights()) | _country_words() | _geocoded_place_words())


def _geocoded_place_words() -> set[str]:
    """The words (four letters or more) of libphonenumber's place names of several words ("Frankfurt am Main")."""
    return {w.lower() for value in _geocoded_english_names() for w in re.findall(r"[^\W\d_]{4,}", value)}


@functools.cache
def foreign_common_words() -> dict[str, frozenset[str]]:
    """The committed :func:`foreign_common_words_of` (``data/foreign_common_words.txt``: a word and its languages
    per line), loaded once per process."""
    if not FOREIGN_WORDS_FILE.is_file():
        return {}
    out: dict[str, frozenset[str]] = {}
    for line in FOREIGN_WORDS_FILE.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            word, _, languages = line.partition("\t")
            out[word] = frozenset(languages.split(","))
    return out


def write_foreign_words(words: dict[str, list[str]]) -> None:
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    FOREIGN_WORDS_FILE.write_text(_GENERATED_HEADER + "".join(f"{w}\t{','.join(langs)}\n" for w, langs in
                                                              words.items()), encoding="utf-8")


def foreign_word_languages(word: str) -> frozenset[str]:
    """The languages other than English ``word`` is a common word of and names nobody and nowhere in ("Obrigado":
    Portuguese); empty for any other word."""
    return foreign_common_words().get(_bare(word).casefold(), frozenset())


@functools.cache
def surnames() -> frozenset[str]:
    return _read(SURNAME_FILE)


@functools.cache
def surname_words() -> frozenset[str]:
    """Surnames of the lists that are words of prose or technology too ("Kim", "Park", "Lee", "Yang", "Page"), which
    :func:`surnames` leaves out: a surname only beside a given name."""
    return _read(SURNAME_WORDS_FILE)


@functools.cache
def name_term_set() -> frozenset[str]:
    """Terms that are given names too (:func:`name_terms_of`)."""
    return _read(NAME_TERMS_FILE)


def _bare(word: str) -> str:
    """A word without the punctuation around it and a possessive ("Redis's," → "Redis")."""
    return word.strip(".,;:!?\"'()[]{}`").removesuffix("'s").removesuffix("’s")


def is_name_term(word: str) -> bool:
    """A technology word that is a given name too ("Ray", "Julia", "Cassandra")."""
    return _bare(word).casefold() in name_term_set()


@functools.cache
def plain_word_set() -> frozenset[str]:
    """Common words that are no name or place of any list the build read (:func:`plain_words`)."""
    return _read(PLAIN_FILE)


def is_plain_word(word: str) -> bool:
    """A word of prose that names nobody and nowhere ("Pending", "Quay", "Bookworm"; not "Nice", "Grace", "Baker")."""
    return word.strip(".,;:!?\"'()[]{}`").casefold() in plain_word_set()


def is_common_word(word: str) -> bool:
    """A word whose capitalised form is no evidence of a name: a common word of prose or a technology word."""
    w = _bare(word)
    return w.casefold() in common_words() or is_tech_word(w)


_CONNECTORS = frozenset({"and", "or", "&", "/", "+", "the", "of", "on", "with", "vs", "vs.", "-", ","})
_FILE_RE = re.compile(r"[\w\-]+(?:\.[\w\-]+)*\.(?P<ext>[A-Za-z][A-Za-z0-9]{0,9})")


def is_tech_word(word: str, *, extra: frozenset[str] = frozenset()) -> bool:
    """True for a vocabulary term (any case: ``Redis``, ``REDIS``), a file name with a known extension
    (``postgresql.conf``), or a term of ``extra`` (a project's allowed terms, lower case)."""
    w = _bare(word)
    if not w:
        return False
    low = w.casefold()
    if low in extra:
        return True
    m = _FILE_RE.fullmatch(w)
    if m and m.group("ext").lower() in file_extensions():
        return True
    return low in tech_terms()


def all_tech(span: str, *, extra: frozenset[str] = frozenset()) -> bool:
    """Every word of ``span`` is a technology word (see :func:`is_tech_word`); the whole span may be an allowed
    term of several words."""
    if span.strip().casefold() in extra:
        return True
    words = [w for w in span.split() if w.casefold() not in _CONNECTORS]  # "Windows and", "Redis & Kafka"
    return bool(words) and all(is_tech_word(w, extra=extra) for w in words)
