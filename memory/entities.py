"""Recall by entity: the people and organisations (keyed placeholders, ``<PERSON_3f2a9c>``) and the named subjects
(``Experience.subject``) an agent's visible memory mentions, and the filter that restricts a read to one of them.

A placeholder links every mention of one value across sessions (the masking gateway gives one value one
placeholder per project). A subject is what consolidation named an item ("deployment pipeline"); its exchanges and
episodes are those its items were drawn from. Every count and every filter reads only rows the caller may see
(:meth:`agents.visibility.ScopedQuerySet.visible_to`), so a count never reveals a row it could not read.

Cost: a placeholder filter uses the rows' full-text vectors (a placeholder is one lexeme there, GIN-indexed:
memory/search/lexical.py) and rechecks the exact text on the rows the index finds (2 ms for one placeholder among
10k visible exchanges). The listing runs one regular expression over the visible rows' texts per layer, a sequential
read of what the caller sees (62 ms for 10k visible exchanges naming 300 people, on the development machine); it is
a list asked for now and then, not a per-turn path, so it has no index of its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime

from django.contrib.postgres.search import SearchQuery as TextQuery
from django.db import connection
from django.db.models import Count, F, Q, QuerySet
from django.db.models.functions import Lower

from agents.visibility import Visibility
from memory.models import Episode, Exchange, Experience, ExperienceEvidence, MemoryStatus
from memory.search.lexical import TEXT_SEARCH_CONFIG
from memory.temporal import experience_current_q

# A keyed placeholder (one value, one placeholder); secrets share one placeholder per kind and are no entity.
PLACEHOLDER_PATTERN = r"<[A-Z][A-Z0-9_]*_[0-9a-f]{6}>"
PLACEHOLDER_RE = re.compile(PLACEHOLDER_PATTERN)
# Text fields that can mention an entity, per layer.
_TEXT_FIELDS: dict[type, tuple[str, ...]] = {
    Exchange: ("user_text", "assistant_text"),
    Episode: ("title", "narrative"),
    Experience: ("subject", "statement"),
}


@dataclass(frozen=True)
class Entity:
    """What an ``entity`` parameter resolved to: placeholders (any of them) and/or a subject (case-insensitive)."""

    placeholders: tuple[str, ...] = ()
    subject: str | None = None

    @property
    def empty(self) -> bool:
        return not self.placeholders and not self.subject


def _lexeme(placeholder: str) -> str:
    # memory/search/lexical.py indexes <TYPE_3f2a9c> as the single term "ph3f2a9c".
    return "ph" + placeholder[-7:-1]


def _mentions_q(model: type, placeholders: tuple[str, ...]) -> Q:
    """Rows whose text holds one of ``placeholders``: the GIN-indexed lexeme finds them, the text confirms (two
    types sharing six hex digits are told apart)."""
    q = Q()
    for placeholder in placeholders:
        text = Q()
        for name in _TEXT_FIELDS[model]:
            text |= Q(**{f"{name}__contains": placeholder})
        lexical = Q(search_vector=TextQuery(_lexeme(placeholder), config=TEXT_SEARCH_CONFIG, search_type="raw"))
        if model is Experience:  # the subject is not in the vector
            q |= (lexical & text) | Q(subject__contains=placeholder)
        else:
            q |= lexical & text
    return q


def _subject_items(visibility: Visibility, subject: str) -> QuerySet[Experience]:
    return Experience.objects.visible_to(visibility).filter(status=MemoryStatus.ACTIVE, subject__iexact=subject)


def entity_q(model: type, entity: Entity, visibility: Visibility) -> Q:
    """A filter on ``model`` (exchanges, episodes or experiences) for the rows about ``entity``. For a subject:
    experiences named so, and the exchanges and episodes visible items of that subject were drawn from. An entity
    that resolved to nothing matches nothing."""
    if entity.empty:
        return Q(pk__in=[])
    q = _mentions_q(model, entity.placeholders) if entity.placeholders else Q(pk__in=[])
    if entity.subject:
        if model is Experience:
            q |= Q(subject__iexact=entity.subject)
        elif model is Exchange:
            q |= Q(pk__in=ExperienceEvidence.objects.filter(
                experience__in=_subject_items(visibility, entity.subject)).values("exchange_id"))
        else:
            q |= Q(pk__in=_subject_items(visibility, entity.subject).exclude(episode__isnull=True)
                   .values("episode_id"))
    return q


@dataclass
class EntityCount:
    kind: str  # "placeholder" or "subject"
    value: str
    exchanges: int = 0
    episodes: int = 0
    experiences: int = 0
    total: int = field(init=False, default=0)


def _placeholder_counts(qs: QuerySet, fields: tuple[str, ...]) -> dict[str, int]:
    """placeholder → how many rows of ``qs`` mention it (one regular expression over the rows' texts)."""
    columns = {"entity_row": F("pk"), **{f"entity_text_{i}": F(name) for i, name in enumerate(fields)}}
    inner, params = qs.values(**columns).query.sql_with_params()
    text = " || ' ' || ".join(f"coalesce(r.entity_text_{i}, '')" for i in range(len(fields)))
    sql = (f"SELECT m[1], count(DISTINCT r.entity_row) FROM ({inner}) AS r "
           f"CROSS JOIN LATERAL regexp_matches({text}, %s, 'g') AS m GROUP BY 1")
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, f"({PLACEHOLDER_PATTERN})"])
        return dict(cursor.fetchall())


