"""Memory REST API (thin: validate → service/selector → serialize)."""

from __future__ import annotations

from django.http import StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, PolymorphicProxySerializer, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.response import Response
from rest_framework.views import APIView

from agents.authentication import KEY_ONLY
from agents.models import AgentRole
from agents.selectors import agent_in_project_get
from agents.visibility import Scope
from core.config import config
from core.errors import ApplicationError, TooLarge
from governance.models import AuditObject, ConsolidationBatch
from memory import selectors
from memory.figures import metrics_list
from memory.inputs import (
    BoundedDateTimeField,
    EntityField,
    MetadataField,
    PageQuery,
    QuerySerializer,
    StrictBooleanField,
    StrictCharField,
    StrictChoiceField,
    StrictFloatField,
    StrictIntegerField,
    StrictSerializer,
)
from memory.models import Exchange, ExperienceType, MemoryStatus, Session
from memory.search.query import SearchQuery
from memory.search.services import (
    entity_resolve,
    list_record,
    read_record,
    search_feedback,
    search_query_mask,
    search_run,
)
from memory.serializers import (
    BatchDetailOut,
    BatchOut,
    EditProposalOut,
    EntityOut,
    EpisodeOut,
    ExchangeOut,
    ExperienceOut,
    MetricDayOut,
    SessionOut,
    page_of,
)
from memory.services.edits import experience_delete, experience_update
from memory.services.forget import forget
from memory.services.ingest import ExchangeIn, exchanges_ingest, session_close, session_create
from memory.services.portability import agent_export
from memory.services.scheduling import idle_run_request
from memory.trust import Source


def _paginated(request, view, queryset, serializer_class, *, record: AuditObject | None = None,
               masked: dict[str, str] | None = None, ids=lambda page: [o.pk for o in page]):
    """One page of ``queryset`` in the ``{count, next, previous, results}`` envelope (limit and offset were
    validated by the view's query serializer); ``record``: audit the list read under that object type, with the
    free-text filters in ``masked`` as masked (never the agent's text in clear)."""
    paginator = LimitOffsetPagination()
    paginator.max_limit = config().limits.max_page_size
    page = paginator.paginate_queryset(queryset, request, view=view)
    if record:
        list_record(agent=request.user, object_type=record, object_ids=ids(page),
                    filters={**{k: str(v) for k, v in request.query_params.items()}, **(masked or {})})
    return paginator.get_paginated_response(serializer_class(page, many=True).data)


class _ListQuery(PageQuery):
    scope = StrictChoiceField(choices=Scope.choices, required=False)
    since = BoundedDateTimeField(required=False, help_text="ISO 8601")
    until = BoundedDateTimeField(required=False, help_text="ISO 8601 (not after since: an empty window)")

    @classmethod
    def filters(cls, request) -> selectors.ListFilters:
        data = cls.parse(request)
        return selectors.ListFilters(**{k: v for k, v in data.items() if k not in ("limit", "offset")})


class SessionListQuery(_ListQuery):
    status = StrictChoiceField(choices=Session.Status.choices, required=False)


class _MemoryListQuery(_ListQuery):
    as_of = BoundedDateTimeField(required=False, help_text="ISO 8601: what was current then (items superseded or "
                                                           "expired since included; exchanges stored by then)")
    entity = EntityField(required=False)

    @classmethod
    def resolved(cls, request) -> selectors.ListFilters:
        """The filters with ``entity`` resolved (masked: a clear value never reaches a query or the audit)."""
        filters = cls.filters(request)
        if filters.entity is not None:
            filters.entity = entity_resolve(agent=request.user, value=filters.entity)
        return filters


def _masked_filters(filters: selectors.ListFilters) -> dict[str, str] | None:
    """The list audit's record of the ``entity`` asked for: its masked form, never the value as sent."""
    if filters.entity is None:
        return None
    return {"entity": " ".join([*filters.entity.placeholders, filters.entity.subject or ""]).strip()}


