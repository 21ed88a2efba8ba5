#!/usr/bin/env python3
"""An example MCP server in plain Python: JSON-RPC 2.0 over stdio, stdlib only.

The server the README tour and docs/ use (`mcp+python://./examples/server.py`).
It speaks the 2025 `initialize` handshake; jn negotiates down to it.

Tools:
  search(q, limit=3)       a JSON array of made-up hits for `q` (try `--json`)
  export(path, q=example)  writes the hits for `q` to the file `path` (try it
                           under `--sandbox-write`)
  echo(text)               the text back
  roots()                  asks the client for its roots (`jn cat … --root DIR`)

Set EXAMPLE_SERVER_V2=1 (and pass it with `--env-passthrough EXAMPLE_SERVER_V2`)
to play the server's next release: `search` renames `q` to `query` and gains a
`since` parameter, which is what `jn profile validate|diff|update` report.
Exits when stdin closes.
"""

import json
import os
import sys

VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")
V2 = os.environ.get("EXAMPLE_SERVER_V2", "") not in ("", "0")
QUERY = "query" if V2 else "q"


def search_schema():
    properties = {
        QUERY: {"type": "string", "description": "What to look for"},
        "limit": {"type": "integer", "minimum": 1, "maximum": 50,
                  "description": "How many hits (default 3)"},
    }
    if V2:
        properties["since"] = {"type": "string", "description": "Only hits after this date"}
    return {"type": "object", "properties": properties, "required": [QUERY],
            "additionalProperties": False}


TOOLS = [
    {
        "name": "search",
        "description": "Searches the example index; returns a JSON array of hits {id, title}.",
        "inputSchema": search_schema(),
    },
    {
        "name": "export",
        "description": "Writes the hits of a search to a JSON file and says how many.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "The file to write, e.g. out/hits.json"},
                "q": {"type": "string", "description": "What to look for (default example)"},
            },
            "required": ["path"],
        },
    },
    {
        "name": "roots",
        "description": "Asks the client for its roots (roots/list) and returns its answer.",
        "inputSchema": {"type": "object", "properties": {}},
    },
    {
        "name": "echo",
        "description": "Returns the text you send.",
        "inputSchema": {
            "type": "object",
            "properties": {"text": {"type": "string", "description": "The text to send back"}},
            "required": ["text"],
        },
    },
]


class Failure(Exception):
    """A JSON-RPC error answer."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def hits(query, limit):
    return [{"id": n, "title": f"Result {n} for {query}"} for n in range(1, limit + 1)]


def text(value, is_error=False):
    result = {"content": [{"type": "text", "text": value}]}
    if is_error:
        result["isError"] = True
    return result


def call(name, args):
    if name == "search":
        return text(json.dumps(hits(args.get(QUERY, ""), int(args.get("limit", 3)))))
    if name == "export":
        found = hits(args.get("q", "example"), 3)
        try:
            with open(args["path"], "w", encoding="utf-8") as out:
                json.dump(found, out, indent=2)
        except OSError as error:
            return text(f"Cannot write {args['path']}: {error.strerror}", is_error=True)
        return text(f"Wrote {len(found)} hits to {args['path']}")
    if name == "echo":
        return text(str(args.get("text", "")))
    if name == "roots":
        return text(json.dumps(ask("roots/list")))
    raise Failure(-32602, f"Unknown tool: {name}")


def answer(method, params, session):
    if method == "initialize":
        session["open"] = True
        asked = params.get("protocolVersion")
        return {
            "protocolVersion": asked if asked in VERSIONS else VERSIONS[0],
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "example-python", "version": "2.0.0" if V2 else "1.0.0"},
        }
    if method == "ping":
        return {}
    if not session["open"]:
        # Before `initialize`, e.g. a 2026-07-28 opening: unknown, so the client falls back.
        raise Failure(-32601, f"Method not found: {method}")
    if method == "tools/list":
        return {"tools": TOOLS}
    if method == "tools/call":
        return call(params.get("name"), params.get("arguments") or {})
    raise Failure(-32601, f"Method not found: {method}")


def write(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def ask(method):
    """Sends a request to the client and waits for its answer (result or error)."""
    write({"jsonrpc": "2.0", "id": "ask-1", "method": method, "params": {}})
    for line in iter(sys.stdin.readline, ""):
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if isinstance(message, dict) and message.get("id") == "ask-1" and "method" not in message:
            return message.get("result", message.get("error"))
    raise Failure(-32603, "The client closed the connection")


def serve():
    session = {"open": False}
    for line in iter(sys.stdin.readline, ""):
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except ValueError:
            write({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}})
            continue
        if not isinstance(message, dict) or "method" not in message or "id" not in message:
            continue  # a notification or a response: nothing to answer
        try:
            result = answer(message["method"], message.get("params") or {}, session)
            write({"jsonrpc": "2.0", "id": message["id"], "result": result})
        except Failure as error:
            write({"jsonrpc": "2.0", "id": message["id"],
                   "error": {"code": error.code, "message": str(error)}})


if __name__ == "__main__":
    try:
        serve()
    except (BrokenPipeError, KeyboardInterrupt):
        pass
