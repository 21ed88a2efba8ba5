/**
 * Opens a session on the server named by argv (`node SCRIPT ARGS…`), makes
 * one call, and exits with `Deno.exit(7)` without closing it: what a program
 * embedding jn's library might do. jn's `unload` hook must still end the
 * server's whole tree.
 */

import { openSession } from "../../../lib/session/session.ts";

const [script, ...args] = Deno.args;
const session = await openSession({
  transport: "stdio",
  command: "node",
  args: [script, ...args],
  env: {},
  label: "node",
}, {
  timeoutMs: 30_000,
  connectTimeoutMs: 30_000,
  callerEnv: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
});
await session.callTool("echo", { text: "hi" });
Deno.exit(7);
