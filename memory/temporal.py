"""Validity in time: when an item stops holding (its successor's start, or an expiry it stated), what retrieval
shows by default (what holds now) and what it shows ``as_of`` a past instant (what was believed then).

An experience holds from ``valid_from`` (undated: from its creation) to ``valid_to`` (open: still holds). Status is
not changed by an expiry: an expired item stays ``active`` and is left out by :func:`experience_current_q`; a
superseded one has ``valid_to`` set as well, so a read ``as_of`` inside its window still finds it.
"""

from __future__ import annotations

from datetime import datetime

from django.db.models import Q

from memory.models import MemoryStatus

# What an ``as_of`` read may return besides active items: one superseded since was current then. Deleted, rolled
# back and archived items stay out (a person undid or removed them; they are not "what was believed").
AS_OF_STATUSES = (MemoryStatus.ACTIVE, MemoryStatus.SUPERSEDED)


def supersede_end(*, loser, winner, now: datetime) -> datetime:
    """When ``loser`` stopped holding because ``winner`` replaced it: where the winner starts when that is after
    the loser's own start (the change is dated), else now (the winner won on other grounds: the loser held until it
    was decided). Never later than an expiry the loser already had."""
    start = loser.valid_from or loser.created_at
    successor = winner.valid_from or winner.created_at
    end = successor if successor is not None and (start is None or successor > start) else now
    return min(end, loser.valid_to) if loser.valid_to is not None else end


def experience_current_q(now: datetime) -> Q:
    """Experiences that have not expired at ``now`` (status is filtered separately)."""
    return Q(valid_to__isnull=True) | Q(valid_to__gt=now)


def experience_as_of_q(as_of: datetime) -> Q:
    """Experiences that were current at ``as_of``: written by then, started by then, not yet ended."""
    return (Q(status__in=AS_OF_STATUSES, created_at__lte=as_of)
            & (Q(valid_from__isnull=True) | Q(valid_from__lte=as_of))
            & (Q(valid_to__isnull=True) | Q(valid_to__gt=as_of)))


def episode_as_of_q(as_of: datetime) -> Q:
    """Episodes written by ``as_of`` and not since undone or removed. Their text is as it is now (a merge rewrites
    the narrative in place; earlier texts are kept in their versions, not served)."""
    return Q(status=MemoryStatus.ACTIVE, created_at__lte=as_of) & (Q(started_at__isnull=True)
                                                                    | Q(started_at__lte=as_of))


def exchange_as_of_q(as_of: datetime) -> Q:
    """Exchanges that had happened and been stored by ``as_of``."""
    return Q(occurred_at__lte=as_of, created_at__lte=as_of)
