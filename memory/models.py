"""What is remembered: sessions, exchanges (the subconscious layer), candidates, episodes and experiences.

Every memory row is *scoped* (personal / module / project) and carries project, owner agent and module, so one
place (:meth:`agents.visibility.ScopedQuerySet.visible_to`) decides visibility for all of them.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVectorField
from django.db import models
from django.utils import timezone
from pgvector.django import HnswIndex, VectorField

from agents.visibility import Scope, ScopedQuerySet
from memory.search.lexical import LexicalVector
from memory.trust import SensitiveMatch, Source, Trust, sensitive_pattern

EMBEDDING_DIMENSIONS = 384  # one vector width across models (OpenAI models are asked for dimensions=384)


def search_vector_field(*fields: str) -> models.GeneratedField:
    """The full-text half of hybrid search (memory/search/lexical.py): computed by PostgreSQL in the statement that
    writes the row, so text and ``tsvector`` never disagree."""
    return models.GeneratedField(expression=LexicalVector(*fields), output_field=SearchVectorField(),
                                 db_persist=True)


class ScopedModel(models.Model):
    project = models.ForeignKey("agents.Project", on_delete=models.CASCADE, related_name="+")
    owner_agent = models.ForeignKey("agents.Agent", on_delete=models.CASCADE, related_name="+")
    module = models.ForeignKey("agents.Module", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    scope = models.CharField(max_length=16, choices=Scope.choices, default=Scope.PERSONAL)

    objects = ScopedQuerySet.as_manager()

    class Meta:
        abstract = True


class QuarantineFields(models.Model):
    """Held for review (memory/quarantine/): shown to nobody but its author until a reviewer releases it."""

    quarantined = models.BooleanField(default=False, db_index=True,
                                      help_text="held: instruction-like or exfiltrating text, until a reviewer "
                                                "releases it")
    quarantine_reason = models.CharField(max_length=300, blank=True, default="",
                                         help_text="why the detector flagged it (kept after a release)")

    class Meta:
        abstract = True


class Session(ScopedModel):
    class Status(models.TextChoices):
        OPEN = "open"
        CLOSED = "closed"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    external_id = models.CharField(max_length=200, blank=True, default="")
    metadata = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    started_at = models.DateTimeField(default=timezone.now)
    closed_at = models.DateTimeField(null=True, blank=True)
    next_turn_index = models.PositiveIntegerField(default=0)
    replayed_at = models.DateTimeField(null=True, blank=True, help_text="when an idle run last finished replaying it")
    # The idle replay cursor: turns below this index have been replayed (a session that grows is replayed again
    # from here; a run that stops early leaves it where it was).
    replay_cursor = models.PositiveIntegerField(default=0, help_text="turns replayed by idle runs")
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["-started_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["owner_agent", "external_id"], condition=~models.Q(external_id=""),
                                    name="session_unique_external_id_per_agent"),
        ]
        indexes = [models.Index(fields=["project", "owner_agent", "status"])]

    def __str__(self) -> str:
        return self.external_id or str(self.id)


class Exchange(ScopedModel, QuarantineFields):
    """One masked user/assistant exchange: the subconscious unit, searchable as soon as it is stored."""

    class State(models.TextChoices):
        RAW = "raw", "raw (not ripe)"
        CANDIDATE = "candidate", "candidate (waiting for consolidation)"
        CONSOLIDATED = "consolidated"
        # A rollback holds its exchanges back: the next write on the topic must not rebuild what a person undid.
        HELD = "held", "held (rolled back: excluded until released or new evidence arrives)"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="exchanges")
    turn_index = models.PositiveIntegerField()
    user_text = models.TextField(blank=True, default="")
    assistant_text = models.TextField(blank=True, default="")
    text_form = models.TextField(help_text="what was embedded: timestamp and speaker tags + masked texts")
    occurred_at = models.DateTimeField(default=timezone.now)
    metadata = models.JSONField(default=dict, blank=True)
    embedding = VectorField(dimensions=EMBEDDING_DIMENSIONS)
    embedding_model = models.CharField(max_length=120)
    search_vector = search_vector_field("user_text", "assistant_text")
    state = models.CharField(max_length=16, choices=State.choices, default=State.RAW, db_index=True)
    salience = models.CharField(max_length=64, blank=True, default="", help_text="why a one-off unit is critical")
    # Declared by the agent on ingest (memory/trust.py): what the texts are — a conversation, a tool's output, the
    # agent's own note, an import.
    source = models.CharField(max_length=16, choices=Source.choices, default=Source.CONVERSATION)
    tool = models.CharField(max_length=100, blank=True, default="", help_text="source tool: the tool's name")
    consolidated_batch = models.ForeignKey("governance.ConsolidationBatch", on_delete=models.SET_NULL, null=True,
                                           blank=True, related_name="consolidated_exchanges")
    held_batch = models.ForeignKey("governance.ConsolidationBatch", on_delete=models.SET_NULL, null=True,
                                   blank=True, related_name="held_exchanges",
                                   help_text="the rolled-back batch that holds this exchange back")
    hit_count = models.PositiveIntegerField(default=0)
    last_hit_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["session", "turn_index"]
        constraints = [models.UniqueConstraint(fields=["session", "turn_index"], name="exchange_unique_turn")]
        indexes = [
            HnswIndex(name="exchange_embedding_hnsw", fields=["embedding"], m=16, ef_construction=64,
                      opclasses=["vector_cosine_ops"]),
            GinIndex(name="exchange_search_gin", fields=["search_vector"]),
            models.Index(fields=["project", "owner_agent", "state"]),
            models.Index(fields=["project", "occurred_at"]),
            # An agent's held exchanges, scanned exactly at each of its ingests (_restatements_held): few rows.
            models.Index(fields=["owner_agent"], condition=models.Q(quarantined=True), name="exchange_held_by_agent"),
        ]

    def __str__(self) -> str:
        return f"{self.session_id}#{self.turn_index}"


EXCHANGE_COUNT_SLOTS = 16


class ExchangeCount(models.Model):
    """How many exchanges a project stores, kept by PostgreSQL itself (statement triggers on ``memory_exchange``,
    migration 0022) so the exchange quota reads a few rows instead of counting the project's exchanges on every
    ingest (at 1M exchanges that count cost 30–50 ms per request; bench_scale). A project's count is the
    sum over its slots; each database session adds to its own slot (backend pid modulo ``EXCHANGE_COUNT_SLOTS``), so
    concurrent ingests into one project do not queue on one row. Every insert and delete is counted whichever path
    makes it (ORM, cascade, COPY); exchanges never move between projects. Not a foreign key: a project's deletion
    removes its exchanges first, and the triggers must still be able to write their decrements."""

    project_id = models.UUIDField()
    slot = models.SmallIntegerField()
    exchanges = models.BigIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["project_id", "slot"], name="exchange_count_unique_slot")]

    def __str__(self) -> str:
        return f"{self.project_id}[{self.slot}] = {self.exchanges}"


class Candidate(models.Model):
    """A ripe topic (R ∪ {u}) or a salient one-off unit waiting for consolidation."""

    class Reason(models.TextChoices):
        RECURRENCE = "recurrence"
        SALIENCE = "salience"
        EAGER = "eager"
        MANUAL = "manual"
        UPDATE = "update"  # close to a consolidated topic: merged into it in the next pass

    class Status(models.TextChoices):
        PENDING = "pending"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed", "failed (attempts exhausted)"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    project = models.ForeignKey("agents.Project", on_delete=models.CASCADE, related_name="+")
    agent = models.ForeignKey("agents.Agent", on_delete=models.CASCADE, related_name="+")
    trigger = models.ForeignKey(Exchange, on_delete=models.CASCADE, related_name="triggered_candidates")
    exchanges = models.ManyToManyField(Exchange, related_name="candidates")
    reason = models.CharField(max_length=16, choices=Reason.choices)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING, db_index=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True, default="")
    batch = models.ForeignKey("governance.ConsolidationBatch", on_delete=models.SET_NULL, null=True, blank=True,
                              related_name="candidates")
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["created_at"]
        indexes = [models.Index(fields=["agent", "status"])]

    def __str__(self) -> str:
        return f"{self.reason} candidate {str(self.id)[:8]} ({self.status})"


class MemoryStatus(models.TextChoices):
    ACTIVE = "active"
    SUPERSEDED = "superseded"
    DELETED = "deleted"
    ROLLED_BACK = "rolled_back", "rolled back"
    ARCHIVED = "archived"


#: ``source_agent`` of an item drawn from the exchanges of several agents
SEVERAL_AGENTS = uuid.UUID(int=0)


def source_agent_field() -> models.UUIDField:
    # Kept by database triggers on the source and evidence tables (migration 0029), so every write path — consolidation,
    # merges, review, rollback, forget — keeps it right: the search's rule on another agent's items
    # (RECMEM_SEARCH_PEER_ITEMS=trusted) is then one comparison per row instead of correlated subqueries in the scan.
    return models.UUIDField(
        null=True, blank=True, editable=False,
        help_text="the one agent whose exchanges it was drawn from (all-zero: several; empty: none)")


class Episode(ScopedModel, QuarantineFields):
    """A chronological narrative of one ongoing situation, linked to every source exchange."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    title = models.CharField(max_length=300)
    narrative = models.TextField()
    embedding = VectorField(dimensions=EMBEDDING_DIMENSIONS)
    embedding_model = models.CharField(max_length=120)
    search_vector = search_vector_field("title", "narrative")
    status = models.CharField(max_length=16, choices=MemoryStatus.choices, default=MemoryStatus.ACTIVE,
                              db_index=True)
    sources = models.ManyToManyField(Exchange, through="EpisodeSource", related_name="episodes")
    started_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    version = models.PositiveIntegerField(default=1)
    batch = models.ForeignKey("governance.ConsolidationBatch", on_delete=models.SET_NULL, null=True, blank=True,
                              related_name="episodes", help_text="the batch that created it")
    trust = models.CharField(max_length=16, choices=Trust.choices, default=Trust.USER,
                             help_text="what its evidence earns (memory/trust.py)")
    source_agent = source_agent_field()
    hit_count = models.PositiveIntegerField(default=0)
    last_hit_at = models.DateTimeField(null=True, blank=True)
    archived_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-updated_at", "id"]
        indexes = [
            HnswIndex(name="episode_embedding_hnsw", fields=["embedding"], m=16, ef_construction=64,
                      opclasses=["vector_cosine_ops"]),
            GinIndex(name="episode_search_gin", fields=["search_vector"]),
            models.Index(fields=["project", "scope", "status"]),
        ]

    def __str__(self) -> str:
        return self.title


