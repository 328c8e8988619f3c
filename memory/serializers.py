"""Output serializers shared by the memory APIs (no logic: shape only)."""

import uuid

from rest_framework import serializers

from memory.trust import exchange_trust

TRUST_HELP = ("what its evidence earns, most trusted first: reviewed, corroborated (≥ 2 agents), user, assistant, "
              "tool")


class SessionOut(serializers.Serializer):
    id = serializers.UUIDField()
    external_id = serializers.CharField()
    scope = serializers.CharField()
    module = serializers.CharField(source="module.name", allow_null=True, default=None)
    status = serializers.CharField()
    started_at = serializers.DateTimeField()
    closed_at = serializers.DateTimeField(allow_null=True)
    metadata = serializers.JSONField()
    exchange_count = serializers.IntegerField(source="next_turn_index")
    owner_agent = serializers.UUIDField(source="owner_agent_id")


class ExchangeOut(serializers.Serializer):
    id = serializers.UUIDField()
    session = serializers.UUIDField(source="session_id")
    turn_index = serializers.IntegerField()
    user = serializers.CharField(source="user_text")
    assistant = serializers.CharField(source="assistant_text")
    occurred_at = serializers.DateTimeField()
    metadata = serializers.JSONField()
    scope = serializers.CharField()
    state = serializers.CharField()
    candidate = serializers.SerializerMethodField()
    salience = serializers.CharField()
    consolidated_batch = serializers.UUIDField(source="consolidated_batch_id", allow_null=True)
    source = serializers.CharField(help_text="conversation, tool, agent_note or import (as declared on ingest)")
    tool = serializers.CharField(help_text="source tool: the tool's name; else empty")
    trust = serializers.SerializerMethodField(help_text="what this exchange earns as evidence: user, assistant or tool")
    quarantined = serializers.BooleanField(help_text="held for review (only its author sees it)")
    quarantine_reason = serializers.CharField(help_text="why the detector flagged it")
    created_at = serializers.DateTimeField()

    def get_candidate(self, obj) -> bool:
        return obj.state == "candidate"

    def get_trust(self, obj) -> str:
        return exchange_trust(source=obj.source, user_text=obj.user_text)


class ProvenanceOut(serializers.Serializer):
    exchange_ids = serializers.ListField(child=serializers.UUIDField())
    session_ids = serializers.ListField(child=serializers.UUIDField())
    first_at = serializers.DateTimeField(allow_null=True)
    last_at = serializers.DateTimeField(allow_null=True)
    batch = serializers.UUIDField(allow_null=True)


def provenance(exchanges, batch_id) -> dict:
    """``exchanges``: the sources the caller may see (memory.selectors prefetches them)."""
    exchanges = list(exchanges)
    times = [e.occurred_at for e in exchanges]
    return {
        "exchange_ids": [e.pk for e in exchanges],
        "session_ids": list(dict.fromkeys(e.session_id for e in exchanges)),
        "first_at": min(times) if times else None,
        "last_at": max(times) if times else None,
        "batch": batch_id,
    }


class EpisodeOut(serializers.Serializer):
    id = serializers.UUIDField()
    title = serializers.CharField()
    narrative = serializers.CharField()
    scope = serializers.CharField()
    status = serializers.CharField()
    started_at = serializers.DateTimeField(allow_null=True)
    ended_at = serializers.DateTimeField(allow_null=True)
    version = serializers.IntegerField()
    hit_count = serializers.IntegerField()
    trust = serializers.CharField(help_text=TRUST_HELP)
    quarantined = serializers.BooleanField(help_text="held for review (only its author sees it)")
    provenance = serializers.SerializerMethodField()
    updated_at = serializers.DateTimeField()

    def get_provenance(self, obj) -> ProvenanceOut:
        return provenance(obj.visible_sources, obj.batch_id)


class EditProposalOut(serializers.Serializer):
    """202: a change or deletion of a shared (module or project) item waits in the review queue for a person."""

    review_item = serializers.UUIDField(help_text="the review item a person decides in the admin")
    kind = serializers.ChoiceField(choices=["change", "deletion"])
    status = serializers.CharField(help_text="pending")
    experience = serializers.UUIDField(help_text="the item, unchanged until the proposal is approved")


