"""``python -m recmem_mcp [--transport stdio|http] [--host 127.0.0.1] [--port 8765] [--url http://localhost:8000]``

stdio (the default): one process per agent, started by the MCP client (Claude Desktop, an IDE, an agent framework);
the agent's key comes from ``RECMEM_API_KEY``. http: streamable HTTP at ``http://HOST:PORT/mcp`` for many agents,
each request carrying its own ``Authorization: Bearer rmk_...``.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys

from recmem_mcp.server import build_server


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="recmem_mcp", description=__doc__.split("\n\n")[0])
    parser.add_argument("--transport", choices=["stdio", "http"], default=os.environ.get("RECMEM_MCP_TRANSPORT",
                                                                                        "stdio"))
    parser.add_argument("--url", default=os.environ.get("RECMEM_URL", "http://localhost:8000"),
                        help="the RecMem server (default: $RECMEM_URL or http://localhost:8000)")
    parser.add_argument("--host", default="127.0.0.1", help="http: address to bind")
    parser.add_argument("--port", type=int, default=8765, help="http: port")
    args = parser.parse_args(argv)
    # stdout is the protocol channel over stdio: logs go to stderr only.
    logging.basicConfig(stream=sys.stderr, level=os.environ.get("LOG_LEVEL", "WARNING"))
    if args.transport == "stdio":
        if not os.environ.get("RECMEM_API_KEY"):
            print("recmem_mcp: set RECMEM_API_KEY to the agent's key (rmk_...)", file=sys.stderr)
            return 2
        build_server(base_url=args.url).run("stdio")
        return 0
    if os.environ.get("RECMEM_API_KEY"):
        print("recmem_mcp: RECMEM_API_KEY is ignored over HTTP: every request carries its agent's own key",
              file=sys.stderr)
    build_server(base_url=args.url, http=True).run("streamable-http", host=args.host, port=args.port)
    return 0


if __name__ == "__main__":
    sys.exit(main())
