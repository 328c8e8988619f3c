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
from core.errors import NotAllowed


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


KEY_ONLY = None  # in ``required_roles``: a valid API key is enough


class HasRole(BasePermission):
    """The default permission of every API view: an authenticated agent holding the role the view declares for the
    request's method, ``required_roles = {"get": AgentRole.READER, "post": AgentRole.WRITER}`` (``KEY_ONLY``: a key
    is enough; a tuple of roles: all of them). A method the view does not declare is refused (fail closed); HEAD
    follows GET, OPTIONS needs a key. A missing role is a 403 ``missing_role`` naming it."""

    def has_permission(self, request, view) -> bool:
        if not isinstance(request.user, Agent):
            return False  # -> 401 not_authenticated
        method = request.method.lower()
        if method == "options":
            return True
        method = "get" if method == "head" else method
        declared = getattr(view, "required_roles", {})
        if method not in declared and not hasattr(view, method):
            return True  # the view has no handler: DRF answers 405 method_not_allowed (nothing runs)
        if method not in declared:
            raise NotAllowed(f"no role is declared for {request.method} on this endpoint", code="missing_role")
        needed = declared[method]
        # A tuple: every role in it (an endpoint that writes and answers with what it wrote needs both).
        for role in (needed if isinstance(needed, tuple) else (needed,)):
            if role is not KEY_ONLY and role not in request.user.roles:
                raise NotAllowed(f"this endpoint needs the '{role}' role", code="missing_role",
                                 details={"required_role": str(role)})
        return True


class ApiKeyAuthenticationScheme(OpenApiAuthenticationExtension):
    """Documents the Bearer API key in the OpenAPI schema."""

    target_class = "agents.authentication.ApiKeyAuthentication"
    name = "bearerAuth"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "bearer", "bearerFormat": "rmk_<prefix>_<secret> (RecMem API key)"}
