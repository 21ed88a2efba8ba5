/**
 * jn's entry point: a command on the source of a running session is run by
 * that session (lib/cli/forward_lookup.ts finds it, lib/cli/forward.ts: nothing else of jn
 * is loaded then);
 * otherwise the process's argv and stdio go to the CLI (lib/cli/main.ts),
 * which reads the command line from its tables and loads only the module of
 * the command that runs.
 *
 * @module
 */

import { sessionsNamedBy } from "./lib/cli/forward_lookup.ts";

if (import.meta.main) {
  const sessions = sessionsNamedBy(Deno.args);
  if (sessions !== undefined) {
    const { forwardToSession } = await import("./lib/cli/forward.ts");
    const forwarded = await forwardToSession(Deno.args, sessions);
    if (forwarded !== undefined) Deno.exit(forwarded);
  }
  const { runProcess } = await import("./lib/cli/main.ts");
  Deno.exit(await runProcess(Deno.args));
}
