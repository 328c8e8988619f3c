"""LLM gateway: chat completions from any OpenAI-compatible endpoint, returned as schema-validated JSON.

Consolidation needs structured output it can trust, and cost accounting needs every HTTP call counted, so:

- replies are requested in JSON mode, parsed (code fences tolerated) and validated with ``jsonschema``;
- an invalid reply gets exactly ONE repair round (the bad reply and the exact validation error are sent back);
- transport failures (timeouts, connection errors, 408/409/429/5xx) are retried by our own loop, at most
  ``max_retries`` times per request, with exponential backoff. The ``openai`` client's own retries are
  switched off so that every HTTP call is visible here and recorded as an ``LLMCallRecord``: tokens from
  ``response.usage`` (``tokens_source="api"``), or counted offline when the endpoint omits ``usage``
  (``tokens_source="offline"``); calls that got no reply record 0 tokens (``tokens_source="none"``).

Settings (optional, read through ``django.conf.settings``): ``RECMEM_LLM_BASE_URL`` ("" = no endpoint,
``get_llm()`` returns None and callers use the extractive consolidator), ``RECMEM_LLM_API_KEY``,
``RECMEM_LLM_MODEL`` ("gpt-4o-mini"), ``RECMEM_LLM_TEMPERATURE`` (0.0), ``RECMEM_LLM_TIMEOUT`` (30.0 s),
``RECMEM_LLM_MAX_RETRIES`` (2).
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import random
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from core.config import config
from core.process_cache import ProcessCache
from core.tracing import traced
from memory.gateways.tokens import count_messages, count_tokens, message_text

__all__ = [
    "LLMCallRecord",
    "LLMError",
    "LLMGateway",
    "LLMInvalidReply",
    "LLMResult",
    "LLMTimeout",
    "clear_llm_cache",
    "get_llm",
    "llm_calls_watched",
    "llm_configured",
]

DEFAULT_MODEL = "gpt-4o-mini"
MAX_BACKOFF_SECONDS = 8.0
_ERROR_TEXT_LIMIT = 500

REPAIR_PROMPT = (
    "Your previous reply could not be used: {error}\n"
    "Reply again with the corrected JSON object only (no prose, no code fences). "
    "It must validate against this JSON schema:\n{schema}"
)
JSON_HINT = "Reply with a single JSON object."


@dataclass
class LLMCallRecord:
    """One HTTP call to the endpoint: what it was for, what it cost, whether it produced usable output.

    ``attempt`` numbers the calls of one ``complete_json`` invocation (retries and the repair round included);
    ``tokens_source`` is "api" (``usage`` reported), "offline" (counted locally) or "none" (no reply).
    """

    purpose: str
    model: str
    prompt_tokens: int
    completion_tokens: int
    latency_ms: float
    ok: bool
    error: str = ""
    attempt: int = 1
    tokens_source: str = "api"

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


@dataclass
class LLMResult:
    """A validated JSON reply and the records of every call it took to get it."""

    data: dict[str, Any]
    calls: list[LLMCallRecord] = field(default_factory=list)

    @property
    def prompt_tokens(self) -> int:
        return sum(call.prompt_tokens for call in self.calls)

    @property
    def completion_tokens(self) -> int:
        return sum(call.completion_tokens for call in self.calls)

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


class LLMError(Exception):
    """The LLM could not produce a usable reply; ``calls`` holds the records of the calls made (and paid)."""

    def __init__(self, message: str, calls: list[LLMCallRecord] | None = None) -> None:
        super().__init__(message)
        self.calls: list[LLMCallRecord] = list(calls or [])


class LLMTimeout(LLMError):
    """Every attempt timed out."""


class LLMInvalidReply(LLMError):
    """The reply was not valid JSON for the schema, even after the repair round."""


class CallWatcher(Protocol):
    """Told when a request leaves for the endpoint, before any reply (its record follows through ``on_call``)."""

    def call_sent(self, *, purpose: str, model: str, prompt_tokens: int) -> None: ...


_WATCHER: contextvars.ContextVar[CallWatcher | None] = contextvars.ContextVar("llm_call_watcher", default=None)


@contextlib.contextmanager
def llm_calls_watched(watcher: CallWatcher) -> Iterator[None]:
    """Within the block, ``watcher.call_sent`` hears of every request as it is sent: a consolidation run records
    the call at once, so a call whose process is killed before the reply still counts (prompt tokens offline)."""
    token = _WATCHER.set(watcher)
    try:
        yield
    finally:
        _WATCHER.reset(token)


# --------------------------------------------------------------------------------------------------------
# Reply parsing and validation.

_FENCE_RE = re.compile(r"^\s*```[a-zA-Z0-9_-]*\s*\n?(.*?)\n?\s*```\s*$", re.DOTALL)


def _truncate(text: str, limit: int = _ERROR_TEXT_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _parse_json(content: str) -> tuple[Any, str]:
    """Parse reply text as JSON; returns (value, "") or (None, error message)."""
    text = content.strip()
    fenced = _FENCE_RE.match(text)
    if fenced:
        text = fenced.group(1).strip()
    try:
        return json.loads(text), ""
    except json.JSONDecodeError as exc:
        # Tolerate prose around a single object ("Here it is: {...}").
        start, end = text.find("{"), text.rfind("}")
        if 0 <= start < end:
            try:
                return json.loads(text[start : end + 1]), ""
            except json.JSONDecodeError:
                pass
        return None, f"the reply is not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})"


def _validate(content: str | None, validator: Any) -> tuple[dict[str, Any] | None, str]:
    """Return (data, "") for a valid reply, else (None, a precise error for the repair prompt)."""
    import jsonschema

    if not content or not content.strip():
        return None, "the reply was empty"
    data, error = _parse_json(content)
    if error:
        return None, error
    if not isinstance(data, dict):
        return None, f"the reply must be a JSON object, got {type(data).__name__}"
    best = jsonschema.exceptions.best_match(validator.iter_errors(data))
    if best is not None:
        location = "$" + "".join(f"[{p!r}]" if isinstance(p, int) else f".{p}" for p in best.absolute_path)
        return None, _truncate(f"schema violation at {location}: {best.message}")
    return data, ""


def _with_json_hint(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    # OpenAI's JSON mode rejects requests whose messages never mention "JSON".
    if any("json" in message_text(m).lower() for m in messages):
        return messages
    return [{"role": "system", "content": JSON_HINT}, *messages]


# --------------------------------------------------------------------------------------------------------
# Gateway.


@dataclass
class _Reply:
    content: str | None
    finish_reason: str
    usage: Any
    latency_ms: float


class LLMGateway:
    """Chat completions from an OpenAI-compatible endpoint, returned as JSON validated against a schema."""

    def __init__(
        self,
        base_url: str,
        api_key: str = "",
        model: str = DEFAULT_MODEL,
        temperature: float = 0.0,
        timeout: float = 30.0,
        max_retries: int = 2,
        *,
        retry_backoff: float = 0.5,
    ) -> None:
        import openai

        if max_retries < 0:
            raise ValueError("max_retries must be >= 0")
        self.base_url = base_url
        self.model = model
        self.temperature = float(temperature)
        self.timeout = float(timeout)
        self.max_retries = int(max_retries)
        self.retry_backoff = float(retry_backoff)
        self._client = openai.OpenAI(
            base_url=base_url or None,
            # The key comes from the settings (RECMEM_*_API_KEY, else OPENAI_API_KEY). Self-hosted
            # OpenAI-compatible servers often need none, but the client insists on one.
            api_key=api_key or "unused",
            timeout=self.timeout,
            max_retries=0,  # retries are ours, so that every HTTP call is recorded (see module docstring)
        )

    def __repr__(self) -> str:
        return f"<LLMGateway {self.model} at {self.base_url}>"

    @traced("recmem.llm", attributes=lambda kw: {"recmem.purpose": kw.get("purpose")})
    def complete_json(
        self,
        *,
        purpose: str,
        messages: list[dict[str, Any]],
        schema: dict[str, Any],
        max_tokens: int | None = None,
        on_call: Callable[[LLMCallRecord], None] | None = None,
    ) -> LLMResult:
        """Ask for a JSON object satisfying ``schema``; one repair round if the reply is invalid.

        ``purpose`` labels the call records (e.g. "episode_merge"). ``on_call`` is invoked with every call
        record as soon as it is made, so callers can persist costs even when this raises.
        Raises ``LLMTimeout``, ``LLMInvalidReply`` or ``LLMError`` (all carrying ``.calls``).
        A malformed ``schema`` raises ``jsonschema.SchemaError`` (a programming error).
        """
        import jsonschema

        validator_cls = jsonschema.validators.validator_for(schema)
        validator_cls.check_schema(schema)
        validator = validator_cls(schema)

        calls: list[LLMCallRecord] = []
        conversation = _with_json_hint([dict(m) for m in messages])
        error = ""
        for round_no in range(2):  # the first answer, then at most one repair
            reply = self._request(purpose, conversation, max_tokens, calls, on_call)
            content = reply.content
            data, error = _validate(content, validator)
            if data is None and reply.finish_reason == "length":
                error += " (the reply was cut off by the max_tokens limit)"
            self._record(
                calls,
                on_call,
                purpose=purpose,
                conversation=conversation,
                reply=reply,
                ok=data is not None,
                error="" if data is not None else f"invalid reply: {error}",
            )
            if data is not None:
                return LLMResult(data=data, calls=calls)
            if round_no == 0:
                conversation = [
                    *conversation,
                    {"role": "assistant", "content": content or ""},
                    {
                        "role": "user",
                        "content": REPAIR_PROMPT.format(
                            error=error, schema=json.dumps(schema, separators=(",", ":"))
                        ),
                    },
                ]
        raise LLMInvalidReply(f"{purpose}: invalid reply after one repair round: {error}", calls)

    # -- one request with transport retries -------------------------------------------------------------

    def _request(
        self,
        purpose: str,
        conversation: list[dict[str, Any]],
        max_tokens: int | None,
        calls: list[LLMCallRecord],
        on_call: Callable[[LLMCallRecord], None] | None,
    ) -> _Reply:
        """Send the conversation, retrying transport failures; returns the first reply received.

        Failed attempts are recorded here; the successful one is recorded by the caller after validation.
        """
        import openai

        kwargs: dict[str, Any] = {
            "model": self.model,
            "messages": conversation,
            "temperature": self.temperature,
            "response_format": {"type": "json_object"},
            "timeout": self.timeout,
        }
        if max_tokens is not None:
            kwargs["max_tokens"] = max_tokens

        last_exc: Exception | None = None
        for retry in range(self.max_retries + 1):
            if retry:
                delay = min(self.retry_backoff * 2 ** (retry - 1), MAX_BACKOFF_SECONDS)
                time.sleep(delay * (1 - 0.25 * random.random()))
            watcher = _WATCHER.get()
            if watcher is not None:
                watcher.call_sent(purpose=purpose, model=self.model, prompt_tokens=count_messages(conversation))
            started = time.perf_counter()
            try:
                response = self._client.chat.completions.create(**kwargs)
            except openai.APIStatusError as exc:
                last_exc = exc
                error = f"HTTP {exc.status_code}: {exc.message}"
                self._record_failure(calls, on_call, purpose, started, error)
                if not _retryable_status(exc.status_code):
                    raise LLMError(f"{purpose}: endpoint refused the request: {exc}", calls) from exc
                continue
            except openai.APITimeoutError as exc:  # subclass of APIConnectionError: test it first
                last_exc = exc
                self._record_failure(calls, on_call, purpose, started, f"timeout after {self.timeout:g}s")
                continue
            except openai.APIConnectionError as exc:
                last_exc = exc
                self._record_failure(calls, on_call, purpose, started, f"connection error: {exc}")
                continue
            except openai.OpenAIError as exc:
                self._record_failure(calls, on_call, purpose, started, f"client error: {exc}")
                raise LLMError(f"{purpose}: {exc}", calls) from exc
            latency_ms = (time.perf_counter() - started) * 1000.0
            choice = response.choices[0] if response.choices else None
            return _Reply(
                content=choice.message.content if choice is not None else None,
                finish_reason=(choice.finish_reason or "") if choice is not None else "",
                usage=getattr(response, "usage", None),
                latency_ms=latency_ms,
            )

        attempts = self.max_retries + 1
        if isinstance(last_exc, openai.APITimeoutError):
            raise LLMTimeout(
                f"{purpose}: timed out {attempts} time(s) ({self.timeout:g}s each) at {self.base_url}", calls
            ) from last_exc
        raise LLMError(f"{purpose}: failed after {attempts} attempt(s): {last_exc}", calls) from last_exc

    # -- call records -----------------------------------------------------------------------------------

    def _record_failure(
        self,
        calls: list[LLMCallRecord],
        on_call: Callable[[LLMCallRecord], None] | None,
        purpose: str,
        started: float,
        error: str,
    ) -> None:
        record = LLMCallRecord(
            purpose=purpose,
            model=self.model,
            prompt_tokens=0,
            completion_tokens=0,
            latency_ms=(time.perf_counter() - started) * 1000.0,
            ok=False,
            error=_truncate(error),
            attempt=len(calls) + 1,
            tokens_source="none",
        )
        calls.append(record)
        if on_call is not None:
            on_call(record)

    def _record(
        self,
        calls: list[LLMCallRecord],
        on_call: Callable[[LLMCallRecord], None] | None,
        *,
        purpose: str,
        conversation: list[dict[str, Any]],
        reply: _Reply,
        ok: bool,
        error: str,
    ) -> None:
        prompt = getattr(reply.usage, "prompt_tokens", None)
        completion = getattr(reply.usage, "completion_tokens", None)
        if prompt is None or completion is None:
            prompt, completion = count_messages(conversation), count_tokens(reply.content or "")
            source = "offline"
        else:
            source = "api"
        record = LLMCallRecord(
            purpose=purpose,
            model=self.model,
            prompt_tokens=int(prompt),
            completion_tokens=int(completion),
            latency_ms=reply.latency_ms,
            ok=ok,
            error=error,
            attempt=len(calls) + 1,
            tokens_source=source,
        )
        calls.append(record)
        if on_call is not None:
            on_call(record)


def _retryable_status(status: int) -> bool:
    return status in (408, 409, 429) or status >= 500


# --------------------------------------------------------------------------------------------------------
# Factory.

_LLMS: ProcessCache[LLMGateway] = ProcessCache()
_OVERRIDES = ("base_url", "api_key", "model", "temperature", "timeout", "max_retries", "retry_backoff")


def llm_configured() -> bool:
    """True when an LLM endpoint is configured (``RECMEM_LLM_BASE_URL`` is set)."""
    return bool(config().llm.base_url)


def get_llm(**overrides: Any) -> LLMGateway | None:
    """Return the process-wide LLM gateway, or None when no endpoint is configured.

    Settings are read first, then keyword ``overrides`` (``base_url``, ``api_key``, ``model``,
    ``temperature``, ``timeout``, ``max_retries``, ``retry_backoff``) win. None means: use the extractive
    consolidator. One gateway is cached per configuration.
    """
    unknown = set(overrides) - set(_OVERRIDES)
    if unknown:
        raise TypeError(f"get_llm() got unexpected overrides: {sorted(unknown)}")
    conf = config()
    wanted = {
        "base_url": overrides.get("base_url", conf.llm.base_url) or "",
        "api_key": overrides.get("api_key", conf.llm.api_key) or "",
        "model": overrides.get("model", conf.llm.model) or DEFAULT_MODEL,
        "temperature": float(overrides.get("temperature", conf.llm.temperature)),
        "timeout": float(overrides.get("timeout", conf.llm.timeout)),
        "max_retries": int(overrides.get("max_retries", conf.llm.max_retries)),
        "retry_backoff": float(overrides.get("retry_backoff", 0.5)),
    }
    if not wanted["base_url"]:
        return None
    key = tuple(sorted((k, str(v)) for k, v in wanted.items()))
    base_url, retry_backoff = wanted.pop("base_url"), wanted.pop("retry_backoff")
    return _LLMS.get(key, lambda: LLMGateway(base_url, retry_backoff=retry_backoff, **wanted))


def clear_llm_cache() -> None:
    """Forget cached gateways (tests, settings changes)."""
    _LLMS.clear()
