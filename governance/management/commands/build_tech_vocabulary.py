"""Regenerate the technology vocabulary committed in governance/privacy/data (see governance.privacy.vocabulary)."""

from pathlib import Path

from django.core.management.base import BaseCommand

from governance.privacy.recognizers._common import WRITTEN_LANGUAGES
from governance.privacy.vocabulary import (
    DICTIONARY_WORDS_FILE,
    GIVEN_FILE,
    NAME_TERMS_FILE,
    PLAIN_FILE,
    SURNAME_FILE,
    SURNAME_WORDS_FILE,
    build,
    common_words,
    faker_names,
    foreign_common_words_of,
    lexicon_exclusions,
    listed_given_names,
    name_dictionary,
    name_dictionary_words,
    name_shape_model,
    name_terms_of,
    names_and_places_listed,
    plain_words,
    surname_words_of,
    surnames,
    tech_terms,
    with_latin_readings,
    write,
    write_foreign_words,
    write_name_shape,
    write_words,
)

DEFAULT_PYPI_LIST = "/work/.library/env/packages/pypi.tsv"
DEFAULT_NPM_LIST = "/work/.library/env/packages/npm.tsv"
DEFAULT_NUGET_LIST = "/work/.library/env/packages/nuget.tsv"
DEFAULT_DEBIAN_PACKAGES = "/var/lib/apt/lists/deb.debian.org_debian_dists_bookworm_main_binary-amd64_Packages.lz4"