class ExperienceOut(serializers.Serializer):
    id = serializers.UUIDField()
    type = serializers.CharField()
    subject = serializers.CharField()
    statement = serializers.CharField()
    scope = serializers.CharField()
    status = serializers.CharField()
    confidence = serializers.FloatField()
    verified = serializers.BooleanField()
    trust = serializers.CharField(help_text=TRUST_HELP)
    quarantined = serializers.BooleanField(help_text="held for review (only its author sees it)")
    needs_revalidation = serializers.BooleanField(help_text="not corroborated for RECMEM_REVALIDATE_AFTER_DAYS, or "
                                                  "judged stale/wrong: check before relying on it")
    tags = serializers.ListField(child=serializers.CharField())
    valid_from = serializers.DateTimeField(allow_null=True)
    valid_to = serializers.DateTimeField(allow_null=True, help_text="when it stopped holding (superseded, or an "
                                         "end it stated); null: it still holds")
    last_corroborated_at = serializers.DateTimeField(help_text="when it was last said again (freshness in ranking)")
    superseded_by = serializers.SerializerMethodField()
    episode = serializers.SerializerMethodField()
    version = serializers.IntegerField()
    hit_count = serializers.IntegerField()
    provenance = serializers.SerializerMethodField()
    updated_at = serializers.DateTimeField()

    def get_provenance(self, obj) -> ProvenanceOut:
        return provenance(obj.visible_evidence, obj.batch_id)

    # Ids of other items only when the caller may see them (memory.selectors prefetches the visible ones).
    def get_superseded_by(self, obj) -> uuid.UUID | None:
        return obj.visible_superseded_by.pk if obj.visible_superseded_by is not None else None

    def get_episode(self, obj) -> uuid.UUID | None:
        return obj.visible_episode.pk if obj.visible_episode is not None else None


class LLMCallOut(serializers.Serializer):
    purpose = serializers.CharField()
    model = serializers.CharField()
    prompt_tokens = serializers.IntegerField()
    completion_tokens = serializers.IntegerField()
    tokens_source = serializers.CharField()
    latency_ms = serializers.FloatField()
    ok = serializers.BooleanField()
    error = serializers.CharField()
    created_at = serializers.DateTimeField()


class BatchOut(serializers.Serializer):
    id = serializers.UUIDField()
    status = serializers.CharField()
    mode = serializers.CharField()
    consolidator = serializers.CharField()
    attempts = serializers.IntegerField()
    llm_calls = serializers.IntegerField(source="llm_call_count")
    prompt_tokens = serializers.IntegerField()
    completion_tokens = serializers.IntegerField()
    tokens_by_purpose = serializers.JSONField()
    timings_ms = serializers.JSONField()
    error = serializers.CharField()
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    rolled_back_at = serializers.DateTimeField(allow_null=True)


class BatchDetailOut(BatchOut):
    summary = serializers.JSONField(source="visible_summary")
    calls = LLMCallOut(many=True, source="calls.all")


class MetricDayOut(serializers.Serializer):
    day = serializers.DateField()
    scope = serializers.CharField()
    searches = serializers.IntegerField()
    returned = serializers.IntegerField()
    returned_with_feedback = serializers.IntegerField()
    used = serializers.IntegerField()
    cited = serializers.IntegerField()
    helpful_yes = serializers.IntegerField()
    helpful_no = serializers.IntegerField()
    hit_rate = serializers.FloatField(allow_null=True)
    exchanges = serializers.IntegerField()
    repetitions = serializers.IntegerField()
    repetition_rate = serializers.FloatField(allow_null=True, help_text="per 100 exchanges")
    validity_judged = serializers.IntegerField()
    validity_accurate = serializers.IntegerField()
    validity_rate = serializers.FloatField(allow_null=True)
    validity_low = serializers.FloatField(allow_null=True)
    validity_high = serializers.FloatField(allow_null=True)
    batches = serializers.IntegerField()
    batches_failed = serializers.IntegerField()
    prompt_tokens = serializers.IntegerField()
    completion_tokens = serializers.IntegerField()
    batch_seconds = serializers.FloatField()
    backlog = serializers.IntegerField()
    exchanges_total = serializers.IntegerField()
    episodes_active = serializers.IntegerField()
    experiences_active = serializers.IntegerField()
    computed_at = serializers.DateTimeField()


_PAGES: dict[type, type] = {}


def page_of(item: type[serializers.Serializer]) -> type[serializers.Serializer]:
    """The list envelope every list endpoint answers: ``{count, next, previous, results: [item]}``."""
    if item not in _PAGES:
        name = item.__name__.removesuffix("Out")
        _PAGES[item] = type(f"Paginated{name}List", (serializers.Serializer,), {
            "count": serializers.IntegerField(min_value=0),
            "next": serializers.URLField(allow_null=True),
            "previous": serializers.URLField(allow_null=True),
            "results": item(many=True),
        })
    return _PAGES[item]


class EntityOut(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["placeholder", "subject"],
                                   help_text="placeholder: a masked person, organisation, place…; subject: what "
                                             "consolidation named an item")
    value = serializers.CharField(help_text="give it back as `entity` on search and lists")
    exchanges = serializers.IntegerField(help_text="visible exchanges mentioning it (a subject: its items' sources)")
    episodes = serializers.IntegerField(help_text="visible episodes mentioning it (a subject: its items' episodes)")
    experiences = serializers.IntegerField(help_text="visible current experiences mentioning it / named so")