class ExchangeListQuery(_MemoryListQuery):
    session = serializers.UUIDField(required=False)
    state = StrictChoiceField(choices=Exchange.State.choices, required=False)


class EpisodeListQuery(_MemoryListQuery):
    status = StrictChoiceField(choices=MemoryStatus.choices, required=False, help_text="default active")


class ExperienceListQuery(EpisodeListQuery):
    type = StrictChoiceField(choices=ExperienceType.choices, required=False)
    tag = StrictCharField(required=False, max_length=40, help_text="only items carrying this tag")


class ConsolidationListQuery(PageQuery):
    status = StrictChoiceField(choices=ConsolidationBatch.Status.choices, required=False)


# --- sessions ----------------------------------------------------------------------

@extend_schema(tags=["sessions"])
class SessionListCreateApi(APIView):
    required_roles = {"get": AgentRole.READER, "post": AgentRole.WRITER}

    class SessionCreateInputSerializer(StrictSerializer):
        external_id = StrictCharField(required=False, allow_blank=True, max_length=200, default="")
        started_at = serializers.DateTimeField(required=False)
        module = StrictCharField(required=False, allow_null=True, max_length=200,
                                 help_text="name or id of one of the agent's modules")
        metadata = MetadataField(required=False, default=dict)

    @extend_schema(request=SessionCreateInputSerializer, responses={201: SessionOut}, operation_id="sessions_create",
                   summary="Open a session")
    def post(self, request):
        serializer = self.SessionCreateInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        session = session_create(agent=request.user, external_id=data["external_id"],
                                 started_at=data.get("started_at"), module=data.get("module") or None,
                                 metadata=data["metadata"])
        return Response(SessionOut(session).data, status=status.HTTP_201_CREATED)

    @extend_schema(parameters=[SessionListQuery], responses=page_of(SessionOut), operation_id="sessions_list",
                   summary="List sessions")
    def get(self, request):
        filters = SessionListQuery.filters(request)
        return _paginated(request, self, selectors.session_list(agent=request.user, filters=filters)
                          .select_related("module"), SessionOut, record=AuditObject.SESSION_LIST)


FORGET_DOC = ("Undo is impossible. The exchanges are deleted; every episode built on them is rebuilt from its other "
              "sources (or deleted), every experience keeps living on its other evidence (or is deleted); one audit "
              "event records who, why and how many rows, never what. Your own personal memory needs the `writer` "
              "role; module or project memory, another agent's sessions or a subject also need `reviewer` or "
              "`operator` (403 `missing_role`). What you may not see answers 404 and is never touched.")
ForgetOut = inline_serializer("ForgetOut", fields={
    "forgotten": serializers.DictField(child=serializers.IntegerField(), help_text="rows deleted or rewritten, "
                                                                                   "by kind")})


class ForgetReasonBody(StrictSerializer):
    reason = StrictCharField(required=False, allow_blank=False, max_length=300, default="session forgotten",
                             help_text="why (audited; never the forgotten text)")


@extend_schema(tags=["sessions"])
class SessionDetailApi(APIView):
    required_roles = {"get": AgentRole.READER, "delete": AgentRole.WRITER}

    @extend_schema(responses=SessionOut, operation_id="sessions_retrieve", summary="Get a session")
    def get(self, request, session_id):
        session = selectors.session_get(agent=request.user, session_id=session_id)
        return Response(SessionOut(session).data)

    @extend_schema(request=ForgetReasonBody, responses={200: ForgetOut}, operation_id="sessions_forget",
                   summary="Forget a session", description=FORGET_DOC)
    def delete(self, request, session_id):
        session = selectors.session_get(agent=request.user, session_id=session_id)
        serializer = ForgetReasonBody(data=request.data)
        serializer.is_valid(raise_exception=True)
        counts = forget(project=request.user.project, actor=request.user, session_ids=[session.pk],
                        reason=serializer.validated_data["reason"])
        return Response({"forgotten": counts})


