/**
 * jn's session layer without the CLI: `openSession()` → one list or call →
 * `close()`, as a one-shot process. The gap between this row and the raw
 * client is the cost of the SDK and the session; the gap between jn's rows
 * and this one is the CLI's (commander, URI parsing, records, argument
 * validation).
 *
 * Usage: deno run -A session_client.ts list|call[=KEY] -- SERVER ARGV…
 *
 * @module
 */

import { openSession } from "../../../lib/session/session.ts";

const [mode, _dashes, command, ...args] = Deno.args;
const session = await openSession(
  { transport: "stdio", command, args, env: {}, label: command },
  { timeoutMs: 60_000, connectTimeoutMs: 60_000, callerEnv: Deno.env.toObject() },
);
try {
  const result = mode === "list"
    ? await session.listTools()
    : await session.callTool("echo", { [mode.split("=")[1] ?? "text"]: "hi" });
  await Deno.stdout.write(new TextEncoder().encode(JSON.stringify(result) + "\n"));
} finally {
  await session.close();
}
