/**
 * The SDK floor of `jn put`: what raw_pipelined.ts does (one session, one
 * `tools/call` per NDJSON record on stdin, up to K calls in flight, each
 * result written to stdout as one JSON line in input order,
 * `{"input":N,…result}`), but through jn's session layer (lib/session:
 * the MCP SDK's client over jn's stdio channel) instead of hand-written
 * JSON-RPC. No CLI, no URI, no argument conversion or validation, no record
 * building: the gap between this row and the raw client is the SDK's and the
 * session's per-request cost; the gap between `jn put` and this row is jn's.
 * Like `jn put`, it lists the tools once before the first call.
 *
 * Usage: deno run -A session_pipelined.ts K TOOL -- SERVER ARGV… < records.ndjson
 *
 * @module
 */

import { openSession } from "../../../lib/session/session.ts";
import { orderedCalls } from "./ordered_calls.ts";

const [k, tool, _dashes, command, ...args] = Deno.args;
const concurrency = Number(k);
const session = await openSession(
  { transport: "stdio", command, args, env: {}, label: command },
  { timeoutMs: 60_000, connectTimeoutMs: 60_000, callerEnv: Deno.env.toObject() },
);
try {
  await session.listTools();
  await orderedCalls(
    concurrency,
    (record) => session.callTool(tool, record as Record<string, unknown>),
  );
} finally {
  await session.close();
}