@extend_schema(tags=["sessions"])
class ForgetApi(APIView):
    required_roles = {"post": AgentRole.WRITER}

    class ForgetInputSerializer(StrictSerializer):
        session_ids = serializers.ListField(child=serializers.UUIDField(), required=False, allow_empty=False,
                                            min_length=1, max_length=1000,
                                            help_text="sessions to forget (at most 1,000)")
        agent = StrictCharField(required=False, allow_blank=False, max_length=200,
                                help_text="name or id of an agent of your project: every session of it you see")
        subject = StrictCharField(required=False, allow_blank=False, min_length=3, max_length=300,
                                  help_text="a placeholder (`<PERSON_3f2a1b>`) or a value as it was said")
        reason = StrictCharField(allow_blank=False, max_length=300, help_text="why (audited)")

        def validate(self, attrs):
            if not any(k in attrs for k in ("session_ids", "agent", "subject")):
                raise serializers.ValidationError(
                    {"non_field_errors": ["name what to forget: session_ids, agent or subject"]},
                    code="selector_required")
            return attrs

    @extend_schema(request=ForgetInputSerializer, responses={200: ForgetOut}, operation_id="forget",
                   summary="Forget sessions, an agent's memory or a subject",
                   description=FORGET_DOC + " The selectors add up (their union).")
    def post(self, request):
        serializer = self.ForgetInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        agent = (agent_in_project_get(project_id=request.user.project_id, name_or_id=data["agent"])
                 if "agent" in data else None)
        counts = forget(project=request.user.project, actor=request.user, session_ids=data.get("session_ids"),
                        agent=agent, subject=data.get("subject"), reason=data["reason"])
        return Response({"forgotten": counts})


@extend_schema(tags=["sessions"])
class SessionCloseApi(APIView):
    required_roles = {"post": AgentRole.WRITER}

    @extend_schema(request=None, responses=SessionOut, operation_id="sessions_close", summary="Close a session")
    def post(self, request, session_id):
        session = selectors.session_get_owned(agent=request.user, session_id=session_id)
        return Response(SessionOut(session_close(agent=request.user, session=session)).data)


class ExchangeInSerializer(StrictSerializer):
    user = StrictCharField(required=False, allow_blank=True, trim_whitespace=True, default="",
                           help_text="at most RECMEM_MAX_TEXT_CHARS characters (413 beyond)")
    assistant = StrictCharField(required=False, allow_blank=True, trim_whitespace=True, default="",
                                help_text="at most RECMEM_MAX_TEXT_CHARS characters (413 beyond)")
    occurred_at = serializers.DateTimeField(required=False)
    metadata = MetadataField(required=False, default=dict)
    # What the texts are (memory/trust.py; documented on the endpoint): conversation (the default), tool (with
    # `tool`; a `tool` alone implies it), agent_note, import.
    source = StrictChoiceField(choices=Source.choices, required=False)
    tool = StrictCharField(required=False, allow_blank=True, max_length=100, default="",
                           help_text="the tool's name when the exchange is its output")

    def validate(self, attrs):
        # One side may be missing (a turn nobody answered), but an exchange with no text at all is an error.
        if not attrs["user"] and not attrs["assistant"]:
            raise serializers.ValidationError({"user": "user and assistant texts are both empty"})
        attrs["tool"] = attrs["tool"].strip()
        source = attrs.get("source") or (Source.TOOL if attrs["tool"] else Source.CONVERSATION)
        if source == Source.TOOL and not attrs["tool"]:
            raise serializers.ValidationError({"tool": "required when the source is a tool's output"})
        if source != Source.TOOL and attrs["tool"]:
            raise serializers.ValidationError({"tool": "only a tool's output names a tool"})
        attrs["source"] = source
        return attrs


class ExchangeBatchInSerializer(StrictSerializer):
    exchanges = serializers.ListField(child=ExchangeInSerializer(), allow_empty=False,
                                      help_text="at most RECMEM_MAX_BATCH_EXCHANGES (413 beyond)")


