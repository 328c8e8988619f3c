from django.contrib import admin

from memory.models import Candidate, Episode, Exchange, Experience, LLMCall, MemoryVersion, Session


class ReadOnlyAdmin(admin.ModelAdmin):
    """Memory rows change only through services (consolidation, edits, rollback), never by hand."""

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Session)
class SessionAdmin(ReadOnlyAdmin):
    list_display = ["id", "external_id", "project", "owner_agent", "scope", "status", "started_at", "next_turn_index"]
    list_filter = ["status", "scope", "project"]
    search_fields = ["external_id", "id"]


@admin.register(Exchange)
class ExchangeAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "project", "owner_agent", "scope", "state", "salience", "occurred_at", "hit_count"]
    list_filter = ["state", "scope", "project"]
    search_fields = ["user_text", "assistant_text"]
    exclude = ["embedding"]


@admin.register(Candidate)
class CandidateAdmin(ReadOnlyAdmin):
    list_display = ["id", "agent", "reason", "status", "attempts", "batch", "created_at"]
    list_filter = ["status", "reason"]


class VersionInline(admin.TabularInline):
    model = MemoryVersion
    extra = 0
    fields = ["version", "reason", "batch", "created_at", "snapshot"]
    readonly_fields = fields
    can_delete = False


@admin.register(Episode)
class EpisodeAdmin(ReadOnlyAdmin):
    list_display = ["title", "project", "scope", "status", "version", "started_at", "ended_at", "hit_count"]
    list_filter = ["status", "scope", "project"]
    search_fields = ["title", "narrative"]
    exclude = ["embedding"]
    inlines = [VersionInline]


@admin.register(Experience)
class ExperienceAdmin(ReadOnlyAdmin):
    list_display = ["statement", "type", "project", "scope", "status", "confidence", "version", "hit_count"]
    list_filter = ["type", "status", "scope", "project"]
    search_fields = ["statement", "subject"]
    exclude = ["embedding"]
    inlines = [VersionInline]


@admin.register(LLMCall)
class LLMCallAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "purpose", "model", "prompt_tokens", "completion_tokens", "tokens_source", "ok",
                    "batch"]
    list_filter = ["purpose", "ok", "tokens_source"]
