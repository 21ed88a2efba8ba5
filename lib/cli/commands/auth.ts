/**
 * `jn auth login|logout|status`: OAuth for remote servers. `login` connects
 * and lets the server ask for authorization (so discovery starts from the
 * server's own `401` challenge), with a browser sign-in, a pre-registered
 * client (`--client-id`) or the client-credentials grant; `logout` forgets a
 * server; `status` shows expiry and scopes, never a token.
 *
 * @module
 */

import type { Command } from "commander";
import { type AuthSummary, formatSummary, summarize } from "../../auth/describe.ts";
import { authDir, AuthStore } from "../../auth/token_store.ts";
import { ConfigError, InterruptedError, UsageError } from "../../errors.ts";
import { writeAll } from "../../ndjson/write.ts";
import { openSession } from "../../session/session.ts";
import { resolveTarget, type Target } from "../../client/resolve.ts";
import { parseSource } from "../../uri/parse.ts";
import { onInterrupt } from "../signals.ts";
import { printErr } from "../io.ts";
import type { Ctx } from "../main.ts";
import { addConnectionOptions, parseCallFlags, type RawCallFlags } from "../options.ts";
import { sessionExtras } from "../../client/remote.ts";
import { writeJson } from "../write.ts";
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
export function registerAuth(program: Command, ctx: Ctx): void {
  const auth = program.command("auth").description("OAuth sign-in for remote servers");
  const login = auth.command("login")
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
  addConnectionOptions(login).action(async (server: string, raw: LoginFlags) => {
    await runLogin(ctx, server, raw);
  });
  auth.command("logout")
    .description("forget the tokens and client registration of a server")
    .argument("<server>", "mcp+https://… URI (or https://…) or @profile")
    .action(async (server: string) => {
      const target = await remoteTarget(ctx, server);
      const removed = await store(ctx).remove(serverUrl(target));
      await printErr(
        ctx.io,
        removed
          ? `jn: signed out of ${serverUrl(target)}`
          : `jn: not signed in to ${serverUrl(target)}; nothing to remove`,
      );
    });
  auth.command("status")
    .description("sign-in state of one server, or of all: expiry and scopes, never tokens")
    .argument("[server]", "mcp+https://… URI (or https://…) or @profile")
    .option("--format <format>", "text or json", "text")
    .action(async (server: string | undefined, raw: { format: string }) => {
      const format = parseFormat(raw.format);
      const summaries = await statusOf(ctx, server);
      if (format === "json") await writeJson(ctx, server ? summaries[0] : summaries);
      else {
        const text = summaries.length === 0
          ? "No servers signed in."
          : summaries.map((summary) => formatSummary(summary)).join("\n\n");
        await writeAll(ctx.io.stdout, new TextEncoder().encode(`${text}\n`), () => {});
      }
    });
}

async function statusOf(ctx: Ctx, server: string | undefined): Promise<AuthSummary[]> {
  const authStore = store(ctx);
  if (server === undefined) {
    const records = await authStore.list();
    return await Promise.all(
      records.map(async (record) => summarize(record, await authStore.pathFor(record.serverUrl))),
    );
  }
  const url = serverUrl(await remoteTarget(ctx, server));
  const record = await authStore.load(url);
  return [
    record ? summarize(record, await authStore.pathFor(url)) : {
      serverUrl: url,
      signedIn: false,
      grant: "authorization_code",
      scopes: [],
      expired: false,
      renewable: false,
    },
  ];
}

async function runLogin(ctx: Ctx, server: string, raw: LoginFlags): Promise<void> {
  const target = await remoteTarget(ctx, server);
  const flags = parseCallFlags(raw);
  const secret = raw.clientSecretEnv ? ctx.io.env[raw.clientSecretEnv] : raw.clientSecret;
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
  const extras = sessionExtras(ctx, target, flags);
  if (!extras.options.auth) throw new UsageError("jn auth works with remote servers only");
  extras.options.auth = {
    ...extras.options.auth,
    interactive: true,
    login: {
      clientId: raw.clientId,
      clientSecret: secret,
      clientCredentials: raw.clientCredentials === true,
      scope: raw.scope,
      clientMetadataUrl: raw.clientMetadataUrl,
    },
  };
  const started = Date.now();
  const abort = new AbortController();
  const stopSignals = onInterrupt((signal) => abort.abort(new InterruptedError(signal)));
  try {
    const session = await openSession(extras.launch, {
      ...extras.options,
      timeoutMs: flags.timeoutMs,
      connectTimeoutMs: flags.connectTimeoutMs,
      callerEnv: ctx.io.env,
      protocol: flags.protocol,
      signal: abort.signal,
    });
    try {
      // Some servers only ask for authorization once a real request comes.
      await session.listTools();
    } finally {
      await session.close();
    }
  } finally {
    stopSignals();
  }
  const record = await store(ctx).load(serverUrl(target));
  if (!record?.tokens || (record.tokens.obtained_at ?? 0) < started) {
    await printErr(
      ctx.io,
      `jn: ${serverUrl(target)} did not ask for authorization; nothing stored`,
    );
    return;
  }
  const summary = summarize(record);
  const scopes = summary.scopes.length > 0 ? ` (scopes: ${summary.scopes.join(" ")})` : "";
  await printErr(ctx.io, `jn: signed in to ${summary.serverUrl}${scopes}`);
}

function store(ctx: Ctx): AuthStore {
  return new AuthStore(authDir(ctx.io.env));
}

function serverUrl(target: Target): string {
  return target.launch.transport === "stdio" ? target.name : target.launch.url;
}

async function remoteTarget(ctx: Ctx, text: string): Promise<Target> {
  const source = parseSource(/^https?:\/\//i.test(text) ? `mcp+${text}` : text);
  const target = await resolveTarget(source, { cwd: ctx.io.cwd, env: ctx.io.env });
  if (target.launch.transport === "stdio") {
    throw new UsageError(`"${text}" is not a remote server: jn auth is for mcp+https:// servers`);
  }
  return target;
}