class EpisodeSource(models.Model):
    episode = models.ForeignKey(Episode, on_delete=models.CASCADE)
    exchange = models.ForeignKey(Exchange, on_delete=models.CASCADE)
    batch = models.ForeignKey("governance.ConsolidationBatch", on_delete=models.CASCADE, null=True, blank=True,
                              related_name="+")

    class Meta:
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["episode", "exchange"], name="episode_source_unique")]

    def __str__(self) -> str:
        return f"{self.episode_id} <- {self.exchange_id}"


class ExperienceType(models.TextChoices):
    FACT = "fact"
    EVENT = "event"
    PREFERENCE = "preference"
    CONSTRAINT = "constraint"
    LESSON = "lesson"
    PATTERN = "pattern"
    PROCEDURE = "procedure"


class Experience(ScopedModel, QuarantineFields):
    """A typed semantic entry (fact, preference, constraint, …) with evidence links to exchanges."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    type = models.CharField(max_length=16, choices=ExperienceType.choices, db_index=True)
    subject = models.CharField(max_length=300)
    statement = models.TextField()
    embedding = VectorField(dimensions=EMBEDDING_DIMENSIONS)
    embedding_model = models.CharField(max_length=120)
    search_vector = search_vector_field("statement")
    confidence = models.FloatField(default=0.6)
    # How much a statement says (memory/informativeness.py, 0–1): ranks it, and a search leaves out items below
    # RECMEM_EXPERIENCE_FLOOR so greetings and reassurance do not take the slots of facts.
    informativeness = models.FloatField(default=0.5)
    verified = models.BooleanField(default=False)
    valid_from = models.DateTimeField(null=True, blank=True)
    # When it stopped holding: its successor's start when superseded, or an expiry it stated ("until Friday").
    # Past it the item leaves retrieval (status unchanged); ``as_of`` reads still find it inside its window.
    valid_to = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=16, choices=MemoryStatus.choices, default=MemoryStatus.ACTIVE,
                              db_index=True)
    superseded_by = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True,
                                      related_name="supersedes")
    evidence = models.ManyToManyField(Exchange, through="ExperienceEvidence", related_name="experiences")
    episode = models.ForeignKey(Episode, on_delete=models.SET_NULL, null=True, blank=True,
                                related_name="experiences")
    version = models.PositiveIntegerField(default=1)
    batch = models.ForeignKey("governance.ConsolidationBatch", on_delete=models.SET_NULL, null=True, blank=True,
                              related_name="experiences", help_text="the batch that created it")
    needs_revalidation = models.BooleanField(default=False)
    tags = ArrayField(models.CharField(max_length=40), default=list, blank=True,
                      help_text="short lowercase labels from the consolidator (filterable)")
    archived_at = models.DateTimeField(null=True, blank=True)
    hit_count = models.PositiveIntegerField(default=0)
    last_hit_at = models.DateTimeField(null=True, blank=True)
    last_corroborated_at = models.DateTimeField(default=timezone.now)
    # Independent support: distinct sessions and agents among the evidence (its own and that of the personal items
    # of module members that say the same); confidence is derived from them (memory.services.consolidation).
    support_sessions = models.PositiveIntegerField(default=1)
    support_agents = models.PositiveIntegerField(default=1)
    trust = models.CharField(max_length=16, choices=Trust.choices, default=Trust.USER,
                             help_text="what its evidence earns (memory/trust.py)")
    source_agent = source_agent_field()
    # About credentials, access, safeguards, destinations, money or code to run: computed by PostgreSQL from the
    # statement; with RECMEM_SEARCH_PEER_ITEMS=guarded (the default) two agents' word does not share it, a person's
    # does.
    sensitive = models.GeneratedField(expression=SensitiveMatch("statement", sensitive_pattern()),
                                      output_field=models.BooleanField(), db_persist=True,
                                      verbose_name="about credentials, access, safeguards, destinations, money or code")
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-updated_at", "id"]
        indexes = [
            HnswIndex(name="experience_embedding_hnsw", fields=["embedding"], m=16, ef_construction=64,
                      opclasses=["vector_cosine_ops"]),
            GinIndex(name="experience_search_gin", fields=["search_vector"]),
            models.Index(fields=["project", "scope", "status"]),
        ]

    def __str__(self) -> str:
        return f"[{self.type}] {self.statement[:80]}"


class ExperienceEvidence(models.Model):
    experience = models.ForeignKey(Experience, on_delete=models.CASCADE)
    exchange = models.ForeignKey(Exchange, on_delete=models.CASCADE)
    batch = models.ForeignKey("governance.ConsolidationBatch", on_delete=models.CASCADE, null=True, blank=True,
                              related_name="+")

    class Meta:
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["experience", "exchange"], name="experience_evidence_unique")]

    def __str__(self) -> str:
        return f"{self.experience_id} <- {self.exchange_id}"


class MemoryVersion(models.Model):
    """A snapshot of an episode or experience before it was changed (merge, edit, supersede, delete).

    Rollback restores from these; edits keep the old version here.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    episode = models.ForeignKey(Episode, on_delete=models.CASCADE, null=True, blank=True, related_name="versions")
    experience = models.ForeignKey(Experience, on_delete=models.CASCADE, null=True, blank=True,
                                   related_name="versions")
    version = models.PositiveIntegerField()
    snapshot = models.JSONField()
    batch = models.ForeignKey("governance.ConsolidationBatch", on_delete=models.CASCADE, null=True, blank=True,
                              related_name="memory_versions")
    reason = models.CharField(max_length=64)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"v{self.version} ({self.reason})"


