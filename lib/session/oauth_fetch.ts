/**
 * The `fetch` of an OAuth-protected MCP server: adds the bearer token to the
 * server's own requests, refreshes an expired token before sending, signs in
 * on `401` and steps up the scope on `403 insufficient_scope`, then retries
 * the request once. Everything OAuth itself (discovery, registration, PKCE,
 * the `resource` parameter, token and refresh requests) is the SDK's `auth()`.
 *
 * Guarantees: the token only ever goes to the server's origin (never to the
 * authorization server, which gets the SDK's own client authentication);
 * concurrent requests share one sign-in; each request is retried at most once
 * per cause, so a server that keeps refusing cannot make jn loop (a DPoP
 * nonce challenge that survives the SDK's one re-signed retry is an error,
 * not a new sign-in); failures are jn errors (ConnectionError, exit 4) with
 * a hint, the authorization server's text in them bounded (oauth_errors.ts). Every credential
 * a request carries (Authorization, DPoP proof, Basic secret, assertion,
 * client secret or assertion, code verifier, refresh token) is told to the
 * provider as a secret, so that whatever jn prints is redacted of it.
 *
 * @module
 */

import type { FetchLike } from "@modelcontextprotocol/client";
import { tokenExpired } from "../auth/token_store.ts";
import { ConnectionError } from "../errors.ts";
import { authError } from "./oauth_errors.ts";
import { noting } from "./oauth_secrets.ts";
import { MAX_DPOP_NONCE } from "./oauth_grants.ts";
import { type JnOAuthProvider, signInRequired } from "./oauth_provider.ts";

type Sdk = typeof import("@modelcontextprotocol/client");

interface Challenge {
  resourceMetadataUrl?: URL;
  scope?: string;
  force?: boolean;
}

/** Options of {@linkcode createAuthFetch}. */
export interface AuthFetchOptions {
  /** The MCP server URL (the protected resource). */
  serverUrl: string;
  provider: JnOAuthProvider;
  /** The fetch underneath (also used for the OAuth requests). */
  base?: FetchLike;
  /** The SDK's own warnings during a sign-in (for `--debug`). */
  onWarning?: (message: string) => void;
}

/** A fetch that authorizes requests to one MCP server. */
export function createAuthFetch(sdk: Sdk, options: AuthFetchOptions): FetchLike {
  const { provider, serverUrl } = options;
  // Every credential that leaves (to the server or the authorization server) is a secret.
  const base = noting(
    options.base ?? ((input, init) => fetch(input, init)),
    (value, transient) => provider.noteSecret(value, transient),
  );
  const origin = new URL(serverUrl).origin;
  let scope = provider.record.scope;
  let resourceMetadataUrl: URL | undefined;
  let running: Promise<void> | undefined;

  const authorize = (challenge: Challenge): Promise<void> => {
    running ??= quietly(options.onWarning, () => runAuth(sdk, provider, serverUrl, base, challenge))
      .finally(() => running = undefined);
    return running;
  };

  // A DPoP-bound token goes out as `DPoP` with a fresh proof (a nonce challenge is retried).
  const resource = provider.record.dpop ? sdk.withDpopFromProvider(provider)(base) : base;
  const send = async (input: string | URL, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers);
    const token = provider.tokens()?.access_token;
    if (token) headers.set("authorization", `Bearer ${token}`);
    return await resource(input, { ...init, headers });
  };

  return async (input, init) => {
    if (new URL(String(input)).origin !== origin) return await base(input, init);
    await running;
    const stored = provider.record.tokens;
    if (stored && tokenExpired(stored) && provider.canAuthorize()) {
      await authorize({ resourceMetadataUrl, scope });
    }
    const sentToken = provider.tokens() !== undefined;
    let response = await send(input, init);
    if (sentToken) await refuseNonceLoop(sdk, response, serverUrl);
    if (response.status === 401) {
      const params = sdk.extractWWWAuthenticateParams(response);
      await response.body?.cancel();
      resourceMetadataUrl = params.resourceMetadataUrl ?? resourceMetadataUrl;
      scope = sdk.computeScopeUnion(scope, params.scope);
      if (!provider.canAuthorize()) throw signInRequired(provider.record);
      // A refused token can mean the resource moved to another authorization server: discover
      // again, so the SDK sees the new issuer and does not present the old one's credentials.
      if (sentToken) await provider.invalidateCredentials("discovery");
      await authorize({ resourceMetadataUrl, scope });
      response = await send(input, init);
      await refuseNonceLoop(sdk, response, serverUrl);
      if (response.status === 401) {
        await response.body?.cancel();
        await provider.invalidateCredentials("discovery");
        throw new ConnectionError(
          `The server "${serverUrl}" refused the new token (HTTP 401)`,
          { hint: `sign in again with 'jn auth login ${serverUrl}'` },
        );
      }
    }
    if (response.status === 403) {
      const params = sdk.extractWWWAuthenticateParams(response);
      if (params.error !== "insufficient_scope") return response;
      await response.body?.cancel();
      const granted = provider.tokens()?.scope;
      scope = sdk.computeScopeUnion(scope, granted, params.scope);
      resourceMetadataUrl = params.resourceMetadataUrl ?? resourceMetadataUrl;
      const force = sdk.isStrictScopeSuperset(scope, granted);
      const needsBrowser = force && provider.record.grant === "authorization_code";
      if (!provider.canAuthorize() || (needsBrowser && !provider.interactive)) {
        throw insufficientScope(serverUrl, params.scope);
      }
      await authorize({ resourceMetadataUrl, scope, force });
      response = await send(input, init);
      if (response.status === 403) {
        await response.body?.cancel();
        throw insufficientScope(serverUrl, params.scope);
      }
    }
    return response;
  };
}

