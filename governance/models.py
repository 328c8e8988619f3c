"""The floor under memory: the consolidation batch record and its LLM calls, the audit trail, privacy policy, vault."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone


class ConsolidationBatch(models.Model):
    """One consolidation run: what it read, which LLM calls it made, what it wrote; rollback reverts it whole."""

    class Status(models.TextChoices):
        PENDING = "pending"
        RUNNING = "running"
        SUCCEEDED = "succeeded"
        FAILED = "failed"
        ROLLED_BACK = "rolled_back", "rolled back"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    project = models.ForeignKey("agents.Project", on_delete=models.CASCADE, related_name="+")
    agent = models.ForeignKey("agents.Agent", on_delete=models.CASCADE, related_name="+")
    mode = models.CharField(max_length=16, default="online")
    consolidator = models.CharField(max_length=32, default="", help_text="llm or extractive")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING, db_index=True)
    attempts = models.PositiveIntegerField(default=0)
    llm_call_count = models.PositiveIntegerField(default=0)
    prompt_tokens = models.PositiveIntegerField(default=0)
    completion_tokens = models.PositiveIntegerField(default=0)
    tokens_by_purpose = models.JSONField(default=dict, blank=True)
    timings_ms = models.JSONField(default=dict, blank=True)
    summary = models.JSONField(default=dict, blank=True, help_text="ids of what it created, merged, superseded")
    error = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    rolled_back_at = models.DateTimeField(null=True, blank=True)
    # The lease of a running batch: its process renews it (heartbeat); once it has passed, the process is taken
    # for dead (killed, or stopped at the task timeout) and the reaper re-queues the batch.
    lease_expires_at = models.DateTimeField(null=True, blank=True, db_index=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    worker = models.CharField(max_length=200, blank=True, default="", help_text="host:pid of the process running it")

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "consolidation batches"

    def __str__(self) -> str:
        return f"batch {str(self.id)[:8]} ({self.status})"


class LLMCall(models.Model):
    """One LLM (or remote embedding) call with its token usage, for cost accounting by purpose."""

    id = models.BigAutoField(primary_key=True)
    batch = models.ForeignKey(ConsolidationBatch, on_delete=models.CASCADE, null=True, blank=True,
                              related_name="calls")
    project = models.ForeignKey("agents.Project", on_delete=models.CASCADE, null=True, blank=True,
                                related_name="+")
    purpose = models.CharField(max_length=64, db_index=True)
    model = models.CharField(max_length=120)
    prompt_tokens = models.PositiveIntegerField(default=0)
    completion_tokens = models.PositiveIntegerField(default=0)
    tokens_source = models.CharField(max_length=16, default="api")
    latency_ms = models.FloatField(default=0)
    ok = models.BooleanField(default=True)
    error = models.TextField(blank=True, default="")
    # Recorded when the request is sent (prompt tokens counted offline) and completed when the reply arrives, so a
    # call whose process dies meanwhile still counts; the reaper marks such a call interrupted.
    in_flight = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        # Moved from memory (the batch record owns its calls); the table keeps its name, no data moved.
        db_table = "memory_llmcall"
        ordering = ["-created_at"]
        verbose_name = "LLM call"

    def __str__(self) -> str:
        return f"{self.purpose} {self.prompt_tokens}+{self.completion_tokens} tokens"


class AuditObject(models.TextChoices):
    """What an audit event is about (``AuditEvent.object_type``): one closed list, so a typo at a call site is
    refused by ``audit_record`` instead of splitting the trail under two spellings. The ``*_list`` members are list
    reads (one event per page)."""

    EXPERIENCE = "experience"
    EPISODE = "episode"
    EXCHANGE = "exchange"
    SESSION = "session"
    REVIEW_ITEM = "review_item"
    CONSOLIDATION_BATCH = "consolidation_batch"
    VALIDITY_SAMPLE = "validity_sample"
    VAULT_ENTRY = "vault_entry"
    SUBJECT = "subject"
    FORGET = "forget"  # one forget: sessions, an agent's memory or a subject (counts and ids, never text)
    SEARCH = "search"
    ALLOWED_TERM = "allowed_term"
    AGENT = "agent"
    PROJECT = "project"  # a whole project's export or import (memory/services/portability.py)
    API_KEY = "api_key"
    SESSION_LIST = "session_list"
    EXCHANGE_LIST = "exchange_list"
    EPISODE_LIST = "episode_list"
    EXPERIENCE_LIST = "experience_list"
    CONSOLIDATION_LIST = "consolidation_list"
    ENTITY_LIST = "entity_list"


class AuditEvent(models.Model):
    """Append-only record of every write and read: actor, scope, reason, source ids.

    Tamper-evident: events form one chain per project (``seq`` 1, 2, …); ``hash`` is an HMAC (RECMEM_AUDIT_KEY) over
    the event's content, its ``seq`` and the previous event's hash, so an edited, deleted, inserted or re-ordered
    event breaks the chain (``manage.py audit_verify``). Everything it points to is PROTECTed: a project, agent,
    user or batch with audit events is archived or deactivated, never deleted.
    """

    class Action(models.TextChoices):
        CREATE = "create"
        UPDATE = "update"
        SUPERSEDE = "supersede"
        DELETE = "delete"
        PURGE = "purge"
        PROMOTE = "promote"
        REVIEW = "review"
        ROLLBACK = "rollback"
        READ = "read"
        REVEAL = "reveal"
        REVEAL_REFUSED = "reveal_refused", "reveal refused"
        CONSOLIDATE = "consolidate"

    id = models.BigAutoField(primary_key=True)
    project = models.ForeignKey("agents.Project", on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    actor_agent = models.ForeignKey("agents.Agent", on_delete=models.PROTECT, null=True, blank=True,
                                    related_name="+")
    actor_user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                                   related_name="+")
    actor_label = models.CharField(max_length=200, blank=True, default="", help_text="e.g. system:consolidation")
    action = models.CharField(max_length=16, choices=Action.choices, db_index=True)
    # one of AuditObject, checked in audit_record rather than as field choices: bulk_create and save skip
    # choices anyway, and a choices-only migration would change nothing in the database
    object_type = models.CharField(max_length=64)
    object_id = models.CharField(max_length=64, blank=True, default="")
    scope = models.CharField(max_length=16, blank=True, default="")
    reason = models.CharField(max_length=300, blank=True, default="")
    reason_digest = models.CharField(
        max_length=64, blank=True, default="", editable=False,
        help_text="HMAC of the reason under RECMEM_AUDIT_KEY: the chain's hash covers this, so a purge can redact the "
                  "reason (an edit reason, a search query) without breaking the chain")
    reason_purged = models.BooleanField(default=False, editable=False,
                                        help_text="the reason was redacted by a subject purge")
    source_ids = models.JSONField(default=list, blank=True)
    batch = models.ForeignKey(ConsolidationBatch, on_delete=models.PROTECT, null=True, blank=True,
                              related_name="audit_events")
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False, db_index=True)
    seq = models.PositiveBigIntegerField(default=0, editable=False, help_text="position in the project's chain")
    prev_hash = models.CharField(max_length=64, blank=True, default="", editable=False)
    hash = models.CharField(max_length=64, blank=True, default="", editable=False)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["object_type", "object_id"])]
        constraints = [
            models.UniqueConstraint(fields=["project", "seq"], condition=models.Q(project__isnull=False),
                                    name="audit_unique_seq_per_project"),
            models.UniqueConstraint(fields=["seq"], condition=models.Q(project__isnull=True),
                                    name="audit_unique_seq_without_project"),
        ]

    def __str__(self) -> str:
        return f"{self.action} {self.object_type} {self.object_id}"


class AuditCheckpoint(models.Model):
    """The anchor of one audit chain: its length and head hash, kept apart from the events and signed (HMAC,
    RECMEM_AUDIT_KEY). Written in the transaction of every append, so deleting a chain's newest events, or the whole
    chain, leaves a checkpoint that no longer matches (``manage.py audit_verify``); forging one needs the key."""

    chain = models.CharField(max_length=36, unique=True, help_text="the project's id; empty: events without one")
    length = models.PositiveBigIntegerField(default=0)
    head_hash = models.CharField(max_length=64, blank=True, default="")
    signature = models.CharField(max_length=64)
    updated_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"audit chain {self.chain or '(no project)'}: {self.length}"


class IdempotencyKey(models.Model):
    """The first response to a POST sent with an ``Idempotency-Key`` header, kept so that a retry with the same key
    and body gets it again instead of writing twice (recmem_site/idempotency.py). Per agent; kept
    RECMEM_IDEMPOTENCY_HOURS, then purged by the reaper tick."""

    id = models.BigAutoField(primary_key=True)
    agent = models.ForeignKey("agents.Agent", on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=128)  # SHA-256 of the header (services/idempotency.py: never kept in clear)
    fingerprint = models.CharField(max_length=64, help_text="SHA-256 of method, path and body")
    method = models.CharField(max_length=8)
    path = models.CharField(max_length=500)
    status_code = models.PositiveSmallIntegerField(default=0)
    content_type = models.CharField(max_length=100, blank=True, default="")
    response_body = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now, editable=False, db_index=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [models.UniqueConstraint(fields=["agent", "key"], name="idempotency_unique_key_per_agent")]

    def __str__(self) -> str:
        return f"{self.key} ({self.method} {self.path})"


def _new_hmac_key() -> str:
    return secrets.token_hex(32)


class PrivacyPolicy(models.Model):
    """Per-project masking policy and the project's pseudonym key (same value → same placeholder)."""

    project = models.OneToOneField("agents.Project", on_delete=models.CASCADE, primary_key=True,
                                   related_name="privacy_policy")
    mask_entities = models.JSONField(default=list, blank=True, help_text="entity types replaced by a placeholder")
    pseudonymise_entities = models.JSONField(default=list, blank=True,
                                             help_text="entity types replaced by a stable pseudonym")
    score_threshold = models.FloatField(default=0.4)
    vault_enabled = models.BooleanField(default=True, help_text="keep encrypted originals of non-secret values")
    phone_region = models.CharField(
        max_length=2, blank=True, default="",
        help_text="ISO 3166 region whose national phone formats are recognised without a country code (e.g. US, "
                  "DE); empty: RECMEM_PII_PHONE_REGION")
    hmac_key = models.CharField(max_length=128, default=_new_hmac_key, editable=False,
                                help_text="the project's salt of the pseudonym key (the key itself is never stored)")
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["project__name"]
        verbose_name_plural = "privacy policies"

    def __str__(self) -> str:
        return f"privacy policy of {self.project}"

    @property
    def pseudonym_key(self) -> bytes:
        """The project's pseudonym HMAC key: HMAC-SHA256 under RECMEM_PSEUDONYM_KEY (held outside the database like
        the vault key: the environment or RECMEM_HOME/pseudonym_key) of this row's salt. A database dump alone
        cannot test a guessed phone number or name against the registry's digests. Without a configured key (plain
        Python, no settings) the salt alone is the key."""
        from core.config import config

        salt = bytes.fromhex(self.hmac_key)
        master = config().privacy.pseudonym_key
        if not master:
            return salt
        return hmac.new(master.encode(), b"recmem-pseudonym\x1f" + salt, hashlib.sha256).digest()