@extend_schema(tags=["exchanges"])
class SessionExchangesApi(APIView):
    required_roles = {"post": AgentRole.WRITER}

    @extend_schema(
        request=PolymorphicProxySerializer("ExchangesIn", serializers=[ExchangeInSerializer,
                                                                      ExchangeBatchInSerializer],
                                           resource_type_field_name=None),
        responses={201: inline_serializer("ExchangesOut", {"exchanges": ExchangeOut(many=True)})},
        operation_id="sessions_exchanges_create", summary="Add exchanges to a session",
        description="One exchange `{user, assistant, occurred_at?, metadata?, source?, tool?}` or "
                    "`{\"exchanges\": [...]}` (at most RECMEM_MAX_BATCH_EXCHANGES, default 500). `source` says what "
                    "the texts are: `conversation` (the default: the user text was said by the user, the assistant "
                    "text by the assistant), `tool` (a tool's output, named in `tool`, at most 100 characters; a "
                    "`tool` alone implies it), `agent_note` (the agent's own note) or `import`; it sets the trust "
                    "the exchange earns as evidence, and the quarantine check reads every source. An exchange whose "
                    "text reads as instructions to an AI, remote code or exfiltration is stored held in quarantine "
                    "(`quarantined`: only its author retrieves it; a shared one waits for a reviewer).",
    )
    def post(self, request, session_id):
        session = selectors.session_get_owned(agent=request.user, session_id=session_id)
        payload = request.data
        if not isinstance(payload, dict):
            raise ApplicationError("body must be a JSON object", code="invalid")
        many = "exchanges" in payload
        raw = payload["exchanges"] if many else [payload]
        if many and set(payload) != {"exchanges"}:
            raise ApplicationError("a batch body has only the field 'exchanges'", code="invalid")
        if not isinstance(raw, list) or not raw:
            raise ApplicationError("exchanges must be a non-empty list", code="invalid")
        limit = config().limits.max_batch_exchanges
        if len(raw) > limit:
            raise TooLarge(f"at most {limit} exchanges per request (got {len(raw)})", code="too_many_exchanges")
        serializer = ExchangeInSerializer(data=raw, many=True)
        serializer.is_valid(raise_exception=True)
        max_chars = config().limits.max_text_chars
        too_long = [i for i, item in enumerate(serializer.validated_data)
                    if len(item["user"]) > max_chars or len(item["assistant"]) > max_chars]
        if too_long:
            raise TooLarge(f"texts longer than {max_chars} characters", code="text_too_long",
                           details={"indexes": too_long, "max_chars": max_chars})
        items = [ExchangeIn(**item) for item in serializer.validated_data]
        result = exchanges_ingest(agent=request.user, session=session, items=items)
        return Response({"exchanges": ExchangeOut(result.exchanges, many=True).data}, status=status.HTTP_201_CREATED)


# --- reads ----------------------------------------------------------------------

@extend_schema(tags=["exchanges"])
class ExchangeListApi(APIView):
    required_roles = {"get": AgentRole.READER}

    @extend_schema(parameters=[ExchangeListQuery], responses=page_of(ExchangeOut), operation_id="exchanges_list",
                   summary="List exchanges")
    def get(self, request):
        filters = ExchangeListQuery.resolved(request)
        return _paginated(request, self, selectors.exchange_list(agent=request.user, filters=filters), ExchangeOut,
                          record=AuditObject.EXCHANGE_LIST, masked=_masked_filters(filters))


@extend_schema(tags=["exchanges"])
class ExchangeDetailApi(APIView):
    required_roles = {"get": AgentRole.READER}

    @extend_schema(responses=ExchangeOut, operation_id="exchanges_retrieve", summary="Get an exchange")
    def get(self, request, exchange_id):
        exchange = selectors.exchange_get(agent=request.user, exchange_id=exchange_id)
        read_record(agent=request.user, object_type=AuditObject.EXCHANGE, object_id=exchange.pk, scope=exchange.scope)
        return Response(ExchangeOut(exchange).data)


