"""Release and chip codenames: closed, public sets, each with the words that show its product line.

Operating systems and chips are named after places, animals and people ("macOS Ventura", "Debian Trixie", "AMD EPYC
Milan", "Jetson Orin"); the small NER model calls them people or places. A codename is only read as one where its
product line shows in the sentence (see :func:`codename_spans`): "I'm in Milan this week" and "ask Catalina" keep
their masks. Debian's and Ubuntu's codenames are those of distro-info's ``debian.csv`` / ``ubuntu.csv``; the others
are the vendors' published lists.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass

# "Debian 13 Trixie", "Ubuntu 24.04 LTS Noble", "macOS 13 (Ventura)": a version between the line's word and the name
_VERSION_GAP = r"(?:[ \t]+v?\d[\w.]*)?(?:[ \t]+LTS)?[ \t]*\(?[ \t]*"


@dataclass(frozen=True)
class Line:
    #: words naming the line, right before a codename ("macOS", "EPYC")
    cues: tuple[str, ...]
    #: the line's products or releases, right after a codename ("Monterey Mac mini", "Jammy image")
    products: tuple[str, ...]
    codenames: tuple[str, ...]


# Nouns of a release or a machine, after any line's codename ("the Trixie upgrade", "Ventura beta").
_RELEASE_NOUNS = ("release", "releases", "beta", "betas", "upgrade", "upgrades", "image", "images", "iso", "box",
                  "boxes", "vm", "vms", "host", "hosts", "machine", "machines", "runner", "runners", "kernel",
                  "packages", "backports", "install", "installs", "sdk", "toolchain", "lts", "nodes", "instances",
                  "cpu", "cpus", "chips", "parts", "servers")

LINES: dict[str, Line] = {
    "debian": Line(
        ("Debian",), (),
        ("Buzz", "Rex", "Bo", "Hamm", "Slink", "Potato", "Woody", "Sarge", "Etch", "Lenny", "Squeeze", "Wheezy",
         "Jessie", "Stretch", "Buster", "Bullseye", "Bookworm", "Trixie", "Forky", "Duke", "Sid")),
    "ubuntu": Line(
        ("Ubuntu", "Kubuntu", "Xubuntu"), (),
        ("Warty", "Hoary", "Breezy", "Dapper", "Edgy", "Feisty", "Gutsy", "Hardy", "Intrepid", "Jaunty", "Karmic",
         "Lucid", "Maverick", "Natty", "Oneiric", "Precise", "Quantal", "Raring", "Saucy", "Trusty", "Utopic",
         "Vivid", "Wily", "Xenial", "Yakkety", "Zesty", "Artful", "Bionic", "Cosmic", "Disco", "Eoan", "Focal",
         "Groovy", "Hirsute", "Impish", "Jammy", "Kinetic", "Lunar", "Mantic", "Noble", "Oracular", "Plucky",
         "Questing", "Resolute", "Warty Warthog", "Hoary Hedgehog", "Breezy Badger", "Dapper Drake", "Edgy Eft",
         "Feisty Fawn", "Gutsy Gibbon", "Hardy Heron", "Intrepid Ibex", "Jaunty Jackalope", "Karmic Koala",
         "Lucid Lynx", "Maverick Meerkat", "Natty Narwhal", "Oneiric Ocelot", "Precise Pangolin", "Quantal Quetzal",
         "Raring Ringtail", "Saucy Salamander", "Trusty Tahr", "Utopic Unicorn", "Vivid Vervet", "Wily Werewolf",
         "Xenial Xerus", "Yakkety Yak", "Zesty Zapus", "Artful Aardvark", "Bionic Beaver", "Cosmic Cuttlefish",
         "Disco Dingo", "Eoan Ermine", "Focal Fossa", "Groovy Gorilla", "Hirsute Hippo", "Impish Indri",
         "Jammy Jellyfish", "Kinetic Kudu", "Lunar Lobster", "Mantic Minotaur", "Noble Numbat", "Oracular Oriole",
         "Plucky Puffin", "Questing Quokka", "Resolute Raccoon")),
    "macos": Line(
        ("macOS", "OS X", "OSX", "Mac OS", "Mac OS X"), ("Mac", "Macs", "MacBook", "MacBooks", "iMac", "iMacs"),
        ("Cheetah", "Puma", "Jaguar", "Panther", "Tiger", "Leopard", "Snow Leopard", "Lion", "Mountain Lion",
         "Mavericks", "Yosemite", "El Capitan", "Sierra", "High Sierra", "Mojave", "Catalina", "Big Sur", "Monterey",
         "Ventura", "Sonoma", "Sequoia", "Tahoe")),
    "amd": Line(
        ("AMD", "EPYC", "Epyc"), (),
        ("Naples", "Rome", "Milan", "Milan-X", "Genoa", "Genoa-X", "Bergamo", "Siena", "Turin", "Venice")),
    "intel": Line(
        ("Intel", "Xeon"), (),
        ("Haswell", "Broadwell", "Skylake", "Kaby Lake", "Coffee Lake", "Cascade Lake", "Cooper Lake", "Ice Lake",
         "Tiger Lake", "Alder Lake", "Raptor Lake", "Meteor Lake", "Lunar Lake", "Arrow Lake", "Sapphire Rapids",
         "Emerald Rapids", "Granite Rapids", "Sierra Forest", "Clearwater Forest")),
    "nvidia": Line(
        ("NVIDIA", "Nvidia", "Jetson", "GeForce", "RTX", "Tesla"),
        ("Nano", "NX", "AGX", "GPU", "GPUs", "card", "cards"),
        ("Kepler", "Maxwell", "Pascal", "Volta", "Turing", "Ampere", "Ada", "Ada Lovelace", "Hopper", "Blackwell",
         "Rubin", "Grace", "Grace Hopper", "Grace Blackwell", "TX1", "TX2", "Xavier", "Orin", "Orin Nano", "Thor")),
    "android_studio": Line(
        ("Android Studio", "Studio"), (),
        ("Arctic Fox", "Bumblebee", "Chipmunk", "Dolphin", "Electric Eel", "Flamingo", "Giraffe", "Hedgehog",
         "Iguana", "Jellyfish", "Koala", "Ladybug", "Meerkat", "Narwhal")),
}


# a chip's model number after its generation's codename ("Grace Hopper GH200", "Ada Lovelace gen L40S", "Blackwell
# B200"): capitals then digits, as vendors write them (a person's name is not followed by one)
_MODEL_GAP = r"(?:[ \t]+(?:gen|generation))?[ \t]+[A-Z]{1,3}\d{2,4}[A-Z]?"


def _alternation(words: tuple[str, ...]) -> str:
    return "|".join(re.escape(w).replace(r"\ ", r"[ \t]+") for w in sorted(words, key=len, reverse=True))


@functools.cache
def _patterns() -> list[tuple[re.Pattern[str], ...]]:
    """Per line: a codename anywhere, a codename right after a cue, a codename right before a product noun (a model
    number may stand between), a codename right before a model number, a cue anywhere."""
    out = []
    for line in LINES.values():
        names, cues = _alternation(line.codenames), _alternation(line.cues)
        anywhere = re.compile(rf"(?<![\w-])(?:{names})(?![\w-])")
        after_cue = re.compile(rf"(?<![\w-])(?:{cues}){_VERSION_GAP}(?P<n>{names})(?![\w-])")
        products = _alternation(line.products + _RELEASE_NOUNS)
        before_product = re.compile(rf"(?<![\w-])(?P<n>{names})(?:{_MODEL_GAP})?[ \t]+(?:{products})(?![\w-])", re.I)
        before_model = re.compile(rf"(?<![\w-])(?P<n>{names}){_MODEL_GAP}(?![\w-])")
        out.append((anywhere, after_cue, before_product, before_model,
                    re.compile(rf"(?<![\w-])(?:{cues})(?![\w-])")))
    return out


def codename_spans(sentence: str, *, is_name: Callable[[str], bool],
                   after_place: Callable[[str, int], bool]) -> list[tuple[int, int]]:
    """The spans of ``sentence`` that are codenames of a product line the sentence shows.

    A codename next to its line ("Debian Trixie", "EPYC Milan", "Monterey Mac mini", "Debian 13 (Trixie)") or before
    a model number ("Grace Hopper GH200", "Ada Lovelace gen L40S") is one.
    Once the line shows so, or its word appears with two of its codenames ("Milan vs Genoa on AMD"), its other
    codenames in the sentence are too, except those that are people's names as well (``is_name``: "Jessie", "Milan"),
    which need their line's word beside them ("Jessie moved the Debian Buster boxes" keeps Jessie a person), and
    those after a preposition of place (``after_place(sentence, start)``: "I'm in Genoa for the EPYC Milan launch"
    keeps Genoa a place)."""
    spans: list[tuple[int, int]] = []
    for anywhere, after_cue, before_product, before_model, cue in _patterns():
        beside = [(m.start("n"), m.end("n")) for m in after_cue.finditer(sentence)]
        beside += [(m.start("n"), m.end("n")) for m in before_product.finditer(sentence)
                   if sentence[m.start("n")].isupper()]
        beside += [(m.start("n"), m.end("n")) for m in before_model.finditer(sentence)
                   if (m.start("n"), m.end("n")) not in beside]
        found = [(m.start(), m.end()) for m in anywhere.finditer(sentence)]
        distinct = {sentence[s:e].casefold() for s, e in found}
        if not beside and not (cue.search(sentence) and len(distinct) >= 2):
            continue
        spans += beside
        spans += [(s, e) for s, e in found if (s, e) not in beside and not is_name(sentence[s:e])
                  and not after_place(sentence, s)]
    return spans
