/**
 * What a CLI session needs beyond the basics: the HTTP headers and bearer
 * token of a remote server (`--header`, `--token-env`, profile `headers`),
 * OAuth with a browser sign-in that prints its URL, the elicitation handler
 * (`--elicit`) and the roots (`--root`, profile `roots`).
 *
 * Guarantees: a token named by `--token-env` and header values count as
 * secrets (redacted from messages); the browser sign-in only starts where a
 * person can see it (stderr is a terminal) or where `JN_BROWSER` says how to
 * open URLs; remote-only flags on a stdio server are a usage error.
 *
 * @module
 */

import { basename, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { openBrowser } from "../auth/browser.ts";
import { authDir, AuthStore } from "../auth/token_store.ts";
import { ConfigError, UsageError } from "../errors.ts";
import type { LaunchSpec } from "../launch/spec.ts";
import type { SessionOptions } from "../session/session.ts";
import type { RootInfo } from "../types.ts";
import type { Target } from "./resolve.ts";
import { elicitationHandler } from "../cli/elicit.ts";
import { printErr } from "../cli/io.ts";
import type { Ctx } from "../cli/main.ts";
import type { CallFlags } from "../cli/options.ts";

/** The launch to use, its secrets, and the session options of these flags. */
export interface SessionExtras {
  launch: LaunchSpec;
  secrets: string[];
  options: Pick<SessionOptions, "allowHttp" | "auth" | "onElicit" | "roots">;
}

/** Works out headers, auth, elicitation and roots for a target and its flags. */
export function sessionExtras(ctx: Ctx, target: Target, flags: CallFlags): SessionExtras {
  const launch = target.launch;
  const secrets = [...target.secrets];
  const options: SessionExtras["options"] = {
    onElicit: elicitationHandler(ctx.io, {
      mode: flags.elicit,
      server: target.name,
      quiet: ctx.quiet,
    }),
    roots: roots(ctx.io.cwd, [...(target.roots ?? []), ...flags.roots]),
  };
  if (launch.transport === "stdio") {
    const given = [
      Object.keys(flags.headers).length > 0 ? "--header" : "",
      flags.tokenEnv ? "--token-env" : "",
      flags.allowHttp ? "--allow-http" : "",
    ].filter(Boolean);
    if (given.length > 0) {
      throw new UsageError(`${given.join(", ")} only apply to remote servers (mcp+https://)`);
    }
    return { launch, secrets, options };
  }
  const headers = { ...launch.headers, ...flags.headers };
  if (flags.tokenEnv) {
    const token = ctx.io.env[flags.tokenEnv];
    if (!token) {
      throw new ConfigError(`The variable "${flags.tokenEnv}" of --token-env is not set`, {
        hint: `export ${flags.tokenEnv}=… first (the token is read from it, never from argv)`,
      });
    }
    headers.Authorization = `Bearer ${token}`;
  }
  for (const [name, value] of Object.entries(headers)) {
    if (/authorization|token|key|secret|cookie/i.test(name) && value) {
      secrets.push(value.replace(/^Bearer\s+/i, ""));
    }
  }
  const env = ctx.io.env;
  options.allowHttp = flags.allowHttp;
  options.auth = {
    store: new AuthStore(authDir(env)),
    interactive: ctx.io.tty.stderr || Boolean(env.JN_BROWSER),
    onSignIn: (url) => showSignIn(ctx, target.name, url),
  };
  return { launch: { ...launch, headers }, secrets, options };
}

/** Prints the sign-in URL and tries to open it in a browser. */
export async function showSignIn(ctx: Ctx, server: string, url: string): Promise<void> {
  await printErr(
    ctx.io,
    `jn: ${server} needs you to sign in. Open this URL in a browser (jn waits for it):\n  ${url}`,
  );
  openBrowser(url, ctx.io.env);
}

function roots(cwd: string, paths: string[]): RootInfo[] | undefined {
  if (paths.length === 0) return undefined;
  return paths.map((path) => {
    const absolute = resolve(cwd, path);
    let isDirectory = false;
    try {
      isDirectory = Deno.statSync(absolute).isDirectory;
    } catch { /* reported below */ }
    if (!isDirectory) {
      throw new UsageError(`Invalid --root "${path}": not a directory`, {
        hint: "roots are directories the server may work in",
      });
    }
    return { uri: pathToFileURL(absolute).href, name: basename(absolute) };
  });
}
