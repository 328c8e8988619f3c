"""Memory writes (HackSoft services): sessions, ingest, consolidation, edits."""

from memory.services.ingest import ExchangeIn, IngestResult, exchanges_ingest, session_close, session_create

__all__ = ["ExchangeIn", "IngestResult", "exchanges_ingest", "session_close", "session_create"]
