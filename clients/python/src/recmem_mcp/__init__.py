"""RecMem's MCP server: ``python -m recmem_mcp`` (stdio) or ``python -m recmem_mcp --transport http``."""

from recmem_mcp.server import build_server

__all__ = ["build_server"]