def entity_counts(*, visibility: Visibility, now: datetime, kind: str | None = None) -> list[EntityCount]:
    """The entities the visible memory mentions, most mentioned first: placeholders with the exchanges, episodes
    and experiences (current ones) that mention them; subjects of current experiences with those items and the
    visible exchanges and episodes they were drawn from."""
    exchanges = Exchange.objects.visible_to(visibility)
    episodes = Episode.objects.visible_to(visibility).filter(status=MemoryStatus.ACTIVE)
    experiences = (Experience.objects.visible_to(visibility).filter(status=MemoryStatus.ACTIVE)
                   .filter(experience_current_q(now)))
    found: dict[tuple[str, str], EntityCount] = {}
    if kind in (None, "placeholder"):
        for attr, qs, model in (("exchanges", exchanges, Exchange), ("episodes", episodes, Episode),
                                ("experiences", experiences, Experience)):
            for value, n in _placeholder_counts(qs, _TEXT_FIELDS[model]).items():
                row = found.setdefault(("placeholder", value), EntityCount("placeholder", value))
                setattr(row, attr, n)
    if kind in (None, "subject"):
        for row in experiences.annotate(key=Lower("subject")).values("key").annotate(n=Count("id")):
            found[("subject", row["key"])] = EntityCount("subject", row["key"], experiences=row["n"])
        evidence = (ExperienceEvidence.objects.filter(experience__in=experiences, exchange__in=exchanges)
                    .annotate(key=Lower("experience__subject")).values("key")
                    .annotate(n=Count("exchange_id", distinct=True)))
        for row in evidence:
            found[("subject", row["key"])].exchanges = row["n"]
        linked = (experiences.filter(episode__in=episodes).annotate(key=Lower("subject")).values("key")
                  .annotate(n=Count("episode_id", distinct=True)))
        for row in linked:
            found[("subject", row["key"])].episodes = row["n"]
    rows = list(found.values())
    for row in rows:
        row.total = row.exchanges + row.episodes + row.experiences
    return sorted(rows, key=lambda r: (-r.total, r.kind, r.value))


def entity_malformed(value: str) -> str | None:
    """Why ``value`` cannot name an entity, or None. A value in angle brackets must be a keyed placeholder (a
    secret's placeholder stands for every secret of its kind: no entity)."""
    text = value.strip()
    if not text:
        return "must not be blank"
    if text.startswith("<") and text.endswith(">") and not PLACEHOLDER_RE.fullmatch(text):
        return "a value in angle brackets must be a placeholder such as <PERSON_3f2a9c>"
    return None
