"""Memory REST API (thin: validate → service/selector → serialize)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.response import Response
from rest_framework.views import APIView

from agents.models import AgentRole
from agents.visibility import Scope
from core.config import config
from core.errors import ApplicationError, TooLarge
from memory import selectors
from memory.models import Exchange, ExperienceType, MemoryStatus, Session
from memory.serializers import BatchDetailOut, BatchOut, EpisodeOut, ExchangeOut, ExperienceOut, SessionOut
from memory.services.edits import experience_delete, experience_update
from memory.services.ingest import ExchangeIn, exchanges_ingest, session_close, session_create
from memory.services.scheduling import idle_run_request
from memory.services.search import read_record, search_query_mask, search_record


def _paginated(request, view, queryset, serializer_class):
    paginator = LimitOffsetPagination()
    page = paginator.paginate_queryset(queryset, request, view=view)
    return paginator.get_paginated_response(serializer_class(page, many=True).data)


class ListFilterSerializer(serializers.Serializer):
    status = serializers.CharField(required=False)
    scope = serializers.ChoiceField(choices=Scope.choices, required=False)
    type = serializers.ChoiceField(choices=ExperienceType.choices, required=False)
    state = serializers.ChoiceField(choices=Exchange.State.choices, required=False)
    session = serializers.UUIDField(required=False)
    since = serializers.DateTimeField(required=False)
    until = serializers.DateTimeField(required=False)

    def to_filters(self) -> selectors.ListFilters:
        return selectors.ListFilters(**self.validated_data)


def _filters(request, allowed_status=None) -> selectors.ListFilters:
    data = {k: v for k, v in request.query_params.items() if k not in ("limit", "offset")}
    serializer = ListFilterSerializer(data=data)
    serializer.is_valid(raise_exception=True)
    filters = serializer.to_filters()
    if filters.status and allowed_status is not None and filters.status not in allowed_status:
        raise ApplicationError(f"status must be one of {sorted(allowed_status)}", code="invalid")
    return filters


FILTER_PARAMS = [
    OpenApiParameter("status", str), OpenApiParameter("scope", str, enum=Scope.values),
    OpenApiParameter("since", str, description="ISO 8601"), OpenApiParameter("until", str, description="ISO 8601"),
    OpenApiParameter("limit", int), OpenApiParameter("offset", int),
]


# --- sessions ----------------------------------------------------------------------

class SessionListCreateApi(APIView):
    required_roles = {"get": AgentRole.READER, "post": AgentRole.WRITER}

    class SessionCreateInputSerializer(serializers.Serializer):
        external_id = serializers.CharField(required=False, allow_blank=True, max_length=200, default="")
        started_at = serializers.DateTimeField(required=False)
        module = serializers.CharField(required=False, allow_null=True, max_length=200,
                                       help_text="name or id of one of the agent's modules")
        metadata = serializers.JSONField(required=False, default=dict)

        def validate_metadata(self, value):
            if not isinstance(value, dict):
                raise serializers.ValidationError("metadata must be an object")
            return value

    @extend_schema(request=SessionCreateInputSerializer, responses={201: SessionOut}, operation_id="sessions_create")
    def post(self, request):
        serializer = self.SessionCreateInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        session = session_create(agent=request.user, external_id=data["external_id"],
                                 started_at=data.get("started_at"), module=data.get("module") or None,
                                 metadata=data["metadata"])
        return Response(SessionOut(session).data, status=status.HTTP_201_CREATED)

    @extend_schema(parameters=FILTER_PARAMS, responses=SessionOut(many=True), operation_id="sessions_list")
    def get(self, request):
        filters = _filters(request, allowed_status=set(Session.Status.values))
        return _paginated(request, self, selectors.session_list(agent=request.user, filters=filters)
                          .select_related("module"), SessionOut)


class SessionDetailApi(APIView):
    required_roles = {"get": AgentRole.READER}

    @extend_schema(responses=SessionOut, operation_id="sessions_retrieve")
    def get(self, request, session_id):
        session = selectors.session_get(agent=request.user, session_id=session_id)
        return Response(SessionOut(session).data)


class SessionCloseApi(APIView):
    required_roles = {"post": AgentRole.WRITER}

    @extend_schema(request=None, responses=SessionOut, operation_id="sessions_close")
    def post(self, request, session_id):
        session = selectors.session_get_owned(agent=request.user, session_id=session_id)
        return Response(SessionOut(session_close(agent=request.user, session=session)).data)


class ExchangeInSerializer(serializers.Serializer):
    user = serializers.CharField(required=False, allow_blank=True, trim_whitespace=True, default="")
    assistant = serializers.CharField(required=False, allow_blank=True, trim_whitespace=True, default="")
    occurred_at = serializers.DateTimeField(required=False)
    metadata = serializers.JSONField(required=False, default=dict)

    def validate(self, attrs):
        # One side may be missing (a turn nobody answered), but an exchange with no text at all is an error.
        if not attrs["user"] and not attrs["assistant"]:
            raise serializers.ValidationError({"user": "user and assistant texts are both empty"})
        return attrs

    def validate_metadata(self, value):
        if not isinstance(value, dict):
            raise serializers.ValidationError("metadata must be an object")
        return value


class SessionExchangesApi(APIView):
    required_roles = {"post": AgentRole.WRITER}

    @extend_schema(
        request=inline_serializer("ExchangesIn", {
            "user": serializers.CharField(required=False), "assistant": serializers.CharField(required=False),
            "occurred_at": serializers.DateTimeField(required=False),
            "metadata": serializers.JSONField(required=False),
            "exchanges": ExchangeInSerializer(many=True, required=False)}),
        responses={201: inline_serializer("ExchangesOut", {"exchanges": ExchangeOut(many=True)})},
        operation_id="sessions_exchanges_create",
        description="One exchange `{user, assistant, occurred_at?, metadata?}` or `{\"exchanges\": [...]}` "
                    "(at most RECMEM_MAX_BATCH_EXCHANGES, default 500).",
    )
    def post(self, request, session_id):
        session = selectors.session_get_owned(agent=request.user, session_id=session_id)
        payload = request.data
        if not isinstance(payload, dict):
            raise ApplicationError("body must be a JSON object", code="invalid")
        many = "exchanges" in payload
        raw = payload["exchanges"] if many else [payload]
        if not isinstance(raw, list) or not raw:
            raise ApplicationError("exchanges must be a non-empty list", code="invalid")
        limit = config().max_batch_exchanges
        if len(raw) > limit:
            raise TooLarge(f"at most {limit} exchanges per request (got {len(raw)})", code="too_many_exchanges")
        serializer = ExchangeInSerializer(data=raw, many=True)
        serializer.is_valid(raise_exception=True)
        max_chars = config().max_text_chars
        too_long = [i for i, item in enumerate(serializer.validated_data)
                    if len(item["user"]) > max_chars or len(item["assistant"]) > max_chars]
        if too_long:
            raise TooLarge(f"texts longer than {max_chars} characters", code="text_too_long",
                           details={"indexes": too_long, "max_chars": max_chars})
        items = [ExchangeIn(**item) for item in serializer.validated_data]
        result = exchanges_ingest(agent=request.user, session=session, items=items)
        return Response({"exchanges": ExchangeOut(result.exchanges, many=True).data}, status=status.HTTP_201_CREATED)


# --- reads ----------------------------------------------------------------------

class ExchangeListApi(APIView):
    required_roles = {"get": AgentRole.READER}

    @extend_schema(parameters=[*FILTER_PARAMS, OpenApiParameter("session", str),
                               OpenApiParameter("state", str, enum=Exchange.State.values)],
                   responses=ExchangeOut(many=True), operation_id="exchanges_list")
    def get(self, request):
        filters = _filters(request)
        return _paginated(request, self, selectors.exchange_list(agent=request.user, filters=filters), ExchangeOut)


class ExchangeDetailApi(APIView):
    required_roles = {"get": AgentRole.READER}

    @extend_schema(responses=ExchangeOut, operation_id="exchanges_retrieve")
    def get(self, request, exchange_id):
        exchange = selectors.exchange_get(agent=request.user, exchange_id=exchange_id)
        read_record(agent=request.user, object_type="exchange", object_id=exchange.pk, scope=exchange.scope)
        return Response(ExchangeOut(exchange).data)


class EpisodeListApi(APIView):
    required_roles = {"get": AgentRole.READER}

    @extend_schema(parameters=FILTER_PARAMS, responses=EpisodeOut(many=True), operation_id="episodes_list")
    def get(self, request):
        filters = _filters(request, allowed_status=set(MemoryStatus.values))
        qs = selectors.episode_list(agent=request.user, filters=filters)
        return _paginated(request, self, qs, EpisodeOut)


class EpisodeDetailApi(APIView):
    required_roles = {"get": AgentRole.READER}

    @extend_schema(responses=EpisodeOut, operation_id="episodes_retrieve")
    def get(self, request, episode_id):
        episode = selectors.episode_get(agent=request.user, episode_id=episode_id)
        read_record(agent=request.user, object_type="episode", object_id=episode.pk, scope=episode.scope)
        return Response(EpisodeOut(episode).data)


class ExperienceListApi(APIView):
    required_roles = {"get": AgentRole.READER}

    @extend_schema(parameters=[*FILTER_PARAMS, OpenApiParameter("type", str, enum=ExperienceType.values)],
                   responses=ExperienceOut(many=True), operation_id="experiences_list")
    def get(self, request):
        filters = _filters(request, allowed_status=set(MemoryStatus.values))
        qs = selectors.experience_list(agent=request.user, filters=filters)
        return _paginated(request, self, qs, ExperienceOut)


class ExperienceDetailApi(APIView):
    required_roles = {"get": AgentRole.READER, "patch": AgentRole.WRITER, "delete": AgentRole.WRITER}

    class UpdateSerializer(serializers.Serializer):
        statement = serializers.CharField(required=False, allow_blank=False, max_length=5000)
        subject = serializers.CharField(required=False, allow_blank=False, max_length=300)
        confidence = serializers.FloatField(required=False, min_value=0.0, max_value=1.0)
        verified = serializers.BooleanField(required=False)
        reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=300)

    @extend_schema(responses=ExperienceOut, operation_id="experiences_retrieve")
    def get(self, request, experience_id):
        experience = selectors.experience_get(agent=request.user, experience_id=experience_id)
        read_record(agent=request.user, object_type="experience", object_id=experience.pk, scope=experience.scope)
        return Response(ExperienceOut(experience).data)

    @extend_schema(request=UpdateSerializer, responses=ExperienceOut, operation_id="experiences_update")
    def patch(self, request, experience_id):
        experience = selectors.experience_get(agent=request.user, experience_id=experience_id)
        serializer = self.UpdateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        updated = experience_update(agent=request.user, experience=experience, **serializer.validated_data)
        return Response(ExperienceOut(selectors.experience_get(agent=request.user, experience_id=updated.pk)).data)

    @extend_schema(request=None, responses={204: None}, operation_id="experiences_delete")
    def delete(self, request, experience_id):
        experience = selectors.experience_get(agent=request.user, experience_id=experience_id)
        experience_delete(agent=request.user, experience=experience, reason=request.query_params.get("reason", ""))
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- search ----------------------------------------------------------------------

class SearchApi(APIView):
    required_roles = {"post": AgentRole.READER}

    class SearchInputSerializer(serializers.Serializer):
        query = serializers.CharField(allow_blank=False, max_length=4000)
        k_sub = serializers.IntegerField(required=False, min_value=0, max_value=100, default=10)
        k_epi = serializers.IntegerField(required=False, min_value=0, max_value=50, default=5)
        k_sem = serializers.IntegerField(required=False, min_value=0, max_value=100, default=10)
        token_budget = serializers.IntegerField(required=False, min_value=50, max_value=32000, allow_null=True)
        types = serializers.ListField(child=serializers.ChoiceField(choices=ExperienceType.choices), required=False,
                                      allow_empty=False)
        since = serializers.DateTimeField(required=False)
        until = serializers.DateTimeField(required=False)

        def validate(self, attrs):
            if attrs.get("since") and attrs.get("until") and attrs["since"] >= attrs["until"]:
                raise serializers.ValidationError({"until": "until must be after since"})
            return attrs

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

        exchanges = ExchangeHit(many=True)
        episodes = EpisodeHit(many=True)
        experiences = ExperienceHit(many=True)
        context = serializers.CharField()
        context_tokens = serializers.IntegerField()

    @extend_schema(request=SearchInputSerializer, responses=SearchOutputSerializer, operation_id="search")
    def post(self, request):
        serializer = self.SearchInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        query = selectors.SearchQuery(**{**data, "query": search_query_mask(agent=request.user, query=data["query"])})
        result = selectors.memory_search(agent=request.user, query=query)
        search_record(agent=request.user, query=query.query, result=result)

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
        })


# --- consolidations ----------------------------------------------------------------------

class ConsolidationListApi(APIView):
    required_roles = {"get": AgentRole.READER}

    @extend_schema(parameters=[OpenApiParameter("status", str), OpenApiParameter("limit", int),
                               OpenApiParameter("offset", int)],
                   responses=BatchOut(many=True), operation_id="consolidations_list")
    def get(self, request):
        qs = selectors.batch_list(agent=request.user, status=request.query_params.get("status"))
        return _paginated(request, self, qs, BatchOut)


class ConsolidationRequestApi(APIView):
    """An agent (operator role) asks for a consolidation run of its pending candidates now."""

    required_roles = {"post": AgentRole.OPERATOR}

    @extend_schema(request=None, responses={202: inline_serializer("ConsolidationQueued", {
        "queued": serializers.BooleanField(), "pending_candidates": serializers.IntegerField()})},
        operation_id="consolidations_request")
    def post(self, request):
        pending = idle_run_request(agent=request.user)
        return Response({"queued": pending > 0, "pending_candidates": pending}, status=status.HTTP_202_ACCEPTED)


class ConsolidationDetailApi(APIView):
    required_roles = {"get": AgentRole.READER}

    @extend_schema(responses=BatchDetailOut, operation_id="consolidations_retrieve")
    def get(self, request, batch_id):
        return Response(BatchDetailOut(selectors.batch_get(agent=request.user, batch_id=batch_id)).data)
