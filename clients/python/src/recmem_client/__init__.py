"""RecMem client: typed, sync and async, with retries that never write twice.

    from recmem_client import RecMem
    mem = RecMem()                                       # RECMEM_URL (default http://localhost:8000), RECMEM_API_KEY
    with mem.session(external_id="chat-1") as s:
        s.add("I am training for the Berlin marathon", "Great, let us plan it.")
    print(mem.search("what race am I training for?").context)
"""

__version__ = "0.1.0"

from recmem_client._base import RetryPolicy  # noqa: E402
from recmem_client.async_client import AsyncRecMem  # noqa: E402
from recmem_client.client import RecMem  # noqa: E402
from recmem_client.errors import (  # noqa: E402
    APIConnectionError,
    APIStatusError,
    APITimeoutError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    NotFoundError,
    PayloadTooLargeError,
    PermissionDeniedError,
    RateLimitError,
    RecMemError,
    ServerError,
    UnsupportedMediaTypeError,
)
from recmem_client.models import (  # noqa: E402
    AgentMe,
    Batch,
    BatchDetail,
    EditProposal,
    Entity,
    Episode,
    EpisodeHit,
    Exchange,
    ExchangeHit,
    ExchangeIn,
    Experience,
    ExperienceHit,
    Page,
    SearchResult,
    Session,
)
from recmem_client.sessions import AsyncSessionHandle, SessionHandle  # noqa: E402

__all__ = [
    "APIConnectionError", "APIStatusError", "APITimeoutError", "AgentMe", "AsyncRecMem", "AsyncSessionHandle",
    "AuthenticationError", "BadRequestError", "Batch", "BatchDetail", "ConflictError", "EditProposal", "Entity",
    "Episode", "EpisodeHit", "Exchange", "ExchangeHit", "ExchangeIn", "Experience", "ExperienceHit", "NotFoundError",
    "Page", "PayloadTooLargeError", "PermissionDeniedError", "RateLimitError", "RecMem", "RecMemError", "RetryPolicy",
    "SearchResult", "ServerError", "Session", "SessionHandle", "UnsupportedMediaTypeError", "__version__",
]
