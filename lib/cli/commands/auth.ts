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
import { authStatus, login, logout, remoteTarget, serverUrl } from "../../client/auth.ts";
import { ConfigError, InterruptedError, UsageError } from "../../errors.ts";
import { openOptions } from "../connect.ts";
import { action, type Cli } from "../context.ts";
import { printErr } from "../io.ts";
import { addConnectionOptions, parseCallFlags, type RawCallFlags } from "../options.ts";
import { onInterrupt } from "../signals.ts";
import { writeJson, writeText } from "../write.ts";
import { parseFormat } from "./inspect.ts";

interface LoginFlags extends RawCallFlags {
  scope?: string;
  clientId?: string;
  clientSecret?: string;
  clientSecretEnv?: string;
  clientCredentials?: boolean;
  clientMetadataUrl?: string;
}

/** Registers `auth` and its subcommands. */
export function registerAuth(program: Command, cli: Cli): void {
  const auth = program.command("auth").description("OAuth sign-in for remote servers");
  const loginCommand = auth.command("login")
    .description(
      "sign in to a remote server (browser, pre-registered client, or client credentials)",
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
    );
  addConnectionOptions(loginCommand).action(action(cli, async (server: string, raw: LoginFlags) => {
    await runLogin(cli, server, raw);
  }));
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
  const secret = raw.clientSecretEnv ? io.env[raw.clientSecretEnv] : raw.clientSecret;
  if (raw.clientSecretEnv && !secret) {
    throw new ConfigError(
      `The variable "${raw.clientSecretEnv}" of --client-secret-env is not set`,
    );
  }
  if (raw.clientCredentials && (!raw.clientId || !secret)) {
    throw new UsageError("--client-credentials needs --client-id and a client secret", {
      hint: "e.g. jn auth login URL --client-credentials --client-id ID --client-secret-env SECRET",
    });
  }
  if (secret && !raw.clientId) throw new UsageError("A client secret needs --client-id");
  const abort = new AbortController();
  const stopSignals = onInterrupt((signal) => abort.abort(new InterruptedError(signal)));
  let summary;
  try {
    summary = await login(target, {
      ...openOptions(cli, target, flags),
      signal: abort.signal,
      login: {
        clientId: raw.clientId,
        clientSecret: secret,
        clientCredentials: raw.clientCredentials === true,
        scope: raw.scope,
        clientMetadataUrl: raw.clientMetadataUrl,
      },
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