@extend_schema(tags=["episodes"])
class EpisodeListApi(APIView):
    required_roles = {"get": AgentRole.READER}

    @extend_schema(parameters=[EpisodeListQuery], responses=page_of(EpisodeOut), operation_id="episodes_list",
                   summary="List episodes")
    def get(self, request):
        filters = EpisodeListQuery.resolved(request)
        qs = selectors.episode_list(agent=request.user, filters=filters)
        return _paginated(request, self, qs, EpisodeOut, record=AuditObject.EPISODE_LIST,
                          masked=_masked_filters(filters))


@extend_schema(tags=["episodes"])
class EpisodeDetailApi(APIView):
    required_roles = {"get": AgentRole.READER}

    @extend_schema(responses=EpisodeOut, operation_id="episodes_retrieve", summary="Get an episode")
    def get(self, request, episode_id):
        episode = selectors.episode_get(agent=request.user, episode_id=episode_id)
        read_record(agent=request.user, object_type=AuditObject.EPISODE, object_id=episode.pk, scope=episode.scope)
        return Response(EpisodeOut(episode).data)


@extend_schema(tags=["experiences"])
class ExperienceListApi(APIView):
    required_roles = {"get": AgentRole.READER}

    @extend_schema(parameters=[ExperienceListQuery], responses=page_of(ExperienceOut),
                   operation_id="experiences_list", summary="List experiences")
    def get(self, request):
        filters = ExperienceListQuery.resolved(request)
        if filters.tag:  # free text: masked like a query before it is used or audited
            filters.tag = search_query_mask(agent=request.user, query=filters.tag)
        qs = selectors.experience_list(agent=request.user, filters=filters)
        masked = {**({"tag": filters.tag} if filters.tag else {}), **(_masked_filters(filters) or {})}
        return _paginated(request, self, qs, ExperienceOut, record=AuditObject.EXPERIENCE_LIST,
                          masked=masked or None)


class EntityListQuery(PageQuery):
    kind = StrictChoiceField(choices=["placeholder", "subject"], required=False)


@extend_schema(tags=["search"])
class EntityListApi(APIView):
    """The entities the caller's visible memory mentions, most mentioned first: placeholders (masked people,
    organisations, places… — one value, one placeholder across sessions) and the subjects of its items. Counted over
    the rows the caller may see only."""

    required_roles = {"get": AgentRole.READER}

    @extend_schema(parameters=[EntityListQuery], responses=page_of(EntityOut), operation_id="entities_list",
                   summary="List the entities memory mentions")
    def get(self, request):
        query = EntityListQuery.parse(request)
        rows = selectors.entity_list(agent=request.user, kind=query.get("kind"))
        # Audited like every list read (who listed, when, with which filters), but the entities are not named in
        # the event: a later forget of a subject must not find it in the trail.
        return _paginated(request, self, rows, EntityOut, record=AuditObject.ENTITY_LIST, ids=lambda page: [])


def _proposal(outcome) -> Response:
    item = outcome.review_item
    return Response(EditProposalOut({"review_item": item.pk, "kind": item.kind, "status": item.status,
                                     "experience": outcome.experience.pk}).data, status=status.HTTP_202_ACCEPTED)