class ReviewItem(models.Model):
    """A decision for a person in the admin: a promotion one scope up (scopes widen only this way, DESIGN §5), a
    conflict between a new item and a contradicting item of a wider scope (both stay active until decided), or an
    agent's proposed change or deletion of a shared (module or project) item, which no agent applies alone."""

    class Kind(models.TextChoices):
        PROMOTION = "promotion"
        CONFLICT = "conflict"
        CHANGE = "change", "change (proposed by an agent)"
        DELETION = "deletion", "deletion (proposed by an agent)"
        QUARANTINE = "quarantine", "quarantine (held: instruction-like or exfiltrating text)"

    class Status(models.TextChoices):
        PENDING = "pending"
        APPROVED = "approved", "approved (promotion) / new one kept (conflict)"
        REJECTED = "rejected", "rejected (promotion) / old one kept (conflict)"
        DISMISSED = "dismissed", "both kept (conflict)"
        NEEDS_EVIDENCE = "needs_evidence", "needs more evidence (reopened by a new session's evidence)"
        ROLLED_BACK = "rolled_back", "undone by a rollback"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    project = models.ForeignKey("agents.Project", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.PROMOTION, db_index=True)
    experience = models.ForeignKey(Experience, on_delete=models.CASCADE, related_name="review_items", null=True,
                                   blank=True,
                                   help_text="the item proposed (promotion) or the new, narrower item (conflict); "
                                             "quarantine: the held item, when it is an experience")
    exchange = models.ForeignKey(Exchange, on_delete=models.CASCADE, null=True, blank=True,
                                 related_name="quarantine_items", help_text="quarantine: the held exchange")
    episode = models.ForeignKey(Episode, on_delete=models.CASCADE, null=True, blank=True,
                                related_name="quarantine_items", help_text="quarantine: the held episode")
    other_experience = models.ForeignKey(Experience, on_delete=models.CASCADE, null=True, blank=True,
                                         related_name="conflict_items",
                                         help_text="conflict: the wider-scope item the new one contradicts")
    proposed_scope = models.CharField(max_length=16, default="project",
                                      help_text="where the statement goes if approved")
    proposed_module = models.ForeignKey("agents.Module", on_delete=models.CASCADE, null=True, blank=True,
                                        related_name="+", help_text="the module, when the proposed scope is module")
    proposed_statement = models.TextField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING, db_index=True)
    evidence = models.JSONField(default=list, blank=True, help_text="source exchanges (masked) at proposal time")
    other_evidence = models.JSONField(default=list, blank=True,
                                      help_text="conflict: the other item's source exchanges (masked)")
    similar = models.JSONField(default=list, blank=True, help_text="similar existing items in the proposed scope")
    corroborating_sessions = models.PositiveIntegerField(default=0)
    batch = models.ForeignKey("governance.ConsolidationBatch", on_delete=models.SET_NULL, null=True, blank=True,
                              related_name="review_items")
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_reason = models.TextField(blank=True, default="")
    approved_experience = models.ForeignKey(Experience, on_delete=models.SET_NULL, null=True, blank=True,
                                            related_name="+")
    evidence_sessions = models.JSONField(default=list, blank=True,
                                         help_text="session ids behind the proposal when it was (re)opened")
    previous = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
                                 help_text="an earlier rejected proposal of the same statement")
    proposed_change = models.JSONField(default=dict, blank=True,
                                       help_text="change: the fields the agent asks to set (statement and subject "
                                                 "masked, confidence)")
    proposed_by = models.ForeignKey("agents.Agent", on_delete=models.SET_NULL, null=True, blank=True,
                                    related_name="+", help_text="change / deletion: the agent that asked for it")
    proposal_reason = models.TextField(blank=True, default="",
                                       help_text="change / deletion: the agent's reason (masked); quarantine: why "
                                                 "the detector flagged it")
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        # Moved from governance (memory owns every act on memory rows); the table keeps its name, no data moved.
        db_table = "governance_reviewitem"
        ordering = ["status", "-created_at"]

    def __str__(self) -> str:
        return f"review {self.proposed_statement[:60]} ({self.status})"


