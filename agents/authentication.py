"""DRF authentication with ``Authorization: Bearer <key>`` and the matching permission."""

from __future__ import annotations

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.permissions import BasePermission

from agents.models import Agent
from agents.selectors import KeyRejected, api_key_authenticate
from agents.services import api_key_touch
from agents.throttling import address_guard, failed_key_record


class KeyAuthFailed(exceptions.AuthenticationFailed):
    def __init__(self, message: str, code: str):
        super().__init__(detail=message, code=code)


class ApiKeyAuthentication(BaseAuthentication):
    """``request.user`` is the Agent, ``request.auth`` the ApiKey."""

    keyword = "Bearer"

    def authenticate(self, request):
        address_guard(request)  # per-address rate and the failed-key lockout, before any key is looked up
        header = get_authorization_header(request).decode("latin-1").strip()
        if not header:
            return None  # -> 401 not_authenticated from the permission check
        parts = header.split()
        if len(parts) != 2 or parts[0].lower() != self.keyword.lower():
            failed_key_record(request)
            raise KeyAuthFailed("Authorization header must be 'Bearer <api key>'", "malformed_header")
        try:
            api_key = api_key_authenticate(raw_key=parts[1])
        except KeyRejected as exc:
            failed_key_record(request)
            raise KeyAuthFailed(str(exc), exc.code) from None
        api_key_touch(api_key=api_key)
        return api_key.agent, api_key

    def authenticate_header(self, request) -> str:
        # Makes DRF answer 401 (not 403) with WWW-Authenticate when no or bad credentials are given.
        return f'{self.keyword} realm="recmem"'


class IsAgent(BasePermission):
    """Only requests authenticated as an agent."""

    def has_permission(self, request, view) -> bool:
        return isinstance(request.user, Agent)


class HasRole(BasePermission):
    """Requires every role listed in the view's ``required_roles``."""

    def has_permission(self, request, view) -> bool:
        required = getattr(view, "required_roles", ())
        return isinstance(request.user, Agent) and all(r in request.user.roles for r in required)


class ApiKeyAuthenticationScheme(OpenApiAuthenticationExtension):
    """Documents the Bearer API key in the OpenAPI schema."""

    target_class = "agents.authentication.ApiKeyAuthentication"
    name = "bearerAuth"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "bearer", "bearerFormat": "rmk_<prefix>_<secret> (RecMem API key)"}