@extend_schema(tags=["experiences"])
class ExperienceDetailApi(APIView):
    # PATCH answers with the item: a caller that may not read items gets nothing through an edit.
    required_roles = {"get": AgentRole.READER, "patch": (AgentRole.WRITER, AgentRole.READER),
                      "delete": AgentRole.WRITER}

    class UpdateSerializer(StrictSerializer):
        statement = StrictCharField(required=False, allow_blank=False, max_length=5000)
        subject = StrictCharField(required=False, allow_blank=False, max_length=300)
        confidence = StrictFloatField(required=False, min_value=0.0, max_value=1.0)
        reason = StrictCharField(required=False, allow_blank=True, default="", max_length=300)

    class DeleteBody(StrictSerializer):
        reason = StrictCharField(required=False, allow_blank=True, default="", max_length=300)

    class DeleteQuery(QuerySerializer):
        """No query parameter: the reason goes in the body (a URL is written to access logs)."""

    @extend_schema(responses=ExperienceOut, operation_id="experiences_retrieve", summary="Get an experience")
    def get(self, request, experience_id):
        experience = selectors.experience_get(agent=request.user, experience_id=experience_id)
        read_record(agent=request.user, object_type=AuditObject.EXPERIENCE, object_id=experience.pk,
                    scope=experience.scope)
        return Response(ExperienceOut(experience).data)

    @extend_schema(request=UpdateSerializer, responses={200: ExperienceOut, 202: EditProposalOut},
                   operation_id="experiences_update", summary="Edit an experience",
                   description="Your own personal item is changed at once (200, the item as it is now). A module or "
                               "project item is shared: the change is proposed to a person in the review queue "
                               "(202 with the review item's id) and the item stays as it is until it is approved. "
                               "`verified` is set only by a person (400 `field_not_allowed`). The answer carries "
                               "the item, so this needs the `reader` role as well as `writer`.")
    def patch(self, request, experience_id):
        if isinstance(request.data, dict) and "verified" in request.data:
            raise ApplicationError("`verified` is set by a person in the review queue, never by an agent",
                                   code="field_not_allowed", details={"field": "verified"})
        experience = selectors.experience_get(agent=request.user, experience_id=experience_id)
        serializer = self.UpdateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        outcome = experience_update(agent=request.user, experience=experience, **serializer.validated_data)
        if outcome.review_item is not None:
            return _proposal(outcome)
        return Response(ExperienceOut(selectors.experience_get(agent=request.user,
                                                               experience_id=outcome.experience.pk)).data)

    @extend_schema(request=DeleteBody, responses={204: None, 202: EditProposalOut}, operation_id="experiences_delete",
                   summary="Delete an experience",
                   description="Your own personal item is deleted at once (204). A module or project item is "
                               "shared: the deletion is proposed to a person in the review queue (202 with the "
                               "review item's id) and the item stays active until it is approved. The optional "
                               "`reason` goes in the JSON body: a URL is written to access logs, so a `reason` "
                               "query parameter is refused (400 `reason_in_url`).")
    def delete(self, request, experience_id):
        if "reason" in request.query_params:
            raise ApplicationError("send the reason in the JSON body, not in the URL (URLs are written to access "
                                   "logs)", code="reason_in_url")
        self.DeleteQuery.parse(request)
        experience = selectors.experience_get(agent=request.user, experience_id=experience_id)
        # No body is no reason; a JSON body must be an object (`null` is refused like any other non-object).
        serializer = self.DeleteBody(data=request.data)
        serializer.is_valid(raise_exception=True)
        outcome = experience_delete(agent=request.user, experience=experience,
                                    reason=serializer.validated_data["reason"])
        if outcome.review_item is not None:
            return _proposal(outcome)
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- search ----------------------------------------------------------------------

