"""Vocabularies of the extractive consolidator: word lists, phrase lists and regexes (constants only, no logic).

The classification rules (:mod:`.classification`), the sentence scores (:mod:`.parsing`), the rewrites
(:mod:`.rewriting`) and the narratives (:mod:`.narrative`) all read their words from here.
"""

from __future__ import annotations

import re

# Masking placeholders such as ``<PERSON_3f2a>``: kept verbatim and treated as names.
PLACEHOLDER_RE = re.compile(r"<[A-Z][A-Z_]*[A-Z](?:_[0-9A-Za-z]+)?>")

FIRST_PERSON = frozenset({"i", "me", "my", "mine", "myself", "we", "us", "our", "ours"})
TIME_NOUNS = frozenset(
    "day days week weeks month months year years morning mornings evening evenings afternoon afternoons night "
    "nights time times today tomorrow yesterday tonight weekend weekends hour hours minute minutes moment second "
    "monday tuesday wednesday thursday friday saturday sunday date".split()
)
GENERIC_NOUNS = frozenset(
    "thing things lot lots way ways stuff bit kind sort something anything everything nothing one ones people "
    "idea ideas question questions help problem tip tips advice suggestion suggestions user assistant you "
    "yes no thanks thank sure step steps".split()
)
ALIASES = {
    "run": "running",
    "runs": "running",
    "jog": "running",
    "jogging": "running",
    "jogs": "running",
    "swim": "swimming",
    "bike": "cycling",
    "biking": "cycling",
    "cycle": "cycling",
    "ride": "cycling",
    "hike": "hiking",
    "walk": "walking",
    "favorite": "favourite",
    "colour": "color",
}
CATEGORIES = {
    "drink": "tea coffee espresso latte cappuccino americano matcha chai cocoa juice water soda beer wine whisky "
    "milk smoothie kombucha lemonade",
    "food": "pizza pasta sushi burger salad curry ramen taco tacos steak sandwich noodle soup chocolate",
    "music": "jazz rock pop classical techno metal hip-hop rap blues reggae",
    "programming language": "python rust java javascript typescript golang kotlin ruby scala haskell",
    "editor": "vim neovim emacs vscode",
}
CATEGORY_OF = {word: category for category, words in CATEGORIES.items() for word in words.split()}
ACTIVITY_VERBS = frozenset({"run", "swim", "bike", "cycle", "hike", "walk", "jog", "ride", "train", "row", "climb"})

PREF_STRONG = frozenset({"prefer", "love", "hate", "adore", "detest", "dislike"})
PREF_WEAK = frozenset({"like", "enjoy"})
PREF_ADJ = frozenset({"favourite", "favorite", "fond", "keen"})
NEGATIVE_VERBS = frozenset({"hate", "dislike", "detest", "avoid", "stop", "quit"})
CONSTRAINT_STRONG = frozenset(
    {"never", "always", "must", "allergic", "allergy", "intolerant", "deadline", "forbidden", "prohibited", "mandatory"}
)
CONSTRAINT_PHRASES = (
    "must not",
    "mustn't",
    "not allowed",
    "due by",
    "due on",
    "due date",
    "no later than",
    "can't eat",
    "cannot eat",
    "can't drink",
    "cannot drink",
    "not permitted",
    "off limits",
    "off-limits",
    "is required",
    "are required",
    "requires",
    "require a",
    "freeze day",
    "only allowed",
    "is forbidden",
)
CONSTRAINT_WEAK_PHRASES = ("have to", "has to", "need to", "at most", "at least", "budget", "required to")
LESSON_WORDS = frozenset({"lesson", "mistake", "hindsight"})
LESSON_PHRASES = (
    "next time",
    "should have",
    "learned",
    "learnt",
    "i realised",
    "i realized",
    "turns out",
    "never again",
    "won't make that",
    # the idioms of a bad experience that changed the practice: "we got burned by a skewed split, so now …"
    "got burned",
    "got burnt",
    "got bitten",
    "the hard way",
)
PATTERN_WORDS = frozenset(
    {"usually", "often", "typically", "regularly", "normally", "generally", "routine", "habit", "weekly", "daily"}
)
PATTERN_PHRASES = (
    "tend to",
    "most days",
    "on weekends",
    "every ",
    "each morning",
    "each week",
    "each day",
    "times a week",
    "times a day",
    "times a month",
    "twice a",
    "once a",
)
CHANGE_MARKERS = (
    "now",
    "anymore",
    "any more",
    "no longer",
    "instead",
    "switched",
    "switch",
    "changed",
    "these days",
    "nowadays",
)
EXCLUSIVE_WORDS = frozenset({"prefer", "favourite", "favorite", "rather", "instead", "only", "over"})
SEQUENCE_WORDS = ("first", "then", "next", "after that", "afterwards", "finally", "second", "third", "lastly")
HOWTO_CUES = (
    "how do i",
    "how can i",
    "how to",
    "how should i",
    "steps",
    "step by step",
    "walk me through",
    "what's the process",
    "what is the process",
    "procedure",
)
RELATIVE_DAYS = {
    "yesterday": -1,
    "today": 0,
    "tonight": 0,
    "this morning": 0,
    "this afternoon": 0,
    "this evening": 0,
    "tomorrow": 1,
}
NUMBER_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "a": 1,
    "an": 1,
    "a couple of": 2,
    "a few": 3,
}
_AGO_RE = re.compile(r"\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten|a|an)\s+(day|week)s?\s+ago\b", re.I)
_LAST_RE = re.compile(
    r"\blast\s+(week|month|year|weekend|monday|tuesday|wednesday|thursday|friday|saturday|"
    r"sunday)\b",
    re.I,
)
_NEXT_RE = re.compile(
    r"\bnext\s+(week|month|year|weekend|monday|tuesday|wednesday|thursday|friday|saturday|"
    r"sunday)\b",
    re.I,
)
_STEP_LINE_RE = re.compile(r"^\s*(?:\d{1,2}[.)]|step\s+\d{1,2}[:.)]?|[-*•])\s+(.+)$", re.I | re.M)
_NUMBERED_LINE_RE = re.compile(r"^\s*(?:\d{1,2}[.)]|step\s+\d{1,2}[:.)]?)\s+(.+)$", re.I | re.M)
_SEQUENCE_PREFIX_RE = re.compile(
    r"^(?:first(?:ly)?|then|next|after that|afterwards|finally|lastly|second(?:ly)?|third(?:ly)?)\b\s*,?\s*",
    re.I,
)
_WS_RE = re.compile(r"\s+")
_TRIVIAL = frozenset(
    "hi hello hey thanks thank you great ok okay sure bye cool awesome good nice yes no yeah "
    "yep perfect wow lol sounds got it right welcome a lot much so very again all that this is "
    "for the".split()
)
TYPE_RANK = {"constraint": 0, "event": 1, "preference": 2, "procedure": 3, "lesson": 4, "pattern": 5, "fact": 6}
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")

# Third-person forms of irregular verbs ("I am" -> "the user is").
_THIRD_PERSON_IRREGULAR = {"be": "is", "am": "is", "'m": "is", "have": "has", "'ve": "has", "do": "does", "go": "goes"}

# The subject of a first-person fact by its verb ("I work at ..." -> job).
_FACT_VERB_SUBJECTS = {"work": "job", "live": "home", "move": "home", "study": "education", "marry": "marriage"}

# Steps written on one line ("Step 1: ... Step 2: ..." or "1. ... 2. ...").
_INLINE_STEP_RE = re.compile(r"(?:^|(?<=\s))(?:step\s+(\d{1,2})\s*[:.)]|(\d{1,2})[.)])\s+", re.I)
