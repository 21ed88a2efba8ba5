/**
 * lib/auth: OAuth state of remote servers: tokens (mode 0600), the loopback
 * sign-in, status.
 *
 * OAuth state of remote servers, one file per server URL under the user's jn
 * directory (`~/.local/jn/auth/`). Guarantees: the directory is mode 0700 and
 * every file 0600 from the moment it exists (written to a private temporary
 * file, then renamed); nothing here ever prints a token.
 *
 * A record holds the client registration, the tokens (with the absolute time
 * they expire), the discovery state and the grant in use. It is plain JSON so
 * that `jn auth status` can describe it without the MCP SDK.
 *
 * @module
 */

import { ConfigError } from "../errors.ts";
import { digestHex } from "../text/digest.ts";

/**
 * How a server's tokens are obtained: a browser sign-in, the client-credentials grant (a secret
 * or a private key, `private_key_jwt`), a workload identity JWT (`jwt_bearer`, RFC 7523), or
 * cross-app access (`id_jag`: an enterprise IdP's ID token exchanged for an identity assertion
 * grant, then for a token).
 */
export type AuthGrant = "authorization_code" | "client_credentials" | "jwt_bearer" | "id_jag";

/** Where a credential is read each time it is needed: a file or an environment variable. */
export interface CredentialSource {
  /** An absolute path, read each time. */
  file?: string;
  /** The name of an environment variable, read each time. */
  env?: string;
}

/** A DPoP key (RFC 9449), kept so that tokens bound to it stay usable across runs. */
export interface DpopKey {
  alg: string;
  privateJwk?: JsonWebKey;
  publicJwk?: JsonWebKey;
  thumbprint?: string;
}

/** The enterprise identity provider of cross-app access. */
export interface IdpSettings {
  /** The IdP's issuer URL (its token endpoint is discovered). */
  issuer?: string;
  /** The IdP's token endpoint (no discovery). */
  tokenEndpoint?: string;
  /** jn's client at the IdP. */
  clientId: string;
  /** Its secret, when the IdP wants one (stored like a client secret, mode 0600). */
  clientSecret?: string;
  /** Where the user's ID token is read. */
  idToken: CredentialSource;
}

/** Tokens as the authorization server issued them, plus when they were obtained. */
export interface StoredTokens {
  access_token: string;
  token_type?: string;
  refresh_token?: string;
  scope?: string;
  expires_in?: number;
  /** Epoch ms when the token was saved. */
  obtained_at?: number;
  /** Epoch ms when the access token expires, when the server said. */
  expires_at?: number;
  [key: string]: unknown;
}

/** What jn remembers about one server's authorization. */
export interface AuthRecord {
  /** The MCP server URL (canonical: no query, no fragment). */
  serverUrl: string;
  grant: AuthGrant;
  /** The OAuth client (registered, pre-registered or a metadata-document URL). */
  client?: { client_id: string; client_secret?: string; [key: string]: unknown };
  tokens?: StoredTokens;
  /** Protected-resource and authorization-server metadata found by discovery. */
  discovery?: Record<string, unknown>;
  /** The scope asked for at login (`--scope`). */
  scope?: string;
  /** A client ID metadata document URL used as client_id when the server supports it. */
  clientMetadataUrl?: string;
  /** `private_key_jwt`: where the client's private key is read (never stored here). */
  clientKey?: CredentialSource & { alg?: string };
  /** `jwt_bearer`: where the workload identity JWT is read (never stored here). */
  assertion?: CredentialSource;
  /** `id_jag`: the identity provider. */
  idp?: IdpSettings;
  /** Sender-constrained tokens (DPoP) and their key. */
  dpop?: DpopKey;
  /** ISO time of the last change. */
  updated?: string;
}

/** The directory of auth records for a HOME. */
export function authDir(env: Record<string, string>): string {
  const home = env.HOME ?? env.USERPROFILE;
  if (!home) {
    throw new ConfigError("Cannot find the jn directory: HOME is not set", {
      hint: "set HOME to your home directory",
    });
  }
  return `${home}/.local/jn/auth`;
}

