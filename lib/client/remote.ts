/**
 * What a session needs beyond the launch: the HTTP headers and bearer token
 * of a remote server (`headers`, `tokenEnv`, profile `headers`), OAuth with
 * its token store, the elicitation handler, and the roots (`roots`, profile
 * `roots`).
 *
 * Guarantees: a token named by `tokenEnv` and credential header values count
 * as secrets (redacted from everything jn shows); a browser sign-in only
 * starts when the caller allows it (`auth.interactive`); remote-only settings
 * on a stdio server, an unset `tokenEnv` and a root that is not a directory
 * are errors before anything starts.
 *
 * @module
 */

import { basename, resolve } from "node:path";
import { ConfigError, UsageError } from "../errors.ts";
import type { LaunchSpec } from "../launch/spec.ts";
import type { SessionOptions } from "../session/types.ts";
import type { RootInfo } from "../types.ts";
import type { OpenOptions } from "./options.ts";
import type { Target } from "./resolve.ts";
import { webUrl } from "./url_required.ts";

/** The launch to use, its secrets, and the session options of these settings. */
export interface SessionSettings {
  launch: LaunchSpec;
  secrets: string[];
  options: Pick<SessionOptions, "allowHttp" | "auth" | "onElicit" | "roots">;
}

/**
 * The caller's elicitation handler, except that a URL-mode request whose URL is
 * not http(s) (`javascript:`, `file:`, …) is declined before it is shown.
 */
function webOnly(elicit: OpenOptions["elicit"]): OpenOptions["elicit"] {
  if (!elicit) return elicit;
  return (request) =>
    request.mode === "url" && !webUrl(request.url ?? "")
      ? Promise.resolve({ action: "decline" })
      : elicit(request);
}

/** Works out headers, auth, elicitation and roots for a target and the caller's options. */
export async function sessionSettings(
  target: Target,
  options: OpenOptions,
): Promise<SessionSettings> {
  const launch = target.launch;
  const secrets = [...target.secrets];
  const settings: SessionSettings["options"] = {
    onElicit: webOnly(options.elicit),
    roots: await roots(options.cwd, [...(target.roots ?? []), ...(options.roots ?? [])]),
  };
  const extraHeaders = options.headers ?? {};
  if (launch.transport === "stdio") {
    const given = [
      Object.keys(extraHeaders).length > 0 ? "--header" : "",
      options.tokenEnv ? "--token-env" : "",
      options.allowHttp ? "--allow-http" : "",
    ].filter(Boolean);
    if (given.length > 0) {
      throw new UsageError(`${given.join(", ")} only apply to remote servers (mcp+https://)`);
    }
    return { launch, secrets, options: settings };
  }
  const headers = { ...launch.headers, ...extraHeaders };
  if (options.tokenEnv) {
    const token = options.env[options.tokenEnv];
    if (!token) {
      throw new ConfigError(`The variable "${options.tokenEnv}" of --token-env is not set`, {
        hint: `export ${options.tokenEnv}=… first (the token is read from it, never from argv)`,
      });
    }
    headers.Authorization = `Bearer ${token}`;
  }
  for (const [name, value] of Object.entries(headers)) {
    if (/authorization|token|key|secret|cookie/i.test(name) && value) {
      secrets.push(value.replace(/^Bearer\s+/i, ""));
    }
  }
  settings.allowHttp = options.allowHttp === true;
  settings.auth = {
    store: await authStore(options.env),
    interactive: options.auth?.interactive === true,
    onSignIn: options.auth?.onSignIn,
    ...(options.auth?.login ? { login: options.auth.login } : {}),
  };
  return { launch: { ...launch, headers }, secrets, options: settings };
}

/** The OAuth token store: its module loads for a remote server only. */
async function authStore(env: Record<string, string>) {
  const { authDir, AuthStore } = await import("../auth/token_store.ts");
  return new AuthStore(authDir(env));
}

async function roots(cwd: string, paths: string[]): Promise<RootInfo[] | undefined> {
  if (paths.length === 0) return undefined;
  // node:url (Deno's URL polyfills, ~0.4 MiB) loads for a call with roots only.
  const { pathToFileURL } = await import("node:url");
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
