"""The reviewer's reads: the closest existing rules above the similarity cut-off, a word diff, open conflicts on
the same item and the earlier rejection (the admin decide page), and the similar items stored with a proposal."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Q
from pgvector.django import CosineDistance

from agents.visibility import ScopeKey
from core.config import config
from memory.models import Experience, MemoryStatus, ReviewItem
from memory.search.vector import nearest_scan


def word_diff(old: str, new: str) -> list[tuple[str, str]]:
    """A word-level diff as (op, words) pairs, op in equal / delete / insert."""
    a, b = old.split(), new.split()
    parts: list[tuple[str, str]] = []
    for op, a1, a2, b1, b2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if op in ("delete", "replace"):
            parts.append(("delete", " ".join(a[a1:a2])))
        if op in ("insert", "replace"):
            parts.append(("insert", " ".join(b[b1:b2])))
        if op == "equal":
            parts.append(("equal", " ".join(a[a1:a2])))
    return parts


@dataclass
class ReviewDetails:
    agents: list[str]
    sessions: list[str]
    first_at: str | None
    last_at: str | None
    closest: dict | None  # {"id", "statement", "similarity", "diff"} above the cut-off, else None
    similar: list[dict]
    conflicts: list[Any]  # other review items of kind conflict on the same item
    previous: Any  # the earlier rejected proposal, when this one is asked again
    # A pending proposal whose item (or a conflict's old item) changed since — superseded, deleted: the decision
    # that would bring it back is refused (memory/review/services.py); what to do, and what replaced it.
    outdated: str = ""
    replaced_by: Any = None


def review_similar(*, experience: Experience, target, limit: int = 5) -> list[dict]:
    """Active items of scope ``target`` at least RECMEM_REVIEW_SIMILAR_MIN similar to ``experience``, nearest first:
    what a reviewer compares a proposal with (below the cut-off an item is not "similar", it is noise)."""
    cutoff = config().governance.review_similar_min
    # Exact: one scope's active rules are few, and under HNSW the scope's nearest rule was missed once other scopes'
    # items (or the index's dead entries) came first (seen in CI: no diff against a rule at 0.9).
    with transaction.atomic(), nearest_scan(Experience, exact=True):
        rows = list(Experience.objects.in_scope(target).filter(status=MemoryStatus.ACTIVE).exclude(pk=experience.pk)
                    .annotate(distance=CosineDistance("embedding", experience.embedding))
                    .order_by("distance")[:limit])
    return [{"id": str(r.pk), "statement": r.statement, "type": r.type, "similarity": round(1 - float(r.distance), 3)}
            for r in rows if 1 - float(r.distance) >= cutoff]


def review_item_details(*, item) -> ReviewDetails:
    """What a reviewer needs to decide one item: who proposed it and when, the closest existing rule above the
    similarity cut-off (RECMEM_REVIEW_SIMILAR_MIN) with a word diff, open conflicts on the same item, and the
    earlier rejection it follows. Read live, so the comparison is with the rules as they are now."""
    evidence = item.evidence or []
    agents = sorted({e.get("agent") or e.get("agent_id") or "?" for e in evidence})
    sessions = sorted({e["session"] for e in evidence if e.get("session")})
    times = sorted(e["occurred_at"] for e in evidence if e.get("occurred_at"))
    if item.kind == ReviewItem.Kind.QUARANTINE:  # the held row and its evidence are the whole story
        return ReviewDetails(agents=agents, sessions=sessions, first_at=times[0] if times else None,
                             last_at=times[-1] if times else None, closest=None, similar=[], conflicts=[],
                             previous=None)
    if item.kind in (ReviewItem.Kind.CHANGE, ReviewItem.Kind.DELETION):
        # An agent's edit of a shared item: compared with the item as it is now.
        current = item.experience
        closest = {"id": str(current.pk), "statement": current.statement, "similarity": None,
                   "diff": word_diff(current.statement, item.proposed_statement)}
        similar = []
    elif item.kind == ReviewItem.Kind.CONFLICT and item.other_experience is not None:
        other = item.other_experience
        closest = {"id": str(other.pk), "statement": other.statement, "similarity": None,
                   "diff": word_diff(other.statement, item.proposed_statement)}
        similar = []
    else:
        target = ScopeKey.for_scope(project_id=item.project_id, scope=item.proposed_scope,
                                    module_id=item.proposed_module_id)
        similar = review_similar(experience=item.experience, target=target)
        closest = ({**similar[0], "diff": word_diff(similar[0]["statement"], item.proposed_statement)}
                   if similar else None)
    outdated, replaced_by = "", None
    if item.kind in (ReviewItem.Kind.PROMOTION, ReviewItem.Kind.CONFLICT) and item.experience_id \
            and item.status in (ReviewItem.Status.PENDING, ReviewItem.Status.NEEDS_EVIDENCE):
        other = item.other_experience if item.kind == ReviewItem.Kind.CONFLICT else None
        if item.experience.status != MemoryStatus.ACTIVE:
            outdated = (f"The proposed item is {item.experience.status} since it was proposed: approving it is "
                        "refused; reject or dismiss this proposal.")
            replaced_by = item.experience.superseded_by
        elif other is not None and other.status != MemoryStatus.ACTIVE:
            outdated = (f"The old item is {other.status} since the conflict was raised: keeping it is refused; keep "
                        "the new one, or both.")
            replaced_by = other.superseded_by
    conflicts = list(ReviewItem.objects.filter(kind=ReviewItem.Kind.CONFLICT)
                     .filter(Q(experience_id=item.experience_id) | Q(other_experience_id=item.experience_id))
                     .exclude(pk=item.pk).select_related("experience", "other_experience"))
    return ReviewDetails(agents=agents, sessions=sessions, first_at=times[0] if times else None,
                         last_at=times[-1] if times else None, closest=closest, similar=similar,
                         conflicts=conflicts, previous=item.previous, outdated=outdated, replaced_by=replaced_by)


# A status reads differently per kind: "approved" of a conflict means the new item was kept.
_STATUS_BY_KIND = {
    ReviewItem.Kind.CONFLICT: {ReviewItem.Status.APPROVED: "new one kept", ReviewItem.Status.REJECTED: "old one kept",
                               ReviewItem.Status.DISMISSED: "both kept"},
    ReviewItem.Kind.CHANGE: {ReviewItem.Status.APPROVED: "change applied",
                             ReviewItem.Status.REJECTED: "change refused"},
    ReviewItem.Kind.DELETION: {ReviewItem.Status.APPROVED: "deleted", ReviewItem.Status.REJECTED: "deletion refused"},
    ReviewItem.Kind.QUARANTINE: {ReviewItem.Status.APPROVED: "released",
                                 ReviewItem.Status.REJECTED: "kept quarantined"},
}
_STATUS_PLAIN = {ReviewItem.Status.PENDING: "pending", ReviewItem.Status.APPROVED: "approved",
                 ReviewItem.Status.REJECTED: "rejected", ReviewItem.Status.DISMISSED: "dismissed",
                 ReviewItem.Status.NEEDS_EVIDENCE: "needs more evidence",
                 ReviewItem.Status.ROLLED_BACK: "undone by a rollback"}


def review_status_label(item: ReviewItem) -> str:
    """The status in the words of the item's kind (one label for two kinds confused reviewers)."""
    return _STATUS_BY_KIND.get(item.kind, {}).get(item.status) or _STATUS_PLAIN.get(item.status, item.status)


def review_item_current_text(item: ReviewItem) -> str:
    """What the item says now: the approved (possibly edited) statement once approved, the item's own current text
    while it waits (an agent may have edited it since it was proposed), the proposal otherwise."""
    if item.status == ReviewItem.Status.APPROVED and item.approved_experience_id:
        return item.approved_experience.statement
    if item.kind in (ReviewItem.Kind.CHANGE, ReviewItem.Kind.QUARANTINE):
        return item.proposed_statement  # the change itself, or the held text, is what is decided
    if item.experience_id and item.experience.status == MemoryStatus.ACTIVE:
        return item.experience.statement
    return item.proposed_statement


def review_next_pending(*, after: ReviewItem) -> ReviewItem | None:
    """The pending item a reviewer meets next: the same project's oldest first, then any project's."""
    pending = ReviewItem.objects.filter(status=ReviewItem.Status.PENDING).exclude(pk=after.pk).order_by("created_at")
    return pending.filter(project_id=after.project_id).first() or pending.first()
