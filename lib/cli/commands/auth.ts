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

import type { Command } from "commander";
import { formatSummary } from "../../auth/describe.ts";
import {
  authStatus,
  login,
  type LoginFlags as AuthFlags,
  loginSettings,
  logout,
  remoteTarget,
  serverUrl,
} from "../../client/auth.ts";
import { InterruptedError } from "../../errors.ts";
import { openOptions } from "../connect.ts";
import { action, type Cli } from "../context.ts";
import { printErr } from "../io.ts";
import {
  addConnectionOptions,
  LOGIN_CONNECTION_OPTIONS,
  parseCallFlags,
  type RawCallFlags,
} from "../options.ts";
import { onInterrupt } from "../signals.ts";
import { writeJson, writeText } from "../write.ts";
import { parseFormat } from "./inspect.ts";

type LoginFlags = RawCallFlags & AuthFlags;

/** Registers `auth` and its subcommands. */
export function registerAuth(program: Command, cli: Cli): void {
  const auth = program.command("auth").description("OAuth sign-in for remote servers");
  const loginCommand = auth.command("login")
    .description(
      "sign in to a remote server: browser, pre-registered client, client credentials " +
        "(secret or private_key_jwt), workload identity, or cross-app access",
    )
    .argument("<server>", "mcp+https://… URI (or https://…) or @profile")
    .option("--scope <scopes>", "the scopes to ask for (space-separated)")
    .option("--client-id <id>", "a pre-registered OAuth client (skips dynamic registration)")
    .option("--client-secret <secret>", "its secret (prefer --client-secret-env)")
    .option("--client-secret-env <VAR>", "read the client secret from environment variable VAR")
    .option("--client-credentials", "machine-to-machine: the client-credentials grant, no browser")
    .option(
      "--client-metadata-url <url>",
      "an HTTPS client ID metadata document to use as client_id",
    )
    .option("--private-key <file>", "client credentials with private_key_jwt: a PKCS#8 PEM key")
    .option("--private-key-env <VAR>", "the same key, read from environment variable VAR")
    .option("--signing-alg <alg>", "the key's JWS algorithm (default: ES256/384/512 or RS256)")
    .option("--assertion <file>", "workload identity: a JWT for the JWT-bearer grant")
    .option("--assertion-env <VAR>", "the same JWT, read from environment variable VAR")
    .option("--idp <url>", "cross-app access: the enterprise IdP (issuer URL)")
    .option("--idp-token-endpoint <url>", "cross-app access: the IdP's token endpoint")
    .option("--idp-client-id <id>", "cross-app access: jn's client at the IdP")
    .option("--idp-client-secret-env <VAR>", "its secret, from environment variable VAR")
    .option("--id-token <file>", "cross-app access: the user's ID token from the IdP")
    .option("--id-token-env <VAR>", "the same ID token, from environment variable VAR")
    .option("--dpop", "ask for DPoP-bound tokens (RFC 9449), kept with a key jn makes");
  addConnectionOptions(loginCommand, LOGIN_CONNECTION_OPTIONS).action(
    action(cli, async (server: string, raw: LoginFlags) => {
      await runLogin(cli, server, raw);
    }),
  );
  auth.command("logout")
    .description("forget the tokens and client registration of a server")
    .argument("<server>", "mcp+https://… URI (or https://…) or @profile")
    .action(action(cli, async (server: string) => {
      const target = await remoteTarget(server, cli.io);
      const removed = await logout(target, cli.io);
      await printErr(
        cli.io,
        removed
          ? `jn: signed out of ${serverUrl(target)}`
          : `jn: not signed in to ${serverUrl(target)}; nothing to remove`,
      );
    }));
  auth.command("status")
    .description("sign-in state of one server, or of all: expiry and scopes, never tokens")
    .argument("[server]", "mcp+https://… URI (or https://…) or @profile")
    .option("--format <format>", "text or json", "text")
    .action(action(cli, async (server: string | undefined, raw: { format: string }) => {
      const format = parseFormat(raw.format);
      const target = server === undefined ? undefined : await remoteTarget(server, cli.io);
      const summaries = await authStatus(target, cli.io);
      if (format === "json") await writeJson(cli.io, server ? summaries[0] : summaries);
      else {
        const text = summaries.length === 0
          ? "No servers signed in."
          : summaries.map((summary) => formatSummary(summary)).join("\n\n");
        await writeText(cli.io, `${text}\n`);
      }
    }));
}

async function runLogin(cli: Cli, server: string, raw: LoginFlags): Promise<void> {
  const { io } = cli;
  const target = await remoteTarget(server, io);
  const flags = parseCallFlags(raw);
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
      ...openOptions(cli, target, flags),
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