@extend_schema(tags=["search"])
class SearchApi(APIView):
    required_roles = {"post": AgentRole.READER}

    class SearchInputSerializer(StrictSerializer):
        query = StrictCharField(allow_blank=False, max_length=4000)
        # Left out (None): the settings decide.
        k_sub = StrictIntegerField(required=False, min_value=0, max_value=100,
                                   help_text="exchanges returned; default: the server's RECMEM_SEARCH_K_SUB (10)")
        k_epi = StrictIntegerField(required=False, min_value=0, max_value=50,
                                   help_text="episodes returned; default: the server's RECMEM_SEARCH_K_EPI (5)")
        k_sem = StrictIntegerField(required=False, min_value=0, max_value=100,
                                   help_text="experiences returned; default: the server's RECMEM_SEARCH_K_SEM (10)")
        token_budget = StrictIntegerField(required=False, min_value=50, max_value=32000, allow_null=True)
        types = serializers.ListField(child=StrictChoiceField(choices=ExperienceType.choices), required=False,
                                      min_length=1, max_length=len(ExperienceType.choices))
        tags = serializers.ListField(child=StrictCharField(max_length=40), required=False, min_length=1,
                                     max_length=5, help_text="experiences carrying any of these tags")
        since = BoundedDateTimeField(required=False)
        until = BoundedDateTimeField(required=False)
        session = serializers.UUIDField(required=False, help_text="the agent's session this search serves (the "
                                                                  "hit-rate proxy looks for citations there)")
        as_of = BoundedDateTimeField(required=False, help_text="ISO 8601: what was believed then (items current at "
                                                               "that instant, superseded or expired since included)")
        entity = EntityField(required=False)

    class SearchOutputSerializer(serializers.Serializer):
        class ExchangeHit(ExchangeOut):
            score = serializers.FloatField()
            similarity = serializers.FloatField()

        class EpisodeHit(EpisodeOut):
            score = serializers.FloatField()
            similarity = serializers.FloatField()

        class ExperienceHit(ExperienceOut):
            score = serializers.FloatField()
            similarity = serializers.FloatField()

        exchanges = ExchangeHit(many=True, help_text="raw exchanges: the caller's own, and another agent's only where "
                                "a person vouched for them (evidence of a reviewed item, or released by a "
                                "reviewer; RECMEM_SEARCH_PEER_EXCHANGES)")
        episodes = EpisodeHit(many=True)
        experiences = ExperienceHit(many=True)
        context = serializers.CharField()
        context_tokens = serializers.IntegerField()
        context_budget = serializers.IntegerField(help_text="the token budget the context block was built within: "
                                                  "it may use less (hits below the relevance floor are left out)")
        search_id = serializers.UUIDField(help_text="give it back with POST /feedback (hit rate)")

    @extend_schema(request=SearchInputSerializer, responses=SearchOutputSerializer, operation_id="search",
                   summary="Search memory (context block and hits)")
    def post(self, request):
        serializer = self.SearchInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        session_id = data.pop("session", None)
        if data.get("entity") is not None:
            data["entity"] = entity_resolve(agent=request.user, value=data["entity"])
        run = search_run(agent=request.user, query=SearchQuery(**data), session_id=session_id)
        result = run.result

        def hits(items, serializer_class):
            rows = []
            for h in items:
                row = serializer_class(h.obj).data
                row["score"] = round(h.score, 4)
                row["similarity"] = round(h.similarity, 4)
                rows.append(row)
            return rows

        return Response({
            "exchanges": hits(result.exchanges, ExchangeOut),
            "episodes": hits(result.episodes, EpisodeOut),
            "experiences": hits(result.experiences, ExperienceOut),
            "context": result.context,
            "context_tokens": result.context_tokens,
            "context_budget": result.context_budget,
            "search_id": str(run.log.pk),
        })


@extend_schema(tags=["feedback"])
class FeedbackApi(APIView):
    """Which memories of a search the agent used, and whether they helped: the retrieval hit rate (optional; without
    it the rate falls back to the citation proxy, README "Governance")."""

    required_roles = {"post": AgentRole.READER}

    class FeedbackInputSerializer(StrictSerializer):
        search_id = serializers.UUIDField()
        used_ids = serializers.ListField(child=serializers.UUIDField(), max_length=500, allow_empty=True)
        helpful = StrictBooleanField(required=False, allow_null=True, default=None)

    @extend_schema(request=FeedbackInputSerializer,
                   responses={200: inline_serializer("FeedbackOut", {
                       "search_id": serializers.UUIDField(), "used": serializers.IntegerField(),
                       "returned": serializers.IntegerField(), "helpful": serializers.BooleanField(allow_null=True)})},
                   operation_id="feedback_create", summary="Report which hits a search's answer used")
    def post(self, request):
        serializer = self.FeedbackInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        log = search_feedback(agent=request.user, search_id=data["search_id"], used_ids=data["used_ids"],
                              helpful=data["helpful"])
        return Response({"search_id": str(log.pk), "used": len(log.used), "returned": len(log.returned),
                         "helpful": log.helpful})


