"""Forget: the right to be forgotten down to the raw exchange, as one act that cannot be undone and is recorded.

:func:`forget` removes what the selectors name (sessions, an agent's sessions, every exchange mentioning a subject)
and everything derived from it:

- **Exchanges** (and the selected sessions) are deleted; their embeddings and ``tsvector`` columns go with the rows.
- **Experiences** built on them: one with evidence left keeps living on it and loses the forgotten provenance
  (evidence links, versions, review-queue copies; support recounted) — unless its own text carries a word that
  only the forgotten exchanges held (then it was written from them, and it is deleted). One with no evidence left,
  or that mentions the subject, is deleted for good with its versions, review items and validity samples.
- **Episodes** built on them are rebuilt (extractively: deterministic, no LLM call) from the sources left, their
  versions deleted; an episode with no source left is deleted.
- A **subject** also loses its vault and registry rows, and every audit reason, search query, edit or proposal
  reason and review note that mentions it is redacted (audit reasons keep their digest: the chain still verifies).
- Stored replies of idempotent requests that carried what was deleted are dropped, and search logs lose the ids.

One audit event says that something was forgotten, by whom, why and how many rows of each kind: never what (no
subject, no text; the ids of the rows removed, which say nothing once the rows are gone).

Visibility: an agent forgets only what it may see (``visible_to``); forgetting what is not its own personal memory
(module or project scope, another agent's sessions, a subject) needs the ``reviewer`` or ``operator`` role. A person
(admin) or the ``purge_subject`` command acts on the whole project.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection, transaction
from django.db.models import Q, TextField
from django.db.models.functions import Cast
from django.utils import timezone

from agents.models import Agent, AgentRole, Project
from agents.visibility import Scope
from core.errors import ApplicationError, NotAllowed, NotFound
from governance.models import AuditEvent, AuditObject, IdempotencyKey
from governance.selectors import placeholders_for_subject
from governance.services.audit import audit_reasons_redact, audit_record
from governance.services.privacy import subject_forget, texts_mask
from memory.gateways.embeddings import get_embedder
from memory.models import (
    Episode,
    EpisodeSource,
    Exchange,
    Experience,
    ExperienceEvidence,
    MemoryVersion,
    ReviewItem,
    SearchLog,
    Session,
    ValiditySample,
)
from memory.services.consolidation import experience_support_update
from memory.services.scheduling import forget_vacuum_enqueue

PURGED = "[purged]"
WIDE_ROLES = (AgentRole.REVIEWER, AgentRole.OPERATOR)
_UNSCOPED = "a forget acts on every row derived from what it removes, whatever its scope"
# A word of a text: a placeholder whole, else a run of letters or digits of 3 or more (shorter ones say nothing).
_WORD = re.compile(r"<[A-Z][A-Z0-9_]*_[0-9a-f]{6}>|[^\W_]{3,}")
_CHUNK = 400


# Every table a forget deletes from or rewrites: their dead row versions still hold the old text (and vectors)
# until VACUUM removes them.
VACUUMED_TABLES = ("memory_exchange", "memory_episode", "memory_experience", "memory_episodesource",
                   "memory_experienceevidence", "memory_memoryversion", "memory_session", "memory_candidate",
                   "memory_candidate_exchanges", "memory_searchlog", "memory_repetitioncheck",
                   "memory_validitysample", "governance_reviewitem", "governance_auditevent",
                   "governance_vaultentry", "governance_pseudonymentry", "governance_idempotencykey")


def forget_tables_vacuum() -> list[str]:
    """``VACUUM (ANALYZE)`` of the tables a forget writes (outside any transaction: VACUUM cannot run inside one;
    inside one, e.g. a synchronous queue in tests, nothing is done). Returns the tables vacuumed."""
    if connection.in_atomic_block:
        return []
    existing = set(connection.introspection.table_names())
    done = [t for t in VACUUMED_TABLES if t in existing]
    with connection.cursor() as cursor:
        for table in done:
            cursor.execute(f"VACUUM (ANALYZE) {connection.ops.quote_name(table)}")
    return done


# --- text helpers ----------------------------------------------------------------------------------------------

def scrub(text: str, terms: Sequence[str]) -> str:
    """``text`` with every mention of ``terms`` (case-insensitive) replaced by ``[purged]``."""
    for term in terms:
        text = re.sub(re.escape(term), PURGED, text, flags=re.IGNORECASE)
    return text


def scrub_json(value: Any, terms: Sequence[str]) -> Any:
    """The same rewrite inside a JSON value (keys and strings), on its JSON text."""
    return json.loads(scrub(json.dumps(value, ensure_ascii=False),
                            [json.dumps(t, ensure_ascii=False)[1:-1] for t in terms]))


def mentions_q(fields: Iterable[str], terms: Sequence[str]) -> Q:
    """Any of ``fields`` contains any of ``terms`` (case-insensitive; a JSON field is compared on its text)."""
    q = Q(pk__in=[])
    for term in terms:
        for f in fields:
            q |= Q(**{f"{f}__icontains": term})
    return q


def _mentions(text: str, terms: Sequence[str]) -> bool:
    low = text.casefold()
    return any(t.casefold() in low for t in terms)


def _words(text: str) -> set[str]:
    return {w if w.startswith("<") else w.casefold() for w in _WORD.findall(text or "")}


def _chunks(values: Sequence[Any], size: int = _CHUNK) -> Iterable[Sequence[Any]]:
    for i in range(0, len(values), size):
        yield values[i:i + size]


def _any_of(values: Iterable[str]) -> str:
    return "|".join(re.escape(v) for v in values)


# --- who may forget what ---------------------------------------------------------------------------------------

def _is_agent(actor: Any) -> bool:
    return isinstance(actor, Agent)


def _base(model, *, actor: Any, project: Project):
    """What the actor may see of ``model`` in ``project``: an agent its visible rows, a person the whole project."""
    if _is_agent(actor):
        return model.objects.visible_to(actor)
    return model.objects.all_scopes_unscoped(why="a person (admin, command) forgets across the project").filter(
        project=project)


def _check_roles(*, actor: Any, wide: bool) -> None:
    if not _is_agent(actor):
        return
    if AgentRole.WRITER not in actor.roles:
        raise NotAllowed("forgetting needs the 'writer' role", code="missing_role",
                         details={"required_role": AgentRole.WRITER.value})
    if wide and not any(r in actor.roles for r in WIDE_ROLES):
        raise NotAllowed("forgetting module or project memory, another agent's memory or a subject needs the "
                         "'reviewer' or 'operator' role", code="missing_role",
                         details={"required_role": [r.value for r in WIDE_ROLES]})


# --- the act ---------------------------------------------------------------------------------------------------

def _session_ids(values: Sequence[Any]) -> list[uuid.UUID]:
    out = []
    for value in values:
        try:
            out.append(uuid.UUID(str(value)))
        except ValueError:
            raise ApplicationError("session_ids must be session ids (UUIDs)", code="invalid_session_id") from None
    return list(dict.fromkeys(out))


def _subject_terms(*, project: Project, subject: str) -> tuple[list[str], set[str]]:
    """The strings that stand for the subject: its placeholders (a clear value is looked up the way masking keys
    it: registry, then vault) and the value itself, longest first."""
    placeholders = placeholders_for_subject(project=project, value=subject)
    return sorted({*placeholders, subject}, key=len, reverse=True), placeholders


class _Elsewhere:
    """Whether a word still occurs in an exchange of the project that is not forgotten (asked once per word)."""

    def __init__(self, *, project: Project, forgotten: set) -> None:
        self.rows = (Exchange.objects.all_scopes_unscoped(why="a word said elsewhere is not a forgotten value")
                     .filter(project=project).exclude(pk__in=forgotten))
        self.known: dict[str, bool] = {}

    def __call__(self, word: str) -> bool:
        if word not in self.known:
            if word.startswith("<"):  # a placeholder is delimited already
                match = Q(user_text__icontains=word) | Q(assistant_text__icontains=word)
            else:  # a whole word: "quorvaxab" is not said by "quorvaxabc"
                pattern = rf"\y{re.escape(word)}\y"
                match = Q(user_text__iregex=pattern) | Q(assistant_text__iregex=pattern)
            self.known[word] = self.rows.filter(match).exists()
        return self.known[word]


def _experience_verdicts(*, experiences: list[Experience], forgotten: set, forgotten_words: set[str],
                         terms: Sequence[str], elsewhere: _Elsewhere) -> tuple[set, set]:
    """(deleted, kept): which touched items have no evidence left or were written from forgotten text."""
    evidence: dict[Any, list[Exchange]] = {}
    for link in (ExperienceEvidence.objects.filter(experience__in=[e.pk for e in experiences])
                 .select_related("exchange").only("experience_id", "exchange__id", "exchange__user_text",
                                                  "exchange__assistant_text")):
        evidence.setdefault(link.experience_id, []).append(link.exchange)
    deleted, kept = set(), set()
    for item in experiences:
        text = f"{item.subject}\n{item.statement}"
        left = [x for x in evidence.get(item.pk, []) if x.pk not in forgotten]
        if not left or (terms and _mentions(text, terms)):
            deleted.add(item.pk)
            continue
        said = set().union(*(_words(f"{x.user_text}\n{x.assistant_text}") for x in left))
        carried = (_words(text) & forgotten_words) - said
        (deleted if any(not elsewhere(w) for w in carried) else kept).add(item.pk)
    return deleted, kept


def _episode_rebuild(*, episode: Episode, sources: list[Exchange], terms: Sequence[str], embedder) -> None:
    """The episode told again from ``sources`` alone (extractive: deterministic, no LLM, no text of the removed
    sources can come back), embedded again."""
    from memory.consolidators.extractive import ExtractiveConsolidator
    from memory.services.consolidation import exchange_unit

    drafts = ExtractiveConsolidator(embedder=embedder).write_episodes(
        units=[exchange_unit(x) for x in sources])
    title = drafts[0].title if drafts else episode.title
    narrative = " ".join(d.narrative for d in drafts if d.narrative)
    episode.title = scrub(title, terms)[:300] if terms else title[:300]
    episode.narrative = scrub(narrative, terms) if terms else narrative
    times = [x.occurred_at for x in sources if x.occurred_at]
    episode.started_at, episode.ended_at = (min(times), max(times)) if times else (None, None)
    episode.embedding = embedder.embed_one(f"{episode.title}\n{episode.narrative}")
    episode.embedding_model = embedder.model_id
    episode.version += 1
    episode.updated_at = timezone.now()
    episode.save()


def _review_items_clean(*, project: Project, forgotten: set[str], sessions: set[str], deleted_items: set[str],
                        terms: Sequence[str]) -> list[Any]:
    """Review items that survive lose the forgotten exchanges from their evidence copies, the deleted items from
    their similar lists, the deleted sessions from their session lists, and every mention of the subject."""
    changed = []
    for item in ReviewItem.objects.filter(project=project).iterator(chunk_size=500):
        before = (item.evidence, item.other_evidence, item.similar, item.evidence_sessions, item.proposed_statement,
                  item.proposed_change, item.proposal_reason, item.decision_reason)
        item.evidence = [e for e in item.evidence or [] if str(e.get("id")) not in forgotten]
        item.other_evidence = [e for e in item.other_evidence or [] if str(e.get("id")) not in forgotten]
        item.similar = [s for s in item.similar or [] if str(s.get("id")) not in deleted_items]
        item.evidence_sessions = [s for s in item.evidence_sessions or [] if str(s) not in sessions]
        if terms:
            item.evidence, item.other_evidence = scrub_json(item.evidence, terms), scrub_json(item.other_evidence,
                                                                                               terms)
            item.similar, item.proposed_change = scrub_json(item.similar, terms), scrub_json(item.proposed_change,
                                                                                              terms)
            item.proposed_statement = scrub(item.proposed_statement, terms)
            item.proposal_reason, item.decision_reason = (scrub(item.proposal_reason, terms),
                                                          scrub(item.decision_reason, terms))
        after = (item.evidence, item.other_evidence, item.similar, item.evidence_sessions, item.proposed_statement,
                 item.proposed_change, item.proposal_reason, item.decision_reason)
        if after != before:
            item.corroborating_sessions = min(item.corroborating_sessions, len(item.evidence_sessions)) \
                if before[3] != item.evidence_sessions else item.corroborating_sessions
            item.save(update_fields=["evidence", "other_evidence", "similar", "evidence_sessions",
                                     "proposed_statement", "proposed_change", "proposal_reason", "decision_reason",
                                     "corroborating_sessions"])
            changed.append(item.pk)
    return changed


def _search_logs_clean(*, project: Project, sessions: set, removed: list[str]) -> tuple[int, int]:
    """Search logs of the forgotten sessions are deleted; the others lose the ids of what no longer exists."""
    deleted = SearchLog.objects.filter(project=project, session_id__in=sessions).delete()[0] if sessions else 0
    rewritten = 0
    gone = set(removed)
    for chunk in _chunks(removed):
        pattern = _any_of(chunk)
        rows = SearchLog.objects.filter(project=project).annotate(
            r=Cast("returned", TextField()), u=Cast("used", TextField()), c=Cast("cited", TextField())).filter(
            Q(r__regex=pattern) | Q(u__regex=pattern) | Q(c__regex=pattern))
        for log in rows:
            log.returned = [h for h in log.returned if str(h.get("id") if isinstance(h, dict) else h) not in gone]
            log.used = [i for i in log.used if str(i) not in gone]
            log.cited = [i for i in log.cited if str(i) not in gone]
            log.save(update_fields=["returned", "used", "cited"])
            rewritten += 1
    return deleted, rewritten


def _replies_drop(*, project: Project, patterns: list[str]) -> int:
    """Stored replies of idempotent requests that carry a removed id or the subject (a search answer holds text)."""
    dropped = 0
    agents = Agent.objects.filter(project=project).values("pk")
    for chunk in _chunks(patterns):
        dropped += IdempotencyKey.objects.filter(agent__in=agents, response_body__iregex=_any_of(chunk)).delete()[0]
    return dropped


@transaction.atomic
def forget(*, project: Project, reason: str, actor: Any = None, session_ids: Sequence[Any] | None = None,
           agent: Agent | None = None, subject: str | None = None, embedder=None) -> dict[str, int]:
    """Forget, for good, what the selectors name (their union) and everything derived from it (module docstring).

    ``actor``: the agent asking (it forgets only what it may see), a person (the admin) or None (a command).
    ``session_ids``: sessions; ``agent``: every session of that agent; ``subject``: a placeholder or a clear value
    (every exchange mentioning it, and its vault, registry and audit mentions). Returns the counts of what was
    deleted and rewritten, as the one audit event records them. Unknown or foreign sessions and agents: NotFound
    (nothing changes); a subject nothing mentions: NotFound."""
    reason = (reason or "").strip()
    if not reason:
        raise ApplicationError("say why (reason): it is kept in the audit trail", code="reason_required")
    if not (session_ids or agent is not None or subject):
        raise ApplicationError("name what to forget: session_ids, agent or subject", code="selector_required")
    if _is_agent(actor) and actor.project_id != project.pk:
        raise NotFound("no such project", code="not_found")
    embedder = embedder or get_embedder()
    # The reason is caller input like any other text: masked before it is kept (and, for a subject, masked before
    # the subject's registry rows are looked up, so a name said only in the reason is forgotten with the rest).
    reason = texts_mask(project=project, texts=[reason])[0]

    sessions: set = set()
    if session_ids:
        wanted = _session_ids(session_ids)
        sessions = set(_base(Session, actor=actor, project=project).filter(pk__in=wanted)
                       .values_list("pk", flat=True))
        if len(sessions) != len(wanted):
            raise NotFound("no such session", code="session_not_found")
    if agent is not None:
        if agent.project_id != project.pk:
            raise NotFound("no such agent", code="agent_not_found")
        sessions |= set(_base(Session, actor=actor, project=project).filter(owner_agent=agent)
                        .values_list("pk", flat=True))
    terms: list[str] = []
    placeholders: set[str] = set()
    if subject is not None:
        subject = subject.strip()
        if len(subject) < 3:
            raise ApplicationError("subject must have at least 3 characters", code="invalid_subject")
        terms, placeholders = _subject_terms(project=project, subject=subject)

    chosen = Q(session_id__in=sessions)
    if terms:
        chosen |= mentions_q(["user_text", "assistant_text", "text_form", "metadata"], terms)
    exchanges = list(_base(Exchange, actor=actor, project=project).filter(chosen)
                     .only("pk", "session_id", "scope", "owner_agent_id", "user_text", "assistant_text"))
    forgotten = {x.pk for x in exchanges}
    session_rows = list(Session.objects.filter(pk__in=sessions).only("pk", "scope", "owner_agent_id"))
    own = all(r.scope == Scope.PERSONAL and r.owner_agent_id == getattr(actor, "pk", None)
              for r in [*exchanges, *session_rows])
    _check_roles(actor=actor, wide=bool(terms) or (agent is not None and agent != actor) or not own)

    forgotten_words = set().union(*(_words(f"{x.user_text}\n{x.assistant_text}") for x in exchanges))
    elsewhere = _Elsewhere(project=project, forgotten=forgotten)
    touched_items = set(ExperienceEvidence.objects.filter(exchange_id__in=forgotten)
                        .values_list("experience_id", flat=True))
    touched_episodes = set(EpisodeSource.objects.filter(exchange_id__in=forgotten)
                           .values_list("episode_id", flat=True))
    if terms:
        touched_items |= set(_base(Experience, actor=actor, project=project)
                             .filter(mentions_q(["statement", "subject"], terms)).values_list("pk", flat=True))
        touched_items |= set(MemoryVersion.objects.filter(experience__in=_base(Experience, actor=actor,
                                                                               project=project))
                             .filter(mentions_q(["snapshot"], terms)).values_list("experience_id", flat=True))
        touched_episodes |= set(_base(Episode, actor=actor, project=project)
                                .filter(mentions_q(["title", "narrative"], terms)).values_list("pk", flat=True))
        touched_episodes |= set(MemoryVersion.objects.filter(episode__in=_base(Episode, actor=actor,
                                                                               project=project))
                                .filter(mentions_q(["snapshot"], terms)).values_list("episode_id", flat=True))
    items = list(Experience.objects.filter(pk__in=touched_items))
    gone_items, kept_items = _experience_verdicts(experiences=items, forgotten=forgotten,
                                                  forgotten_words=forgotten_words, terms=terms, elsewhere=elsewhere)

    counts: dict[str, int] = {}
    named: set[str] = {*map(str, sessions), *map(str, forgotten), *map(str, touched_items),
                       *map(str, touched_episodes)}
    # Rows of other items that point at what is deleted (their links are cleared by the cascade): named too.
    named |= {str(pk) for pk in Experience.objects.filter(
        Q(superseded_by__in=gone_items) | Q(episode__in=touched_episodes)).values_list("pk", flat=True)}
    doomed_reviews = ReviewItem.objects.filter(Q(experience__in=gone_items) | Q(other_experience__in=gone_items))
    named |= {str(pk) for pk in doomed_reviews.values_list("pk", flat=True)}
    named |= {str(pk) for pk in ReviewItem.objects.filter(Q(approved_experience__in=gone_items)
                                                          | Q(previous__in=doomed_reviews))
              .values_list("pk", flat=True)}
    named |= {str(pk) for pk in ValiditySample.objects.filter(experience__in=gone_items).values_list("pk", flat=True)}

    # Survivors: the forgotten provenance goes (links, versions that may hold its text); support is recounted
    # once the exchanges are gone.
    survivors = list(Experience.objects.filter(pk__in=kept_items))
    counts["versions_deleted"] = MemoryVersion.objects.filter(experience__in=kept_items).delete()[0]
    deleted = Experience.objects.filter(pk__in=gone_items).delete()[1]
    counts["experiences_deleted"] = deleted.get("memory.Experience", 0)
    counts["review_items_deleted"] = deleted.get("memory.ReviewItem", 0)
    counts["validity_samples_deleted"] = deleted.get("memory.ValiditySample", 0)
    counts["versions_deleted"] += deleted.get("memory.MemoryVersion", 0)
    counts["experiences_kept"] = len(survivors)

    episodes = list(Episode.objects.filter(pk__in=touched_episodes))
    sources: dict[Any, list[Exchange]] = {}
    for link in (EpisodeSource.objects.filter(episode__in=touched_episodes).exclude(exchange_id__in=forgotten)
                 .select_related("exchange__session")):
        sources.setdefault(link.episode_id, []).append(link.exchange)
    empty = [ep.pk for ep in episodes if not sources.get(ep.pk)]
    rebuilt = [ep for ep in episodes if sources.get(ep.pk)]
    counts["versions_deleted"] += MemoryVersion.objects.filter(episode__in=touched_episodes).delete()[0]
    counts["episodes_deleted"] = Episode.objects.filter(pk__in=empty).delete()[1].get("memory.Episode", 0)
    for ep in rebuilt:
        _episode_rebuild(episode=ep, sources=sorted(sources[ep.pk], key=lambda x: (x.occurred_at, x.turn_index)),
                         terms=terms, embedder=embedder)
    counts["episodes_rebuilt"] = len(rebuilt)

    counts["search_logs_deleted"], counts["search_logs_rewritten"] = _search_logs_clean(
        project=project, sessions=sessions, removed=[str(pk) for pk in (*forgotten, *gone_items, *empty)])
    counts["exchanges_deleted"] = Exchange.objects.filter(pk__in=forgotten).delete()[1].get("memory.Exchange", 0)
    counts["sessions_deleted"] = Session.objects.filter(pk__in=sessions).delete()[1].get("memory.Session", 0)
    for item in survivors:
        experience_support_update(experience=item)

    reviews = _review_items_clean(project=project, forgotten={str(pk) for pk in forgotten},
                                  sessions={str(pk) for pk in sessions}, deleted_items={str(pk) for pk in gone_items},
                                  terms=terms)
    named |= {str(pk) for pk in reviews}
    counts["review_items_rewritten"] = len(reviews)
    counts["sessions_rewritten"] = counts["validity_notes_rewritten"] = 0
    if terms:
        rows = list(_base(Session, actor=actor, project=project).filter(mentions_q(["external_id", "metadata"],
                                                                                   terms)))
        for row in rows:
            row.external_id, row.metadata = scrub(row.external_id, terms), scrub_json(row.metadata, terms)
        Session.objects.bulk_update(rows, ["external_id", "metadata"])
        counts["sessions_rewritten"] = len(rows)
        named |= {str(r.pk) for r in rows}
        notes = list(ValiditySample.objects.filter(project=project).filter(mentions_q(["note"], terms)))
        for sample in notes:
            sample.note = scrub(sample.note, terms)
        ValiditySample.objects.bulk_update(notes, ["note"])
        counts["validity_notes_rewritten"] = len(notes)
        named |= {str(s.pk) for s in notes}
        counts["audit_reasons_redacted"] = audit_reasons_redact(project=project, terms=terms)
        counts.update(subject_forget(project=project, placeholders=placeholders))
    counts["stored_replies_deleted"] = _replies_drop(
        project=project, patterns=[*(str(pk) for pk in (*forgotten, *gone_items, *empty)), *terms])
    if terms and not any(counts.values()):
        raise NotFound("nothing you may see mentions that subject", code="subject_not_found")

    transaction.on_commit(forget_vacuum_enqueue)
    selectors = [name for name, given in (("session_ids", session_ids), ("agent", agent is not None),
                                          ("subject", bool(terms))) if given]
    types = sorted({p[1:-1].rsplit("_", 1)[0] for p in placeholders})
    user = None if actor is None or _is_agent(actor) else actor
    audit_record(action=AuditEvent.Action.PURGE, object_type=AuditObject.FORGET, project=project,
                 actor_agent=actor if _is_agent(actor) else None, actor_user=user,
                 actor_label="" if actor is not None else "system:forget",
                 scope=Scope.PERSONAL if own and not terms and (agent is None or agent == actor) else Scope.PROJECT,
                 reason=scrub(reason, terms) if terms else reason,
                 source_ids=sorted(named), data={"selectors": selectors, "entity_types": types, **counts})
    return counts
