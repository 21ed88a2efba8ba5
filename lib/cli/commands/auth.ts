/**
 * `jn auth login|logout|status`: OAuth for remote servers
 * (lib/client/auth.ts). `login` connects and lets the server ask for
 * authorization (so discovery starts from the server's own `401`
 * challenge), with a browser sign-in, a pre-registered client
 * (`--client-id`) or the client-credentials grant; `logout` forgets a
 * server; `status` shows expiry and scopes, never a token.
 *
 * @module
 */

import {
  authStatus,
  formatSummary,
  login,
  loginSettings,
  logout,
  remoteTarget,
  serverUrl,
} from "../../client/auth.ts";
import { InterruptedError } from "../../errors.ts";
import { openOptions } from "../connect.ts";
import type { Cli } from "../context.ts";
import { printErr } from "../io.ts";
import { onInterrupt } from "../signals.ts";
import type { Invocation } from "../table/command.ts";
import type { AUTH_LOGIN, AUTH_LOGOUT, AUTH_STATUS } from "../table/commands.ts";
import { writeJson, writeText } from "../write.ts";

type LoginFlags = Invocation<typeof AUTH_LOGIN>["options"];

/** `jn auth login|logout|status`. */
export async function run(
  cli: Cli,
  call: Invocation<typeof AUTH_LOGIN | typeof AUTH_LOGOUT | typeof AUTH_STATUS>,
): Promise<void> {
  switch (call.command.path[1]) {
    case "login":
      return await runLogin(cli, call.args.server!, call.options as LoginFlags);
    case "logout": {
      const target = await remoteTarget(call.args.server!, cli.io);
      const removed = await logout(target, cli.io);
      await printErr(
        cli.io,
        removed
          ? `jn: signed out of ${serverUrl(target)}`
          : `jn: not signed in to ${serverUrl(target)}; nothing to remove`,
      );
      return;
    }
    case "status": {
      const { server } = call.args;
      const { format } = call.options as Invocation<typeof AUTH_STATUS>["options"];
      const target = server === undefined ? undefined : await remoteTarget(server, cli.io);
      const summaries = await authStatus(target, cli.io);
      if (format === "json") await writeJson(cli.io, server ? summaries[0] : summaries);
      else {
        const text = summaries.length === 0
          ? "No servers signed in."
          : summaries.map((summary) => formatSummary(summary)).join("\n\n");
        await writeText(cli.io, `${text}\n`);
      }
    }
  }
}

async function runLogin(cli: Cli, server: string, raw: LoginFlags): Promise<void> {
  const { io } = cli;
  const target = await remoteTarget(server, io);
  const settings = loginSettings(raw, io);
  if (raw.clientSecret !== undefined && !cli.quiet) {
    // /proc/PID/cmdline is readable by every user of the machine.
    await printErr(
      io,
      "jn: warning: --client-secret puts the secret in the process list, where other users " +
        "of this machine can read it (ps); prefer --client-secret-env VAR",
    );
  }
  const abort = new AbortController();
  const stopSignals = onInterrupt((signal) => abort.abort(new InterruptedError(signal)));
  let summary;
  try {
    summary = await login(target, {
      ...openOptions(cli, target.name, raw),
      signal: abort.signal,
      login: settings,
    });
  } finally {
    stopSignals();
  }
  if (summary === undefined) {
    await printErr(io, `jn: ${serverUrl(target)} did not ask for authorization; nothing stored`);
    return;
  }
  const scopes = summary.scopes.length > 0 ? ` (scopes: ${summary.scopes.join(" ")})` : "";
  await printErr(io, `jn: signed in to ${summary.serverUrl}${scopes}`);
}
