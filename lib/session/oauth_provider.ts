/**
 * jn's OAuth client for one MCP server: the SDK's `OAuthClientProvider`
 * contract backed by a persistent auth record (lib/auth/token_store.ts).
 *
 * Guarantees: registrations, tokens and discovery state are saved as soon as
 * the SDK hands them over (mode 0600), with the absolute expiry time; the PKCE
 * verifier and `state` live in memory only; a browser sign-in starts only when
 * the caller allowed it (`interactive`), and otherwise fails with a
 * ConnectionError that says how to sign in; the sign-in page must pass jn's
 * check of URLs to open (lib/output/web_url.ts: plain http(s), no user name
 * or password, no control characters, bounded), checked on the authorization
 * server's metadata before a client is registered there, and again on the
 * final URL before it is handed to `onSignIn`. Nothing here prints.
 *
 * Over 300 lines because it is one SDK contract (`OAuthClientProvider`) for
 * every grant jn supports; the machine grants' credentials live in
 * oauth_grants.ts.
 *
 * @module
 */

import type {
  AddClientAuthentication,
  DpopSession,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from "@modelcontextprotocol/client";
import { type CallbackParams, LoopbackReceiver } from "../auth/loopback.ts";
import {
  type AuthRecord,
  type AuthStore,
  canonicalServerUrl,
  machineGrant,
  type StoredTokens,
} from "../auth/token_store.ts";
import { ConnectionError } from "../errors.ts";
import { shownUrl, webUrl } from "../output/web_url.ts";
import {
  dpopSession,
  identityAssertion,
  JWT_BEARER,
  privateKeyJwtAuth,
  readCredential,
} from "./oauth_grants.ts";
import type { LoginSettings } from "./types.ts";
import { VERSION } from "../version.ts";

/** How a sign-in may reach the user. */
export interface SignInOptions {
  /** Whether a browser sign-in may start (a TTY, `JN_BROWSER`, or `jn auth login`). */
  interactive: boolean;
  /** Shows the sign-in URL (print it, open a browser). */
  onSignIn?: (url: string) => void | Promise<void>;
  /** Ctrl-C while waiting for the browser. */
  signal?: AbortSignal;
  /** How long to wait for the browser (ms); default 5 minutes. */
  timeoutMs?: number;
  /** Where credentials named by an environment variable are read. */
  env?: Record<string, string>;
  /**
   * Told every credential the provider holds or obtains (tokens, client
   * secrets, assertions, ID tokens), so that whatever jn prints can be
   * redacted of it — a server may echo one back in an error. A `transient`
   * one is used once (a DPoP proof): keep the last few only.
   */
  onSecret?: (value: string, transient: boolean) => void;
}

const PLACEHOLDER_REDIRECT = "http://127.0.0.1/callback";

/** How many one-time credentials (DPoP proofs, client assertions) stay secrets. */
export const MAX_TRANSIENT_SECRETS = 8;

/** An `OAuthClientProvider` over a stored auth record. */
export class JnOAuthProvider implements OAuthClientProvider {
  #store: AuthStore;
  #record: AuthRecord;
  #signIn: SignInOptions;
  #receiver?: LoopbackReceiver;
  #verifier?: string;
  #state?: string;
  #saving: Promise<void> = Promise.resolve();
  #dpop?: Promise<DpopSession>;
  #issuer?: string;
  #resource?: string;

  constructor(store: AuthStore, record: AuthRecord, signIn: SignInOptions) {
    this.#store = store;
    this.#record = record;
    this.#signIn = signIn;
    this.#noteRecord();
  }

  #secrets: string[] = [];
  #transient: string[] = [];

  /** Every credential noted so far, and the last few one-time ones (for its own messages). */
  get secrets(): readonly string[] {
    return [...this.#secrets, ...this.#transient];
  }

  /**
   * Notes a credential and tells `onSecret` of it (ignoring an empty or absent
   * one). A `transient` one (a DPoP proof, a `private_key_jwt` assertion: new
   * for every request) is kept only until {@linkcode MAX_TRANSIENT_SECRETS}
   * newer ones came, so that a long session's list stays short.
   */
  noteSecret(value: unknown, transient = false): void {
    if (typeof value !== "string" || value === "") return;
    if (this.#secrets.includes(value) || this.#transient.includes(value)) return;
    if (transient) {
      this.#transient.push(value);
      if (this.#transient.length > MAX_TRANSIENT_SECRETS) this.#transient.shift();
    } else this.#secrets.push(value);
    this.#signIn.onSecret?.(value, transient);
  }

  /** The record's tokens and client secrets, as secrets. */
  #noteRecord(): void {
    const record = this.#record;
    this.noteSecret(record.tokens?.access_token);
    this.noteSecret(record.tokens?.refresh_token);
    this.noteSecret(record.client?.client_secret);
    this.noteSecret(record.idp?.clientSecret);
  }

  /** The provider of a server, from its stored record (or a fresh one). */
  static async load(
    store: AuthStore,
    serverUrl: string,
    signIn: SignInOptions,
  ): Promise<JnOAuthProvider> {
    const record = await store.load(serverUrl) ??
      { serverUrl: canonicalServerUrl(serverUrl), grant: "authorization_code" };
    return new JnOAuthProvider(store, record, signIn);
  }

  /** The record as it stands (for messages and `jn auth login`). */
  get record(): Readonly<AuthRecord> {
    return this.#record;
  }

  /**
   * Starts a login over: drops the tokens (in memory; the file changes when new
   * ones arrive) and applies the login's client, grant and scope.
   */
  startOver(settings: LoginSettings): void {
    const record = this.#record;
    delete record.tokens;
    record.grant = settings.idp
      ? "id_jag"
      : settings.assertion
      ? "jwt_bearer"
      : settings.clientCredentials
      ? "client_credentials"
      : "authorization_code";
    delete record.clientKey;
    delete record.assertion;
    delete record.idp;
    if (settings.privateKey) {
      record.clientKey = { ...settings.privateKey, alg: settings.signingAlg };
    }
    if (settings.assertion) record.assertion = settings.assertion;
    if (settings.idp) record.idp = settings.idp;
    if (settings.dpop) record.dpop ??= { alg: "ES256" };
    else delete record.dpop;
    this.#dpop = undefined;
    if (settings.clientId) {
      record.client = { client_id: settings.clientId, jn_preregistered: true };
      if (settings.clientSecret) record.client.client_secret = settings.clientSecret;
      delete record.discovery;
    }
    // Otherwise a registered client is kept (its redirect URI's port is reused).
    if (settings.scope !== undefined) record.scope = settings.scope || undefined;
    if (settings.clientMetadataUrl !== undefined) {
      record.clientMetadataUrl = settings.clientMetadataUrl || undefined;
    }
    this.#noteRecord();
  }

  /** Whether a browser sign-in may start. */
  get interactive(): boolean {
    return this.#signIn.interactive;
  }

  /** Whether a sign-in can be attempted without a browser or with one. */
  canAuthorize(): boolean {
    const record = this.#record;
    switch (record.grant) {
      case "client_credentials":
      case "jwt_bearer":
      case "id_jag":
        return machineGrant(record);
      default:
        return this.#signIn.interactive || record.tokens?.refresh_token !== undefined;
    }
  }

  /** Whether tokens come without a browser (a machine grant). */
  get machine(): boolean {
    return this.#record.grant !== "authorization_code";
  }

  get redirectUrl(): string | undefined {
    if (this.machine) return undefined;
    if (this.#receiver) return this.#receiver.redirectUrl;
    const registered = this.#record.client?.redirect_uris;
    return Array.isArray(registered) && typeof registered[0] === "string"
      ? registered[0]
      : PLACEHOLDER_REDIRECT;
  }

  get clientMetadata(): OAuthClientMetadata {
    const record = this.#record;
    const machine = this.machine;
    const grant = record.grant === "client_credentials"
      ? "client_credentials"
      : record.grant === "authorization_code"
      ? undefined
      : JWT_BEARER;
    return {
      client_name: "jn",
      software_id: "jn",
      software_version: VERSION,
      redirect_uris: machine ? [] : [this.redirectUrl ?? PLACEHOLDER_REDIRECT],
      grant_types: grant ? [grant] : ["authorization_code", "refresh_token"],
      response_types: machine ? [] : ["code"],
      ...(record.clientKey ? { token_endpoint_auth_method: "private_key_jwt" } : {}),
      ...(record.scope ? { scope: record.scope } : {}),
      ...(record.dpop ? { dpop_bound_access_tokens: true } : {}),
    };
  }

  /** `private_key_jwt`: a signed assertion on each token request (the SDK's helper). */
  get addClientAuthentication(): AddClientAuthentication | undefined {
    const record = this.#record;
    if (!record.clientKey || !record.client) return undefined;
    return privateKeyJwtAuth(record.client.client_id, record.clientKey, this.#signIn.env ?? {});
  }

  /** DPoP (RFC 9449): the session of the record's key, when the login asked for DPoP. */
  dpop(): Promise<DpopSession> | undefined {
    const key = this.#record.dpop;
    if (!key) return undefined;
    this.#dpop ??= dpopSession(key, () => this.#persist());
    return this.#dpop;
  }

  saveAuthorizationServerUrl(issuer: string): void {
    this.#issuer = issuer;
  }

  saveResourceUrl(resource: string): void {
    this.#resource = resource;
  }

  get clientMetadataUrl(): string | undefined {
    return this.#record.clientMetadataUrl;
  }

  state(): string {
    this.#state = crypto.randomUUID();
    return this.#state;
  }

  /**
   * The stored client. A client the user gave (`--client-id`, a machine grant's key or
   * assertion) belongs to the authorization server it was first used with: when the resource
   * now names another one, this refuses rather than let the SDK register anew there and send it
   * the machine credentials (a workload JWT, an ID-JAG), which the resource alone chose.
   */
  clientInformation(ctx?: { issuer?: string }): StoredOAuthClientInformation | undefined {
    const client = this.#record.client;
    const stamped = typeof client?.issuer === "string" ? client.issuer : undefined;
    const given = this.machine || client?.jn_preregistered === true;
    if (given && stamped && ctx?.issuer && !sameIssuer(stamped, ctx.issuer)) {
      throw new ConnectionError(
        `The server "${this.#record.serverUrl}" now names the authorization server ` +
          `"${shownUrl(ctx.issuer)}", not "${shownUrl(stamped)}" where you signed in; jn sends ` +
          "your credentials only to the latter",
        {
          hint:
            `if the move is expected, sign in again with 'jn auth login ${this.#record.serverUrl}'`,
        },
      );
    }
    return client as StoredOAuthClientInformation | undefined;
  }

  async saveClientInformation(info: StoredOAuthClientInformation): Promise<void> {
    this.#record.client = info as AuthRecord["client"];
    this.#noteRecord();
    await this.#persist();
  }

  tokens(): StoredOAuthTokens | undefined {
    return this.#record.tokens as StoredOAuthTokens | undefined;
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    const now = Date.now();
    const stored: StoredTokens = { ...tokens, obtained_at: now };
    if (typeof tokens.expires_in === "number") stored.expires_at = now + tokens.expires_in * 1000;
    // A refresh answer may omit the refresh token: keep the one we have.
    if (!stored.refresh_token && this.#record.tokens?.refresh_token) {
      stored.refresh_token = this.#record.tokens.refresh_token;
    }
    this.#record.tokens = stored;
    this.#noteRecord();
    await this.#persist();
  }

  redirectToAuthorization(authorizationUrl: URL): Promise<void> | void {
    if (!this.#signIn.interactive || !this.#receiver) throw signInRequired(this.#record);
    const { url, refusal } = webUrl(authorizationUrl.href);
    if (url === undefined) throw unsafeSignIn(refusal);
    return this.#signIn.onSignIn?.(url);
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.#verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (!this.#verifier) throw new ConnectionError("Sign-in failed: no PKCE verifier was saved");
    return this.#verifier;
  }

  async invalidateCredentials(
    scope: "all" | "client" | "tokens" | "verifier" | "discovery",
  ): Promise<void> {
    const record = this.#record;
    if (scope === "verifier") {
      this.#verifier = undefined;
      return;
    }
    // Pre-registered and machine clients were given by the user: keep them.
    const given = this.machine || record.client?.jn_preregistered === true;
    if ((scope === "all" || scope === "client") && !given) delete record.client;
    if (scope === "all" || scope === "tokens") delete record.tokens;
    if (scope === "all" || scope === "discovery") delete record.discovery;
    await this.#persist();
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    // A browser sign-in would open the authorization endpoint: refused here, before the SDK
    // registers a client with an authorization server whose sign-in page jn will not open.
    if (!this.machine && this.#signIn.interactive) {
      const refusal = webUrl(signInPage(state)).refusal;
      if (refusal !== undefined) throw unsafeSignIn(refusal);
    }
    this.#record.discovery = state as unknown as Record<string, unknown>;
    await this.#persist();
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#record.discovery as OAuthDiscoveryState | undefined;
  }

  async prepareTokenRequest(scope?: string): Promise<URLSearchParams | undefined> {
    const record = this.#record;
    const env = this.#signIn.env ?? {};
    let params: URLSearchParams;
    switch (record.grant) {
      case "client_credentials":
        params = new URLSearchParams({ grant_type: "client_credentials" });
        break;
      case "jwt_bearer": {
        const assertion = await readCredential(
          record.assertion ?? {},
          "workload identity token",
          env,
        );
        this.noteSecret(assertion);
        params = new URLSearchParams({ grant_type: JWT_BEARER, assertion });
        break;
      }
      case "id_jag": {
        const assertion = await identityAssertion(
          record.idp!,
          {
            audience: this.#issuer ?? "",
            resource: this.#resource ?? record.serverUrl,
            scope,
          },
          env,
          undefined,
          (value) => this.noteSecret(value),
        );
        this.noteSecret(assertion);
        params = new URLSearchParams({ grant_type: JWT_BEARER, assertion });
        break;
      }
      default:
        return undefined;
    }
    if (scope) params.set("scope", scope);
    return params;
  }

  /** Starts the loopback receiver of a browser sign-in, when one may happen. */
  beginSignIn(): void {
    if (!this.#signIn.interactive || this.machine) return;
    if (this.#receiver) return;
    const registered = this.#record.client?.redirect_uris;
    const port = Array.isArray(registered) && typeof registered[0] === "string"
      ? Number(new URL(registered[0]).port) || undefined
      : undefined;
    this.#receiver = LoopbackReceiver.start(port);
  }

  /** Waits for the browser's redirect after `redirectToAuthorization`. */
  async waitForCallback(): Promise<CallbackParams> {
    if (!this.#receiver || !this.#state) throw signInRequired(this.#record);
    return await this.#receiver.wait({
      state: this.#state,
      timeoutMs: this.#signIn.timeoutMs ?? 300_000,
      signal: this.#signIn.signal,
    });
  }

  /** Stops the loopback receiver. */
  async endSignIn(): Promise<void> {
    const receiver = this.#receiver;
    this.#receiver = undefined;
    await receiver?.close();
  }

  #persist(): Promise<void> {
    const snapshot = structuredClone(this.#record);
    this.#saving = this.#saving.then(() => this.#store.save(snapshot));
    return this.#saving;
  }
}

/**
 * The page a browser sign-in opens, by the discovered metadata: its
 * `authorization_endpoint`, or the SDK's default `/authorize` of the
 * authorization server.
 */
function signInPage(state: OAuthDiscoveryState): string {
  const endpoint = state.authorizationServerMetadata?.authorization_endpoint;
  if (typeof endpoint === "string") return endpoint;
  try {
    return new URL("/authorize", state.authorizationServerUrl).href;
  } catch {
    return String(state.authorizationServerUrl);
  }
}

/** The error of a sign-in page jn will not open (`refusal`: why, lib/output/web_url.ts). */
function unsafeSignIn(refusal: string): ConnectionError {
  return new ConnectionError(
    `Authorization failed: the authorization server's sign-in page is not a URL jn opens: ${refusal}`,
    {
      hint: "jn opens only plain http(s) sign-in pages; the server's OAuth setup is broken or " +
        "hostile: report it (jn registered no client and opened nothing)",
    },
  );
}

/** Issuer identifiers, equal up to one trailing slash (as the SDK compares them). */
function sameIssuer(a: string, b: string): boolean {
  return a.replace(/\/$/, "") === b.replace(/\/$/, "");
}

/** The error of a server that wants a sign-in jn may not start here. */
export function signInRequired(record: Readonly<AuthRecord>): ConnectionError {
  const url = record.serverUrl;
  const expired = record.tokens !== undefined;
  return new ConnectionError(
    expired
      ? `The sign-in to "${url}" has expired and cannot be refreshed (HTTP 401)`
      : `The server "${url}" requires authorization (HTTP 401)`,
    {
      hint: `sign in with 'jn auth login ${url}', or pass a token with --token-env VAR`,
    },
  );
}
