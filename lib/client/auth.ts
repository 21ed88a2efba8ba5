/**
 * OAuth of remote servers as verbs: sign in (the server's own `401` starts
 * the discovery; a browser sign-in, a pre-registered client or the
 * client-credentials grant), sign out, and the sign-in state — expiry and
 * scopes, never a token. Tokens live under the user's jn directory (mode
 * 0600, lib/auth/token_store.ts).
 *
 * @module
 */

import { type AuthSummary, summarize } from "../auth/describe.ts";
import { authDir, AuthStore } from "../auth/token_store.ts";
import { UsageError } from "../errors.ts";
import { openSession } from "../session/session.ts";
import type { LoginSettings } from "../session/types.ts";
import type { OpenOptions } from "./options.ts";
import { sessionSettings } from "./remote.ts";
import { resolveTarget, type Target } from "./resolve.ts";

/** A remote server named by an `mcp+https://` URI, a bare `https://` URL or `@profile`. */
export async function remoteTarget(
  text: string,
  options: { cwd: string; env: Record<string, string> },
): Promise<Target> {
  const target = await resolveTarget(/^https?:\/\//i.test(text) ? `mcp+${text}` : text, options);
  if (target.launch.transport === "stdio") {
    throw new UsageError(`"${text}" is not a remote server: jn auth is for mcp+https:// servers`);
  }
  return target;
}

/** The URL a remote target's tokens are stored under. */
export function serverUrl(target: Target): string {
  return target.launch.transport === "stdio" ? target.name : target.launch.url;
}

/**
 * Signs in to a remote server: connects, lets the server ask for
 * authorization, and stores the tokens. Resolves to the stored sign-in, or
 * undefined when the server did not ask for authorization.
 */
export async function login(
  target: Target,
  options: OpenOptions & { login: LoginSettings },
): Promise<AuthSummary | undefined> {
  const settings = sessionSettings(target, {
    ...options,
    auth: { ...options.auth, interactive: true, login: options.login },
  });
  if (!settings.options.auth) throw new UsageError("jn auth works with remote servers only");
  const started = Date.now();
  const session = await openSession(settings.launch, {
    ...settings.options,
    timeoutMs: options.timeoutMs ?? 60_000,
    connectTimeoutMs: options.connectTimeoutMs ?? 60_000,
    callerEnv: options.env,
    protocol: options.protocol ?? "auto",
    signal: options.signal,
  });
  try {
    // Some servers only ask for authorization once a real request comes.
    await session.listTools();
  } finally {
    await session.close();
  }
  const record = await store(options.env).load(serverUrl(target));
  if (!record?.tokens || (record.tokens.obtained_at ?? 0) < started) return undefined;
  return summarize(record);
}

/** Forgets the tokens and client registration of a server; false when there were none. */
export function logout(target: Target, options: { env: Record<string, string> }): Promise<boolean> {
  return store(options.env).remove(serverUrl(target));
}

/** The sign-in state of one server, or of every server signed in to. */
export async function authStatus(
  target: Target | undefined,
  options: { env: Record<string, string> },
): Promise<AuthSummary[]> {
  const authStore = store(options.env);
  if (target === undefined) {
    const records = await authStore.list();
    return await Promise.all(
      records.map(async (record) => summarize(record, await authStore.pathFor(record.serverUrl))),
    );
  }
  const url = serverUrl(target);
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

function store(env: Record<string, string>): AuthStore {
  return new AuthStore(authDir(env));
}
