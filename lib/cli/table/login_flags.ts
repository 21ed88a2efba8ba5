/**
 * The flags of `jn auth login`: each sets the field of the library's
 * `LoginFlags` (lib/client/auth.ts) it is named after, which
 * `loginSettings()` checks as a whole (one grant, and what it needs).
 *
 * @module
 */

import type { LoginFlags } from "../../client/auth.ts";
import { flag, setTrue, text } from "./flag.ts";

/** A value flag of `auth login`, kept as typed in a `LoginFlags` field. */
function login<const K extends keyof LoginFlags>(
  long: string,
  value: string,
  key: K,
  help: string,
) {
  return flag({ long, value, key, help, apply: text });
}

/** `auth login`'s own flags: the fields of the library's `LoginFlags`. */
export const LOGIN_FLAGS = [
  login("scope", "scopes", "scope", "the scopes to ask for (space-separated)"),
  login(
    "client-id",
    "id",
    "clientId",
    "a pre-registered OAuth client (skips dynamic registration)",
  ),
  login("client-secret", "secret", "clientSecret", "its secret (prefer --client-secret-env)"),
  login(
    "client-secret-env",
    "VAR",
    "clientSecretEnv",
    "read the client secret from environment variable VAR",
  ),
  flag({
    long: "client-credentials",
    key: "clientCredentials",
    help: "machine-to-machine: the client-credentials grant, no browser",
    apply: setTrue,
  }),
  login(
    "client-metadata-url",
    "url",
    "clientMetadataUrl",
    "an HTTPS client ID metadata document to use as client_id",
  ),
  login(
    "private-key",
    "file",
    "privateKey",
    "client credentials with private_key_jwt: a PKCS#8 PEM key",
  ),
  login(
    "private-key-env",
    "VAR",
    "privateKeyEnv",
    "the same key, read from environment variable VAR",
  ),
  login(
    "signing-alg",
    "alg",
    "signingAlg",
    "the key's JWS algorithm (default: ES256/384/512 or RS256)",
  ),
  login(
    "assertion",
    "file",
    "assertion",
    "workload identity: a JWT for the JWT-bearer grant",
  ),
  login("assertion-env", "VAR", "assertionEnv", "the same JWT, read from environment variable VAR"),
  login("idp", "url", "idp", "cross-app access: the enterprise IdP (issuer URL)"),
  login(
    "idp-token-endpoint",
    "url",
    "idpTokenEndpoint",
    "cross-app access: the IdP's token endpoint",
  ),
  login("idp-client-id", "id", "idpClientId", "cross-app access: jn's client at the IdP"),
  login(
    "idp-client-secret-env",
    "VAR",
    "idpClientSecretEnv",
    "its secret, from environment variable VAR",
  ),
  login("id-token", "file", "idToken", "cross-app access: the user's ID token from the IdP"),
  login("id-token-env", "VAR", "idTokenEnv", "the same ID token, from environment variable VAR"),
  flag({
    long: "dpop",
    key: "dpop",
    help: "ask for DPoP-bound tokens (RFC 9449), kept with a key jn makes",
    apply: setTrue,
  }),
] as const;
