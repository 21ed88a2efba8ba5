/**
 * jn's OAuth client for one MCP server: the SDK's `OAuthClientProvider`
 * contract backed by a persistent auth record (lib/auth/token_store.ts).
 *
 * Guarantees: registrations, tokens and discovery state are saved as soon as
 * the SDK hands them over (mode 0600), with the absolute expiry time; the PKCE
 * verifier and `state` live in memory only; a browser sign-in starts only when
 * the caller allowed it (`interactive`), and otherwise fails with a
 * ConnectionError that says how to sign in. Nothing here prints.
 *
 * @module
 */

import type {
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
  type StoredTokens,
} from "../auth/token_store.ts";
import { ConnectionError } from "../errors.ts";
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
}

const PLACEHOLDER_REDIRECT = "http://127.0.0.1/callback";

/** An `OAuthClientProvider` over a stored auth record. */
export class JnOAuthProvider implements OAuthClientProvider {
  #store: AuthStore;
  #record: AuthRecord;
  #signIn: SignInOptions;
  #receiver?: LoopbackReceiver;
  #verifier?: string;
  #state?: string;
  #saving: Promise<void> = Promise.resolve();

  constructor(store: AuthStore, record: AuthRecord, signIn: SignInOptions) {
    this.#store = store;
    this.#record = record;
    this.#signIn = signIn;
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
    record.grant = settings.clientCredentials ? "client_credentials" : "authorization_code";
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
  }

  /** Whether a browser sign-in may start. */
  get interactive(): boolean {
    return this.#signIn.interactive;
  }

  /** Whether a sign-in can be attempted without a browser or with one. */
  canAuthorize(): boolean {
    const record = this.#record;
    if (record.grant === "client_credentials") return record.client?.client_secret !== undefined;
    return this.#signIn.interactive || record.tokens?.refresh_token !== undefined;
  }

  get redirectUrl(): string | undefined {
    if (this.#record.grant === "client_credentials") return undefined;
    if (this.#receiver) return this.#receiver.redirectUrl;
    const registered = this.#record.client?.redirect_uris;
    return Array.isArray(registered) && typeof registered[0] === "string"
      ? registered[0]
      : PLACEHOLDER_REDIRECT;
  }

  get clientMetadata(): OAuthClientMetadata {
    const cc = this.#record.grant === "client_credentials";
    return {
      client_name: "jn",
      software_id: "jn",
      software_version: VERSION,
      redirect_uris: cc ? [] : [this.redirectUrl ?? PLACEHOLDER_REDIRECT],
      grant_types: cc ? ["client_credentials"] : ["authorization_code", "refresh_token"],
      response_types: cc ? [] : ["code"],
      ...(this.#record.scope ? { scope: this.#record.scope } : {}),
    };
  }

  get clientMetadataUrl(): string | undefined {
    return this.#record.clientMetadataUrl;
  }

  state(): string {
    this.#state = crypto.randomUUID();
    return this.#state;
  }

  clientInformation(): StoredOAuthClientInformation | undefined {
    return this.#record.client as StoredOAuthClientInformation | undefined;
  }

  async saveClientInformation(info: StoredOAuthClientInformation): Promise<void> {
    this.#record.client = info as AuthRecord["client"];
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
    await this.#persist();
  }

  redirectToAuthorization(authorizationUrl: URL): Promise<void> | void {
    if (!this.#signIn.interactive || !this.#receiver) throw signInRequired(this.#record);
    return this.#signIn.onSignIn?.(authorizationUrl.href);
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
    // Pre-registered and client-credentials clients were given by the user: keep them.
    const given = record.grant === "client_credentials" || record.client?.jn_preregistered === true;
    if ((scope === "all" || scope === "client") && !given) delete record.client;
    if (scope === "all" || scope === "tokens") delete record.tokens;
    if (scope === "all" || scope === "discovery") delete record.discovery;
    await this.#persist();
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    this.#record.discovery = state as unknown as Record<string, unknown>;
    await this.#persist();
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#record.discovery as OAuthDiscoveryState | undefined;
  }

  prepareTokenRequest(scope?: string): URLSearchParams | undefined {
    if (this.#record.grant !== "client_credentials") return undefined;
    const params = new URLSearchParams({ grant_type: "client_credentials" });
    if (scope) params.set("scope", scope);
    return params;
  }

  /** Starts the loopback receiver of a browser sign-in, when one may happen. */
  beginSignIn(): void {
    if (!this.#signIn.interactive || this.#record.grant === "client_credentials") return;
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
