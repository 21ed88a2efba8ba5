/**
 * What a session needs beyond the launch: the HTTP headers and bearer token
 * of a remote server (`headers`, `tokenEnv`, profile `headers`), OAuth with
 * its token store, the elicitation handler (answers given as data first:
 * `elicitAnswers`, profile `elicit_answers`), and the roots (`roots`,
 * profile `roots`).
 *
 * Guarantees: a token named by `tokenEnv`, credential header values, the
 * value of every variable passed through by name (the profile's
 * `env_passthrough`, the caller's `envPassthrough`: as secret as a `${VAR}`
 * one, it is how a server gets its API key) and every OAuth credential of the session (tokens, client secrets, assertions,
 * ID tokens, DPoP proofs: added to `secrets` as they appear) count as
 * secrets (redacted from everything jn shows); a browser sign-in only
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
import { webUrl } from "../output/web_url.ts";
import { answeringFrom } from "./elicit_answers.ts";
import { MIN_SECRET_LENGTH } from "../output/redact.ts";

/**
 * The caller's values of the variables a server gets by name (the launch's
 * `envPassthrough`, the profile's `env_passthrough`, and the caller's):
 * what redaction hides. A value shorter than redaction's minimum (`DEBUG=1`)
 * is left out: it is no credential, and hiding it would shred other text.
 */
function passedThroughValues(launch: LaunchSpec, options: OpenOptions): string[] {
  const own = launch.transport === "stdio" ? launch.envPassthrough ?? [] : [];
  const values: string[] = [];
  for (const name of new Set([...own, ...(options.envPassthrough ?? [])])) {
    const value = Object.hasOwn(options.env, name) ? options.env[name] : undefined;
    if (typeof value === "string" && value.length >= MIN_SECRET_LENGTH) values.push(value);
  }
  return values;
}

/** The launch to use, its secrets, and the session options of these settings. */
export interface SessionSettings {
  launch: LaunchSpec;
  secrets: string[];
  options: Pick<SessionOptions, "allowHttp" | "auth" | "onElicit" | "roots">;
}

/**
 * The caller's elicitation handler, except that a URL-mode request whose URL
 * jn will not show (`javascript:`, `file:`, credentials, control characters:
 * lib/output/web_url.ts) is declined before it is shown, and the caller told
 * why in one line (one that passes is shown as the browser reads it); and that at most {@linkcode MAX_PENDING_ELICITATIONS}
 * requests are pending at once (a server's flood is declined beyond, with one
 * notice).
 */
function webOnly(
  elicit: OpenOptions["elicit"],
  onNotice: ((message: string) => void | Promise<void>) | undefined,
): OpenOptions["elicit"] {
  if (!elicit) return elicit;
  let pending = 0;
  let told = false;
  return async (request) => {
    if (pending >= MAX_PENDING_ELICITATIONS) {
      // A flood: the user is asked about a few; the rest are declined, said once.
      if (!told) {
        told = true;
        await onNotice?.(
          "the server sent more questions (elicitation requests) than jn asks at once; " +
            `declining the excess (at most ${MAX_PENDING_ELICITATIONS} wait for an answer)`,
        );
      }
      return { action: "decline" };
    }
    pending++;
    try {
      if (request.mode !== "url") return await elicit(request);
      const { url, refusal } = webUrl(request.url ?? "");
      // Shown as the browser would read it (an IDN host in its xn-- form).
      if (url !== undefined) return await elicit({ ...request, url });
      await onNotice?.(`declined the server's request to open a URL: ${refusal}`);
      return { action: "decline" };
    } finally {
      pending--;
    }
  };
}

/** How many one-time OAuth credentials (DPoP proofs) stay among a connection's secrets. */
const MAX_ONE_TIME_SECRETS = 8;

/** How many elicitation requests may be asked or wait at once; more are declined. */
export const MAX_PENDING_ELICITATIONS = 8;

/** Works out headers, auth, elicitation and roots for a target and the caller's options. */
export async function sessionSettings(
  target: Target,
  options: OpenOptions,
): Promise<SessionSettings> {
  const launch = target.launch;
  const secrets = [...target.secrets, ...passedThroughValues(launch, options)];
  const answers = options.elicitAnswers === false
    ? undefined
    : options.elicitAnswers ?? target.elicitAnswers;
  const onNotice = options.events?.onNotice;
  const settings: SessionSettings["options"] = {
    onElicit: webOnly(
      answers === undefined ? options.elicit : answeringFrom(answers, options.elicit, onNotice),
      onNotice,
    ),
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
  const oneTime: string[] = [];
  settings.auth = {
    store: await authStore(options.env),
    interactive: options.auth?.interactive === true,
    onSignIn: options.auth?.onSignIn,
    ...(options.auth?.login ? { login: options.auth.login } : {}),
    // OAuth credentials join the secrets as they appear: every redaction of this
    // connection (errors, --debug, events) reads this same list.
    onSecret: (value, transient) => {
      if (secrets.includes(value)) return;
      secrets.push(value);
      // One-time values (a DPoP proof per request): the last few only, so that a long
      // session's list (and the pattern every printed line is matched with) stays short.
      if (!transient) return;
      oneTime.push(value);
      if (oneTime.length > MAX_ONE_TIME_SECRETS) {
        const at = secrets.indexOf(oneTime.shift()!);
        if (at !== -1) secrets.splice(at, 1);
      }
    },
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