/**
 * A `use_dpop_nonce` challenge that reaches jn survived the SDK's one retry
 * with the server's nonce (or the nonce was unusable, and dropped): a new
 * sign-in would not help, so it is an error, not another round.
 */
async function refuseNonceLoop(sdk: Sdk, response: Response, serverUrl: string): Promise<void> {
  if (!sdk.isDpopNonceChallenge(response)) return;
  await response.body?.cancel();
  throw new ConnectionError(
    `The server "${serverUrl}" keeps refusing the DPoP proof with a nonce challenge (use_dpop_nonce)`,
    {
      hint: "its DPoP-Nonce header is missing or not a valid nonce (RFC 9449: at most " +
        `${MAX_DPOP_NONCE} printable characters, no quote, backslash or space)`,
    },
  );
}

async function runAuth(
  sdk: Sdk,
  provider: JnOAuthProvider,
  serverUrl: string,
  base: FetchLike,
  challenge: Challenge,
): Promise<void> {
  const common = {
    serverUrl,
    resourceMetadataUrl: challenge.resourceMetadataUrl,
    scope: challenge.scope,
    fetchFn: base,
  };
  provider.beginSignIn();
  try {
    let result = await sdk.auth(provider, { ...common, forceReauthorization: challenge.force });
    if (result === "REDIRECT") {
      const callback = await provider.waitForCallback();
      result = await sdk.auth(provider, {
        ...common,
        authorizationCode: callback.code,
        iss: callback.iss,
      });
    }
    if (result !== "AUTHORIZED") throw signInRequired(provider.record);
  } catch (error) {
    throw authError(sdk, serverUrl, error, provider.secrets);
  } finally {
    await provider.endSignIn();
  }
}

/**
 * Runs `action` with `console.warn` sent to `onWarning`: the SDK's OAuth code
 * warns on the console ("[mcp-sdk] …"), which would land unasked on the
 * user's stderr. Sign-ins of a session never overlap (they are shared).
 */
async function quietly<T>(
  onWarning: ((message: string) => void) | undefined,
  action: () => Promise<T>,
): Promise<T> {
  const target = globalThis.console;
  const original = target.warn;
  target.warn = (...parts: unknown[]) => onWarning?.(parts.map(String).join(" "));
  try {
    return await action();
  } finally {
    target.warn = original;
  }
}

function insufficientScope(serverUrl: string, needed: string | undefined): ConnectionError {
  return new ConnectionError(
    `The server "${serverUrl}" needs more permissions${
      needed ? ` (scope "${needed}")` : ""
    } than the sign-in grants (HTTP 403)`,
    {
      hint: `sign in again with 'jn auth login ${serverUrl}${
        needed ? ` --scope "${needed}"` : ""
      }'`,
    },
  );
}
