"""Who writes and reads: projects, modules, agents and their API keys."""

from __future__ import annotations

import uuid

from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.utils import timezone


class Project(models.Model):
    """The isolation boundary: nothing crosses from one project to another."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=200, unique=True)
    description = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    # Quotas (README: limits); empty: the RECMEM_QUOTA_* default, 0: unlimited.
    exchange_quota = models.PositiveBigIntegerField(
        null=True, blank=True, help_text="stored exchanges at most; empty: RECMEM_QUOTA_EXCHANGES, 0: unlimited")
    daily_token_quota = models.PositiveBigIntegerField(
        null=True, blank=True,
        help_text="consolidation LLM tokens per UTC day; empty: RECMEM_QUOTA_DAILY_TOKENS, 0: unlimited")
    # A project whose audit trail must stay is archived, never deleted: its keys stop working.
    archived_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Module(models.Model):
    """A part of a project (a team, a component); module-scoped memories are shared by its agents."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="modules")
    name = models.CharField(max_length=200)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["project__name", "name"]
        constraints = [models.UniqueConstraint(fields=["project", "name"], name="module_unique_name_per_project")]

    def __str__(self) -> str:
        return f"{self.project.name}/{self.name}"


class AgentRole(models.TextChoices):
    WRITER = "writer", "writer (ingest exchanges)"
    READER = "reader", "reader (search and read)"
    OPERATOR = "operator", "operator (trigger consolidation, manage memory)"
    REVIEWER = "reviewer", "reviewer (propose project rules)"


class Agent(models.Model):
    """An LLM agent of one project; authenticates with API keys."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="agents")
    name = models.CharField(max_length=200)
    roles = ArrayField(models.CharField(max_length=32, choices=AgentRole.choices), default=list, blank=True)
    modules = models.ManyToManyField(Module, related_name="agents", blank=True)
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    last_write_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["project__name", "name"]
        constraints = [models.UniqueConstraint(fields=["project", "name"], name="agent_unique_name_per_project")]

    def __str__(self) -> str:
        return f"{self.project.name}/{self.name}"

    # DRF's IsAuthenticated and throttles look at these on request.user.
    @property
    def is_authenticated(self) -> bool:
        return True

    @property
    def is_anonymous(self) -> bool:
        return False


class ApiKey(models.Model):
    """An API key: the raw key is shown once; only its SHA-256 digest and a visible prefix are stored."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    agent = models.ForeignKey(Agent, on_delete=models.CASCADE, related_name="api_keys")
    name = models.CharField(max_length=200, blank=True, default="")
    prefix = models.CharField(max_length=16, unique=True, db_index=True)
    key_hash = models.CharField(max_length=64)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    expires_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = "API key"

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.agent})"

    @property
    def is_revoked(self) -> bool:
        return self.revoked_at is not None

    def is_expired(self, now=None) -> bool:
        return self.expires_at is not None and self.expires_at <= (now or timezone.now())


class RateCounter(models.Model):
    """One rate-limit counter (a client's requests in one window; agents/throttling.py) when the cache is the
    database: counted with one atomic ``INSERT … ON CONFLICT DO UPDATE … RETURNING`` instead of the cache's read then
    write, so concurrent requests cannot all see the same count. Unlogged: after a crash the limits start afresh."""

    key = models.CharField(max_length=250, primary_key=True)
    count = models.BigIntegerField(default=0)
    expires_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.key} = {self.count}"