@extend_schema(tags=["metrics"])
class MetricsApi(APIView):
    """The stored daily governance metrics of the agent's project (operator role)."""

    required_roles = {"get": AgentRole.OPERATOR}

    class MetricsQuery(QuerySerializer):
        since = serializers.DateField(required=False, help_text="YYYY-MM-DD")
        until = serializers.DateField(required=False, help_text="YYYY-MM-DD")
        scope = StrictChoiceField(choices=[*Scope.values, "all"], required=False)

    @extend_schema(parameters=[MetricsQuery],
                   responses=inline_serializer("MetricsOut", {"results": MetricDayOut(many=True)}),
                   operation_id="metrics_list", summary="Governance and retrieval metrics")
    def get(self, request):
        query = self.MetricsQuery.parse(request)
        rows = metrics_list(project=request.user.project, **query)
        return Response({"results": MetricDayOut(rows, many=True).data})


# --- portability ----------------------------------------------------------------------

@extend_schema(tags=["export"])
class ExportApi(APIView):
    """The calling agent's own memory as JSON Lines, streamed (data portability): its sessions and exchanges, the
    personal episodes and experiences it owns with their provenance and versions. Masked text only; audited."""

    required_roles = {"get": KEY_ONLY}

    class ExportQuery(QuerySerializer):
        pass

    @extend_schema(responses={(200, "application/x-ndjson"): OpenApiTypes.STR},
                   operation_id="export_retrieve", summary="Export the agent's own memory (JSON Lines)")
    def get(self, request):
        self.ExportQuery.parse(request)
        response = StreamingHttpResponse(agent_export(agent=request.user),
                                         content_type="application/x-ndjson; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="recmem-agent-{request.user.pk}.jsonl"'
        return response


# --- consolidations ----------------------------------------------------------------------

@extend_schema(tags=["consolidations"])
class ConsolidationListApi(APIView):
    required_roles = {"get": AgentRole.READER}

    @extend_schema(parameters=[ConsolidationListQuery], responses=page_of(BatchOut),
                   operation_id="consolidations_list", summary="List consolidation batches")
    def get(self, request):
        query = ConsolidationListQuery.parse(request)
        qs = selectors.batch_list(agent=request.user, status=query.get("status"))
        return _paginated(request, self, qs, BatchOut, record=AuditObject.CONSOLIDATION_LIST)


@extend_schema(tags=["consolidations"])
class ConsolidationRequestApi(APIView):
    """An agent (operator role) asks for a consolidation run of its pending candidates now."""

    required_roles = {"post": AgentRole.OPERATOR}

    @extend_schema(request=None, responses={202: inline_serializer("ConsolidationQueued", {
        "queued": serializers.BooleanField(), "pending_candidates": serializers.IntegerField()})},
        operation_id="consolidations_request", summary="Request a consolidation run")
    def post(self, request):
        pending = idle_run_request(agent=request.user)
        return Response({"queued": pending > 0, "pending_candidates": pending}, status=status.HTTP_202_ACCEPTED)


@extend_schema(tags=["consolidations"])
class ConsolidationDetailApi(APIView):
    required_roles = {"get": AgentRole.READER}

    # A batch id is a UUID: as a plain string "run" was a valid id, and GET /consolidations/run answers 405.
    @extend_schema(responses=BatchDetailOut, operation_id="consolidations_retrieve",
                   summary="Get a consolidation batch",
                   parameters=[OpenApiParameter("batch_id", OpenApiTypes.UUID, OpenApiParameter.PATH)])
    def get(self, request, batch_id):
        return Response(BatchDetailOut(selectors.batch_get(agent=request.user, batch_id=batch_id)).data)