class VaultEntry(models.Model):
    """The encrypted original behind a placeholder (never for secrets); revealed only with permission, audited."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    project = models.ForeignKey("agents.Project", on_delete=models.CASCADE, related_name="+")
    placeholder = models.CharField(max_length=120)
    entity_type = models.CharField(max_length=64)
    ciphertext = models.TextField()
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["project", "placeholder"]
        verbose_name_plural = "vault entries"
        permissions = [("reveal_vaultentry", "Can reveal original values behind placeholders")]
        constraints = [models.UniqueConstraint(fields=["project", "placeholder"], name="vault_unique_placeholder")]

    def __str__(self) -> str:
        return self.placeholder


class PseudonymEntry(models.Model):
    """The pseudonym registry: one row per value the gateway replaced by a keyed placeholder in a project.

    No original is stored (the vault keeps those, encrypted): ``digest`` is HMAC-SHA256 under the project's key of
    the entity type and the normalised value — the HMAC the placeholder takes its 6 hex characters from. Filled at
    masking time; it tells the gateway which placeholders it produced (a placeholder an agent sends back is accepted
    as already masked only when it is registered here), and finds the placeholder of a value by its digest (so a
    value seen once can get the same placeholder wherever it appears again)."""

    #: ``entity_type`` of a secret's row: a secret masked once is masked wherever its value comes back (its
    #: placeholder is the generic ``<SECRET:kind>``, so such a row never names a subject)
    SECRET = "SECRET"

    id = models.BigAutoField(primary_key=True)
    project = models.ForeignKey("agents.Project", on_delete=models.CASCADE, related_name="+")
    entity_type = models.CharField(max_length=64)
    placeholder = models.CharField(max_length=120)
    digest = models.CharField(max_length=64, help_text="HMAC-SHA256 (hex) of type + normalised value, project key")
    confident = models.BooleanField(
        default=True, help_text="masked with strong evidence (a pattern, a cue, a full name): only these are "
                                "re-applied wherever the value appears again; a model-only guess on one word is not")
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["project", "placeholder"]
        verbose_name = "pseudonym registry entry"
        verbose_name_plural = "pseudonym registry"
        constraints = [models.UniqueConstraint(fields=["project", "digest"], name="pseudonym_unique_digest")]
        indexes = [models.Index(fields=["project", "placeholder"], name="pseudonym_placeholder_idx")]

    def __str__(self) -> str:
        return self.placeholder


class MetricDay(models.Model):
    """The four governance metrics of one project, scope and day (README "Governance": definitions and formulas).

    ``scope`` is personal, module or project (the items of that scope, all modules together), or ``all`` (the whole
    project; cost, backlog and batch figures exist only there, as a batch is not of one scope). Written by the
    periodic metrics task (today's row is rewritten until the day is over); rates are None when nothing was counted.
    """

    ALL = "all"

    id = models.BigAutoField(primary_key=True)
    project = models.ForeignKey("agents.Project", on_delete=models.CASCADE, related_name="+")
    day = models.DateField()
    scope = models.CharField(max_length=16)
    # hit rate: used (feedback) or cited (proxy) items over returned items
    searches = models.PositiveIntegerField(default=0)
    returned = models.PositiveIntegerField(default=0)
    returned_with_feedback = models.PositiveIntegerField(default=0)
    used = models.PositiveIntegerField(default=0)
    cited = models.PositiveIntegerField(default=0)
    helpful_yes = models.PositiveIntegerField(default=0)
    helpful_no = models.PositiveIntegerField(default=0)
    hit_rate = models.FloatField(null=True, blank=True)
    # repetition rate: restating exchanges per 100 exchanges
    exchanges = models.PositiveIntegerField(default=0)
    repetitions = models.PositiveIntegerField(default=0)
    repetition_rate = models.FloatField(null=True, blank=True)
    # validity: accurate share of the samples judged in the 28 days up to this day, with its 95 % Wilson interval
    validity_judged = models.PositiveIntegerField(default=0)
    validity_accurate = models.PositiveIntegerField(default=0)
    validity_rate = models.FloatField(null=True, blank=True)
    validity_low = models.FloatField(null=True, blank=True)
    validity_high = models.FloatField(null=True, blank=True)
    # cost (scope "all") and growth
    batches = models.PositiveIntegerField(default=0)
    batches_failed = models.PositiveIntegerField(default=0)
    prompt_tokens = models.PositiveBigIntegerField(default=0)
    completion_tokens = models.PositiveBigIntegerField(default=0)
    batch_seconds = models.FloatField(default=0.0)
    backlog = models.PositiveIntegerField(default=0, help_text="pending candidates when computed")
    exchanges_total = models.PositiveIntegerField(default=0)
    episodes_active = models.PositiveIntegerField(default=0)
    experiences_active = models.PositiveIntegerField(default=0)
    computed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["project", "-day", "scope"]
        verbose_name = "metrics of a day"
        verbose_name_plural = "metrics by day"
        constraints = [models.UniqueConstraint(fields=["project", "day", "scope"], name="metric_day_unique")]

    def __str__(self) -> str:
        return f"metrics {self.project_id} {self.day} {self.scope}"


class AllowedTerm(models.Model):
    """A term an operator allowed for a project: never masked as a name, place or group (a product, a tool, a team's
    jargon the NER keeps mistaking). Pattern-based types (e-mail, phone, card...) and secrets are never allowed.
    Every change is audited (``governance.services.privacy.allowed_term_add`` / ``allowed_term_remove``)."""

    id = models.BigAutoField(primary_key=True)
    project = models.ForeignKey("agents.Project", on_delete=models.CASCADE, related_name="+")
    term = models.CharField(max_length=200, help_text="compared case-insensitively, whitespace collapsed")
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["project", "term"]
        constraints = [models.UniqueConstraint(fields=["project", "term"], name="allowed_term_unique")]

    def __str__(self) -> str:
        return self.term