class Command(BaseCommand):
    help = ("Build the technology vocabulary (names of products, tools, formats, operating systems; file extensions) "
            "from the installed Python distributions, ranked PyPI, npm and NuGet lists and the Debian archive.")

    def add_arguments(self, parser):
        parser.add_argument("--pypi-list", default=DEFAULT_PYPI_LIST,
                            help="TSV: name, version, month, rank, summary (only ranked rows are read)")
        parser.add_argument("--npm-list", default=DEFAULT_NPM_LIST,
                            help="TSV: name, version, downloads a month, summary")
        parser.add_argument("--nuget-list", default=DEFAULT_NUGET_LIST,
                            help="TSV: name, version, licence, summary [tags], versions")
        parser.add_argument("--debian-packages", default=DEFAULT_DEBIAN_PACKAGES,
                            help="a Debian archive's Packages index (plain, .lz4, .xz or .gz)")
        parser.add_argument("--word-list", default="/usr/share/dict/american-english",
                            help="an English word list (Debian's wamerican): its lower-case entries are common words")
        parser.add_argument("--catalogue", action="append", default=[], metavar="PATH",
                            help="a product catalogue (repeatable): simple-icons' data/simple-icons.json, the CNCF "
                                 "landscape's landscape.yml, tldr-pages' pages/ directory, or one name per line")
        parser.add_argument("--dpkg-status", default="/var/lib/dpkg/status")
        parser.add_argument("--dpkg-info", default="/var/lib/dpkg/info")
        parser.add_argument("--plain-words-only", action="store_true",
                            help="write only data/plain_words.txt, data/name_terms.txt, data/surname_words.txt and "
                                 "data/name_shape.tsv, "
                                 "from the committed common words, terms and names (no listings needed)")
        parser.add_argument("--names-only", action="store_true",
                            help="only rebuild data/given_names.txt and data/surnames.txt from Faker's lists, less "
                                 "the committed terms, common words, languages and strong places (what a full build "
                                 "does for the names; no listings needed)")
        parser.add_argument("--dictionary-words-only", action="store_true",
                            help="only rebuild data/name_dictionary_words.txt: the names of the dictionary of first "
                                 "names (gender-guesser) that are common words of a language (needs wordfreq)")
        parser.add_argument("--foreign-words-only", action="store_true",
                            help="only rebuild data/foreign_common_words.txt: the common words of the other "
                                 "Latin-script languages that no list holds as a name or a place (needs wordfreq)")
        parser.add_argument("--name-readings-only", action="store_true",
                            help="only add the Latin readings of the committed Cyrillic and Greek names to "
                                 "data/given_names.txt and data/surnames.txt (what a full build does; no listings "
                                 "needed)")

    def handle(self, *args, **o):
        if o["dictionary_words_only"]:
            self._write_dictionary_words()
            return
        if o["foreign_words_only"]:
            self._write_foreign_words()
            return
        if o["names_only"] or o["name_readings_only"]:
            excluded = lexicon_exclusions()
            # from Faker's lists, as a full build reads them; or the committed lexicon with its Latin readings added
            given, family = faker_names() if o["names_only"] else (listed_given_names(), surnames())
            given = sorted(with_latin_readings(given, excluded) - excluded)
            family = sorted(with_latin_readings(family, excluded) - excluded)
            write_words(GIVEN_FILE, given)
            write_words(SURNAME_FILE, family)
            self.stdout.write(f"{len(given)} given names, {len(family)} surnames written")
            return
        if o["plain_words_only"]:
            words = plain_words(common_words(), word_list=Path(o["word_list"]))
            write_words(PLAIN_FILE, words)
            homonyms = name_terms_of(tech_terms())
            write_words(NAME_TERMS_FILE, homonyms)
            write_words(SURNAME_WORDS_FILE, surname_words_of(lexicon_exclusions()))
            shape = name_shape_model([*listed_given_names(), *surnames()], [*tech_terms(), *words])
            write_name_shape(shape)
            self.stdout.write(f"{len(words)} plain words, {len(homonyms)} name terms, a name shape of "
                              f"{len(shape)} weights written")
            return
        vocabulary = build(pypi_list=Path(o["pypi_list"]), dpkg_status=Path(o["dpkg_status"]),
                           dpkg_info=Path(o["dpkg_info"]), npm_list=Path(o["npm_list"]),
                           nuget_list=Path(o["nuget_list"]), debian_packages=Path(o["debian_packages"]),
                           word_list=Path(o["word_list"]), catalogues=[Path(c) for c in o["catalogue"]])
        missing = [c for c in o["catalogue"] if not Path(c).exists()]
        if missing or not o["catalogue"]:
            # the committed vocabulary was built with three catalogues (see the module's docstring): without them
            # it loses the products no package index names
            self.stderr.write(f"warning: product catalogues missing: {missing or 'none given'}")
        write(vocabulary)
        self._write_dictionary_words(listed=vocabulary.given_names)
        self._write_foreign_words()
        write_name_shape(name_shape_model([*vocabulary.given_names, *vocabulary.surnames],
                                          [*vocabulary.terms, *vocabulary.plain]))
        self.stdout.write(f"{len(vocabulary.terms)} terms, {len(vocabulary.extensions)} file extensions, "
                          f"{len(vocabulary.common)} common words, {len(vocabulary.given_names)} given names, "
                          f"{len(vocabulary.surnames)} surnames, {len(vocabulary.plain)} plain words, "
                          f"{len(vocabulary.name_terms)} name terms written")

    def _write_dictionary_words(self, listed=None) -> None:
        # the dictionary's names that are common words of another language (needs wordfreq: pip install wordfreq)
        try:
            listed = listed_given_names() if listed is None else listed
            words = name_dictionary_words(name_dictionary() - lexicon_exclusions(), listed)
        except ImportError:
            self.stderr.write("warning: wordfreq is not installed: data/name_dictionary_words.txt left as it is")
            return
        write_words(DICTIONARY_WORDS_FILE, words)
        self.stdout.write(f"{len(words)} names of the dictionary that are common words written")

    def _write_foreign_words(self) -> None:
        # the common words of the other Latin-script languages that no list holds as a name (needs wordfreq)
        try:
            # the languages whose sentences the masker can tell (recognizers WRITTEN_LANGUAGES), in Latin letters
            words = foreign_common_words_of(names_and_places_listed(),
                                            [lang for lang in WRITTEN_LANGUAGES if lang != "el"])
        except ImportError:
            self.stderr.write("warning: wordfreq is not installed: data/foreign_common_words.txt left as it is")
            return
        write_foreign_words(words)
        self.stdout.write(f"{len(words)} common words of other languages written")
