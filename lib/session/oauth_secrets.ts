/**
 * The credentials an OAuth request carries, told as secrets as they leave:
 * whatever jn prints about a session (its errors, `--debug`) is redacted of
 * them, because a server or an authorization server may quote one back.
 *
 * Guarantees: the `Authorization` value (the whole of it and its credential;
 * for HTTP Basic the client secret too, as sent and decoded), the `DPoP`
 * proof, and the credential fields of a form body (client secret or
 * assertion, grant assertion, subject and actor tokens, refresh token, code
 * and verifier) are told before the request is sent; one-time ones (a proof,
 * a `private_key_jwt` assertion) are marked `transient`. A header or body it
 * cannot read is passed on untouched.
 *
 * @module
 */

import type { FetchLike } from "@modelcontextprotocol/client";

/** The form fields of an OAuth request that carry a credential (one-time ones: `true`). */
const CREDENTIAL_FIELDS: [string, boolean][] = [
  ["client_secret", false],
  ["client_assertion", true],
  ["assertion", false],
  ["subject_token", false],
  ["actor_token", false],
  ["refresh_token", false],
  ["code", false],
  ["code_verifier", false],
];

/**
 * `fetch` telling `onSecret` of every credential a request carries: its
 * `Authorization` value (and the secret of HTTP Basic), its `DPoP` proof
 * (one-time), and the credential fields of a form body.
 */
export function noting(
  fetchFn: FetchLike,
  onSecret: (value: string, transient: boolean) => void,
): FetchLike {
  return (input, init) => {
    try {
      const headers = new Headers(init?.headers);
      onSecret(headers.get("dpop") ?? "", true);
      const authorization = headers.get("authorization") ?? "";
      onSecret(authorization, false);
      const [scheme, credential] = authorization.split(/\s+/, 2);
      if (credential) onSecret(credential, false);
      if (/^basic$/i.test(scheme) && credential) {
        const pair = atob(credential);
        const secret = pair.slice(pair.indexOf(":") + 1);
        onSecret(secret, false);
        // Form-encoded by some clients, not by the SDK: a bare `%` must not cost the fields below.
        try {
          onSecret(decodeURIComponent(secret), false);
        } catch { /* not percent-encoded: noted as it is */ }
      }
      const body = init?.body;
      const form = body instanceof URLSearchParams
        ? body
        : typeof body === "string" && !body.trimStart().startsWith("{")
        ? new URLSearchParams(body)
        : undefined;
      for (const [field, transient] of CREDENTIAL_FIELDS) {
        onSecret(form?.get(field) ?? "", transient);
      }
    } catch { /* a header or body jn cannot read carries nothing it added */ }
    return fetchFn(input, init);
  };
}