/** The server URL as auth records key it: scheme, host, port and path. */
export function canonicalServerUrl(url: string): string {
  const parsed = new URL(url);
  parsed.hash = "";
  parsed.search = "";
  return parsed.href;
}

/** Reads and writes auth records in one directory. */
export class AuthStore {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  /** The file of a server URL: `HOST_PORT-HASH.json` (readable, collision-free). */
  async pathFor(serverUrl: string): Promise<string> {
    const canonical = canonicalServerUrl(serverUrl);
    const url = new URL(canonical);
    const hash = (await digestHex(canonical)).slice(0, 16);
    const host = `${url.hostname}_${url.port || (url.protocol === "https:" ? "443" : "80")}`
      .replace(/[^A-Za-z0-9._-]/g, "_");
    return `${this.dir}/${host}-${hash}.json`;
  }

  /** The record of a server, if there is one. */
  async load(serverUrl: string): Promise<AuthRecord | undefined> {
    return await readRecord(await this.pathFor(serverUrl));
  }

  /** Saves a record (mode 0600, atomically). */
  async save(record: AuthRecord): Promise<void> {
    await Deno.mkdir(this.dir, { recursive: true, mode: 0o700 });
    const path = await this.pathFor(record.serverUrl);
    const temp = `${path}.${crypto.randomUUID()}.tmp`;
    const text = JSON.stringify({ ...record, updated: new Date().toISOString() }, null, 2) + "\n";
    try {
      await Deno.writeTextFile(temp, text, { mode: 0o600, createNew: true });
      await Deno.chmod(temp, 0o600).catch(() => {/* not supported on every OS */});
      await Deno.rename(temp, path);
    } catch (error) {
      await Deno.remove(temp).catch(() => {});
      throw error;
    }
  }

  /** Deletes a server's record; false when there was none. */
  async remove(serverUrl: string): Promise<boolean> {
    try {
      await Deno.remove(await this.pathFor(serverUrl));
      return true;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return false;
      throw error;
    }
  }

  /** Every record, sorted by server URL. */
  async list(): Promise<AuthRecord[]> {
    const records: AuthRecord[] = [];
    try {
      for await (const entry of Deno.readDir(this.dir)) {
        if (!entry.isFile || !entry.name.endsWith(".json")) continue;
        const record = await readRecord(`${this.dir}/${entry.name}`);
        if (record) records.push(record);
      }
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    return records.sort((a, b) => a.serverUrl.localeCompare(b.serverUrl));
  }
}

async function readRecord(path: string): Promise<AuthRecord | undefined> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
  try {
    const record = JSON.parse(text) as AuthRecord;
    if (typeof record?.serverUrl !== "string") throw new Error("no serverUrl");
    return record;
  } catch (error) {
    throw new ConfigError(`Cannot read the auth file "${path}": ${(error as Error).message}`, {
      path,
      hint: "remove it with 'jn auth logout URL' (or delete the file) and sign in again",
    });
  }
}

/**
 * True when the access token is expired or about to be: within `marginMs`
 * (default: 10 s, or a quarter of the token's lifetime when that is shorter).
 */
export function tokenExpired(tokens: StoredTokens, now = Date.now(), marginMs?: number): boolean {
  if (tokens.expires_at === undefined) return false;
  const lifetime = tokens.obtained_at === undefined
    ? Infinity
    : tokens.expires_at - tokens.obtained_at;
  return tokens.expires_at <= now + (marginMs ?? Math.min(10_000, lifetime / 4));
}

/** Whether jn can get a new token without a person: a machine grant with its credential. */
export function machineGrant(record: AuthRecord): boolean {
  switch (record.grant) {
    case "client_credentials":
      return record.client?.client_secret !== undefined || record.clientKey !== undefined;
    case "jwt_bearer":
      return record.assertion !== undefined;
    case "id_jag":
      return record.idp !== undefined;
    default:
      return false;
  }
}
