"""Agent-facing API: who am I."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from agents.authentication import KEY_ONLY
from agents.selectors import agent_modules


@extend_schema(tags=["agents"])
class AgentMeApi(APIView):
    required_roles = {"get": KEY_ONLY}

    class AgentMeOutputSerializer(serializers.Serializer):
        class ProjectSerializer(serializers.Serializer):
            id = serializers.UUIDField()
            name = serializers.CharField()

        class ModuleSerializer(serializers.Serializer):
            id = serializers.UUIDField()
            name = serializers.CharField()

        class KeySerializer(serializers.Serializer):
            prefix = serializers.CharField()
            name = serializers.CharField()
            expires_at = serializers.DateTimeField(allow_null=True)

        id = serializers.UUIDField()
        name = serializers.CharField()
        roles = serializers.ListField(child=serializers.CharField())
        project = ProjectSerializer()
        modules = ModuleSerializer(many=True)
        key = KeySerializer()
        created_at = serializers.DateTimeField()

    @extend_schema(responses=AgentMeOutputSerializer, operation_id="agents_me", summary="The calling agent")
    def get(self, request):
        agent = request.user
        data = {
            "id": agent.id,
            "name": agent.name,
            "roles": agent.roles,
            "project": agent.project,
            "modules": list(agent_modules(agent=agent)),
            "key": request.auth,
            "created_at": agent.created_at,
        }
        return Response(self.AgentMeOutputSerializer(data).data)
