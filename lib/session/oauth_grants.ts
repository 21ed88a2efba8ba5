/**
 * The credentials behind jn's machine OAuth grants, as the SDK's helpers use them: a client's
 * private key (`private_key_jwt`, RFC 7523 §2.2), a workload identity JWT (JWT bearer grant,
 * RFC 7523 §2.1), an enterprise IdP's ID token exchanged for an identity assertion grant
 * (cross-app access, ID-JAG), and the DPoP key (RFC 9449) tokens are bound to.
 *
 * Guarantees: keys, assertions and ID tokens are read from their file or environment variable
 * each time they are needed and never written anywhere; only the DPoP key, which jn makes
 * itself, is kept in the auth record (mode 0600) so that bound tokens survive the run. Errors
 * name the file or variable, never its content.
 *
 * @module
 */

import type {
  AddClientAuthentication,
  DpopKeyPair,
  DpopSession,
  FetchLike,
} from "@modelcontextprotocol/client";
import type { CredentialSource, DpopKey, IdpSettings } from "../auth/token_store.ts";
import { ConfigError } from "../errors.ts";

/** The grant type of RFC 7523 (workload identity, and the second leg of cross-app access). */
export const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

const sdk = () => import("@modelcontextprotocol/client");

/** Reads a credential from its file or environment variable (trimmed). */
export async function readCredential(
  source: CredentialSource,
  what: string,
  env: Record<string, string>,
): Promise<string> {
  if (source.file) {
    let text: string;
    try {
      text = await Deno.readTextFile(source.file);
    } catch (error) {
      throw new ConfigError(
        `Cannot read the ${what} file "${source.file}": ${(error as Error).message}`,
        { path: source.file, hint: `check the file, or sign in again with 'jn auth login'` },
      );
    }
    return text.trim();
  }
  if (source.env) {
    const value = env[source.env]?.trim();
    if (!value) {
      throw new ConfigError(
        `The ${what} is read from the variable "${source.env}", which is not set`,
        {
          hint: `set ${source.env}, or sign in again with 'jn auth login'`,
        },
      );
    }
    return value;
  }
  throw new ConfigError(`No ${what} is configured`, { hint: "sign in again with 'jn auth login'" });
}

const KEY_TYPES: [string, EcKeyImportParams | RsaHashedImportParams][] = [
  ["ES256", { name: "ECDSA", namedCurve: "P-256" }],
  ["ES384", { name: "ECDSA", namedCurve: "P-384" }],
  ["ES512", { name: "ECDSA", namedCurve: "P-521" }],
  ["RS256", { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }],
];

/** The JWS algorithm of a PKCS#8 PEM private key: ES256/384/512 by curve, RS256 for RSA. */
export async function keyAlgorithm(pem: string): Promise<string> {
  const body = pem.replace(/-----(BEGIN|END) PRIVATE KEY-----/g, "").replace(/\s+/g, "");
  let der: Uint8Array<ArrayBuffer> | undefined;
  try {
    der = Uint8Array.from(atob(body), (c) => c.charCodeAt(0));
  } catch {
    der = undefined;
  }
  if (der && pem.includes("BEGIN PRIVATE KEY")) {
    for (const [alg, params] of KEY_TYPES) {
      try {
        await crypto.subtle.importKey("pkcs8", der, params, false, ["sign"]);
        return alg;
      } catch { /* not this type */ }
    }
  }
  throw new ConfigError(
    "The private key is not a PKCS#8 PEM key of a supported type (EC P-256/P-384/P-521 or RSA)",
    { hint: "convert it with 'openssl pkcs8 -topk8 -nocrypt -in KEY', or pass --signing-alg" },
  );
}

/** `private_key_jwt` client authentication: a fresh signed assertion per token request. */
export function privateKeyJwtAuth(
  clientId: string,
  key: CredentialSource & { alg?: string },
  env: Record<string, string>,
): AddClientAuthentication {
  return async (headers, params, url, metadata) => {
    const pem = await readCredential(key, "private key", env);
    const alg = key.alg ?? await keyAlgorithm(pem);
    const { createPrivateKeyJwtAuth } = await sdk();
    const sign = createPrivateKeyJwtAuth({
      issuer: clientId,
      subject: clientId,
      privateKey: pem,
      alg,
    });
    await sign(headers, params, url, metadata);
  };
}

/**
 * The identity assertion grant (ID-JAG) for an authorization server, from the IdP;
 * `onSecret` is told the ID token read (for redaction).
 */
export async function identityAssertion(
  idp: IdpSettings,
  target: { audience: string; resource: string; scope?: string },
  env: Record<string, string>,
  fetchFn?: FetchLike,
  onSecret?: (value: string) => void,
): Promise<string> {
  const { requestJwtAuthorizationGrant, discoverAndRequestJwtAuthGrant } = await sdk();
  const idToken = await readCredential(idp.idToken, "ID token", env);
  onSecret?.(idToken);
  const common = {
    ...target,
    idToken,
    clientId: idp.clientId,
    clientSecret: idp.clientSecret,
    fetchFn,
  };
  const result = idp.tokenEndpoint
    ? await requestJwtAuthorizationGrant({ tokenEndpoint: idp.tokenEndpoint, ...common })
    : await discoverAndRequestJwtAuthGrant({ idpUrl: idp.issuer ?? "", ...common });
  return result.jwtAuthGrant;
}

const P256 = { name: "ECDSA", namedCurve: "P-256" };

/** The longest server-supplied DPoP nonce jn signs into its proofs. */
export const MAX_DPOP_NONCE = 1024;

/** RFC 9449 §8.1: `nonce = 1*NQCHAR` (printable ASCII but `"` and `\`), bounded. */
const DPOP_NONCE = new RegExp(`^[\\x21\\x23-\\x5b\\x5d-\\x7e]{1,${MAX_DPOP_NONCE}}$`);

/**
 * A session that remembers only nonces RFC 9449 allows, at most
 * {@linkcode MAX_DPOP_NONCE} characters: a server's other `DPoP-Nonce` is
 * ignored, never signed into a proof (nor sent back in every one).
 */
function guardNonces(session: DpopSession): DpopSession {
  const remember = session.rememberNonce.bind(session);
  session.rememberNonce = (url, nonce) => {
    if (typeof nonce === "string" && DPOP_NONCE.test(nonce)) remember(url, nonce);
  };
  return session;
}

/**
 * The DPoP session of a record's key: made (ES256) and saved with `persist` the first time,
 * imported from the record afterwards; it keeps only valid server nonces (`guardNonces`).
 */
export async function dpopSession(
  key: DpopKey,
  persist: () => Promise<void>,
): Promise<DpopSession> {
  const { DpopSession, generateDpopKeyPair } = await sdk();
  if (!key.privateJwk || !key.publicJwk || !key.thumbprint) {
    const pair = await generateDpopKeyPair({ alg: "ES256", extractable: true });
    key.alg = pair.alg;
    key.privateJwk = await crypto.subtle.exportKey("jwk", pair.privateKey);
    key.publicJwk = pair.publicJwk as JsonWebKey;
    key.thumbprint = pair.thumbprint;
    await persist();
    return guardNonces(await DpopSession.create({ keyPair: pair }));
  }
  const keyPair = {
    privateKey: await crypto.subtle.importKey("jwk", key.privateJwk, P256, false, ["sign"]),
    publicKey: await crypto.subtle.importKey("jwk", key.publicJwk, P256, true, ["verify"]),
    publicJwk: key.publicJwk,
    thumbprint: key.thumbprint,
    alg: "ES256",
  } as DpopKeyPair;
  return guardNonces(await DpopSession.create({ keyPair }));
}