class SearchLog(models.Model):
    """One search, for the hit rate: its id goes back to the agent as ``search_id`` (POST /feedback names it), and
    what it returned is kept by layer and scope. Without feedback, ``cited`` is the proxy: returned items that the
    same session's later exchanges restate."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    project = models.ForeignKey("agents.Project", on_delete=models.CASCADE, related_name="+")
    agent = models.ForeignKey("agents.Agent", on_delete=models.CASCADE, related_name="+")
    session = models.ForeignKey(Session, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    returned = models.JSONField(default=list, help_text='[{"id", "layer", "scope"}] in rank order')
    used = models.JSONField(default=list, blank=True, help_text="ids the agent reported as used (feedback)")
    helpful = models.BooleanField(null=True, blank=True)
    feedback_at = models.DateTimeField(null=True, blank=True)
    cited = models.JSONField(default=list, blank=True, help_text="proxy: ids restated later in the session")
    cited_checked_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False, db_index=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["project", "created_at"])]

    def __str__(self) -> str:
        return f"search {str(self.id)[:8]}"


class RepetitionCheck(models.Model):
    """Whether one exchange restated an active preference or constraint its readers already had (repetition rate);
    one row per checked exchange, so the periodic task embeds each user text once."""

    exchange = models.OneToOneField(Exchange, on_delete=models.CASCADE, primary_key=True, related_name="+")
    experience = models.ForeignKey(Experience, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
                                   help_text="the restated item, when the similarity passed the dedup threshold")
    similarity = models.FloatField(default=0.0)
    checked_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"repetition check of {self.exchange_id}"


class ValiditySample(models.Model):
    """One item drawn for a person to judge (memory validity rate): accurate, stale or wrong. Stale and wrong send
    the item to revalidation. Drawn weekly at random per project, or queued by other checks
    (:func:`memory.services.validity.validity_sample_enqueue`)."""

    class Verdict(models.TextChoices):
        PENDING = "pending"
        ACCURATE = "accurate"
        STALE = "stale", "stale (was true, no longer current)"
        WRONG = "wrong", "wrong (inaccurate or polluted)"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    project = models.ForeignKey("agents.Project", on_delete=models.CASCADE, related_name="+")
    experience = models.ForeignKey(Experience, on_delete=models.CASCADE, related_name="validity_samples")
    week = models.DateField(help_text="Monday of the sampling week")
    reason = models.CharField(max_length=64, default="weekly sample")
    verdict = models.CharField(max_length=16, choices=Verdict.choices, default=Verdict.PENDING, db_index=True)
    note = models.TextField(blank=True, default="")
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    decided_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["verdict", "-created_at"]
        constraints = [models.UniqueConstraint(fields=["experience", "week"], name="validity_sample_once_a_week")]

    def __str__(self) -> str:
        return f"validity sample {str(self.id)[:8]} ({self.verdict})"
