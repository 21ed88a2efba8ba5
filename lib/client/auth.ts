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
import type { CredentialSource } from "../auth/token_store.ts";
import { ConfigError, UsageError } from "../errors.ts";
import { openSession } from "../session/session.ts";
import type { LoginSettings } from "../session/types.ts";
import { OPEN_DEFAULTS, type OpenOptions } from "./options.ts";
import { redactError } from "./redact_error.ts";
import { sessionSettings } from "./remote.ts";
import { resolveTarget, type Target } from "./resolve.ts";

export { type AuthSummary, formatSummary } from "../auth/describe.ts";

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
  const settings = await sessionSettings(target, {
    ...options,
    auth: { ...options.auth, interactive: true, login: options.login },
  });
  if (!settings.options.auth) throw new UsageError("jn auth works with remote servers only");
  const started = Date.now();
  try {
    const session = await openSession(settings.launch, {
      ...settings.options,
      timeoutMs: options.timeoutMs ?? OPEN_DEFAULTS.timeoutMs,
      connectTimeoutMs: options.connectTimeoutMs ?? OPEN_DEFAULTS.connectTimeoutMs,
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
  } catch (error) {
    // A server may quote a credential back (an assertion in error_description).
    throw redactError(error, settings.secrets);
  }
  const record = await store(options.env).load(serverUrl(target));
  if (!record?.tokens || (record.tokens.obtained_at ?? 0) < started) return undefined;
  return summarize(record);
}

/** The flags of `jn auth login` that choose a grant and its credentials. */
export interface LoginFlags {
  scope?: string;
  clientId?: string;
  clientSecret?: string;
  clientSecretEnv?: string;
  clientCredentials?: boolean;
  clientMetadataUrl?: string;
  privateKey?: string;
  privateKeyEnv?: string;
  signingAlg?: string;
  assertion?: string;
  assertionEnv?: string;
  idp?: string;
  idpTokenEndpoint?: string;
  idpClientId?: string;
  idpClientSecretEnv?: string;
  idToken?: string;
  idTokenEnv?: string;
  dpop?: boolean;
}

/**
 * Checks the login flags and turns them into login settings: one grant (browser, client
 * credentials with a secret or a private key, workload identity, cross-app access), each with
 * what it needs. Keys, assertions and ID tokens stay where they are (a file, made absolute, or
 * a variable's name): jn reads them when it needs a token.
 */
export function loginSettings(
  flags: LoginFlags,
  io: { cwd: string; env: Record<string, string> },
): LoginSettings {
  const secret = fromEnv(flags.clientSecretEnv, "--client-secret-env", io.env) ??
    flags.clientSecret;
  const privateKey = source(flags.privateKey, flags.privateKeyEnv, "--private-key", io);
  const assertion = source(flags.assertion, flags.assertionEnv, "--assertion", io);
  const idToken = source(flags.idToken, flags.idTokenEnv, "--id-token", io);
  const idpGiven = flags.idp !== undefined || flags.idpTokenEndpoint !== undefined ||
    flags.idpClientId !== undefined || idToken !== undefined;
  const grants = [
    flags.clientCredentials && "--client-credentials",
    assertion && "--assertion",
    idpGiven && "--idp",
  ].filter(Boolean);
  if (grants.length > 1) {
    throw new UsageError(`${grants.join(" and ")} choose different grants; use one`);
  }
  if (secret && !flags.clientId) throw new UsageError("A client secret needs --client-id");
  if (privateKey && !flags.clientCredentials) {
    throw new UsageError("--private-key is for the client-credentials grant", {
      hint: "e.g. jn auth login URL --client-credentials --client-id ID --private-key key.pem",
    });
  }
  if (privateKey && secret) throw new UsageError("Use a client secret or --private-key, not both");
  if (flags.signingAlg && !privateKey) throw new UsageError("--signing-alg needs --private-key");
  if (flags.clientCredentials && (!flags.clientId || (!secret && !privateKey))) {
    throw new UsageError(
      "--client-credentials needs --client-id and a client secret or --private-key",
      {
        hint:
          "e.g. jn auth login URL --client-credentials --client-id ID --client-secret-env SECRET",
      },
    );
  }
  if (assertion && !flags.clientId) {
    throw new UsageError("--assertion needs --client-id (the client the workload is known as)");
  }
  if (idpGiven) {
    const missing = [
      !flags.clientId && "--client-id",
      !flags.idpClientId && "--idp-client-id",
      !idToken && "--id-token (or --id-token-env)",
      !flags.idp && !flags.idpTokenEndpoint && "--idp (or --idp-token-endpoint)",
    ].filter(Boolean);
    if (missing.length > 0) {
      throw new UsageError(`Cross-app access needs ${missing.join(", ")}`, {
        hint: "see 'Cross-app access' in docs/remote.md",
      });
    }
  }
  return {
    clientId: flags.clientId,
    clientSecret: secret,
    clientCredentials: flags.clientCredentials === true,
    scope: flags.scope,
    clientMetadataUrl: flags.clientMetadataUrl,
    ...(privateKey ? { privateKey, signingAlg: flags.signingAlg } : {}),
    ...(assertion ? { assertion } : {}),
    ...(idpGiven
      ? {
        idp: {
          issuer: flags.idp,
          tokenEndpoint: flags.idpTokenEndpoint,
          clientId: flags.idpClientId!,
          clientSecret: fromEnv(flags.idpClientSecretEnv, "--idp-client-secret-env", io.env),
          idToken: idToken!,
        },
      }
      : {}),
    ...(flags.dpop ? { dpop: true } : {}),
  };
}

function fromEnv(
  name: string | undefined,
  flag: string,
  env: Record<string, string>,
): string | undefined {
  if (name === undefined) return undefined;
  const value = env[name];
  if (!value) throw new ConfigError(`The variable "${name}" of ${flag} is not set`);
  return value;
}

function source(
  file: string | undefined,
  envName: string | undefined,
  flag: string,
  io: { cwd: string; env: Record<string, string> },
): CredentialSource | undefined {
  if (file !== undefined && envName !== undefined) {
    throw new UsageError(`Use ${flag} FILE or ${flag}-env VAR, not both`);
  }
  if (envName !== undefined) {
    if (!io.env[envName]) {
      throw new ConfigError(`The variable "${envName}" of ${flag}-env is not set`);
    }
    return { env: envName };
  }
  if (file === undefined) return undefined;
  return { file: file.startsWith("/") ? file : `${io.cwd.replace(/\/$/, "")}/${file}` };
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
