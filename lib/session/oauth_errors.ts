/**
 * The errors of jn's OAuth sign-in, from what the SDK's flow threw: one line
 * each (a ConnectionError, exit 4) with a hint, never a stack trace.
 *
 * Guarantees: an authorization server's text in them is redacted of every
 * credential the flow holds, kept on one line and bounded; the issuers and
 * endpoints they quote pass jn's check of server URLs
 * (lib/output/web_url.ts), or are named as not shown; a schema error of the
 * server's metadata names the field and the problem, not a dump of issues.
 *
 * @module
 */

import { ConnectionError, JnError } from "../errors.ts";
import { redact } from "../output/redact.ts";
import { shownUrl } from "../output/web_url.ts";

type Sdk = typeof import("@modelcontextprotocol/client");

/** The most of an authorization server's error text shown (it may be long, or hostile). */
const MAX_SERVER_TEXT = 300;

/** Server text for an error message: redacted, on one line, bounded. */
function serverText(value: unknown, secrets: readonly string[]): string {
  // Redacted before it is cut: a cut secret would no longer be recognised.
  const text = redact(String(value), secrets).replace(/[\r\n]+/g, " ");
  return text.length > MAX_SERVER_TEXT ? `${text.slice(0, MAX_SERVER_TEXT - 1)}…` : text;
}

/** Maps what the SDK's OAuth flow threw to a jn error. */
export function authError(
  sdk: Sdk,
  serverUrl: string,
  error: unknown,
  secrets: readonly string[],
): JnError {
  if (error instanceof JnError) return error;
  const hint = `check the server's OAuth setup, or sign in again with 'jn auth login ${serverUrl}'`;
  if (error instanceof sdk.OAuthError) {
    return new ConnectionError(
      `Authorization failed: ${serverText(error.code, secrets).slice(0, 64)}: ${
        serverText(error.message, secrets)
      }`,
      { hint, cause: error },
    );
  }
  if (error instanceof sdk.IssuerMismatchError) {
    const expected = quoted(error.expected);
    const message = error.kind === "metadata"
      ? `the authorization server metadata names the issuer ${quoted(error.received)}, ` +
        `but it was looked up as ${expected}`
      : `the sign-in came back from the issuer ${quoted(error.received)} (iss), ` +
        `but it was started at ${expected}`;
    return new ConnectionError(`Authorization failed: ${message}`, {
      hint: "this can be an attack (authorization-server mix-up); do not retry blindly",
      cause: error,
    });
  }
  if (error instanceof sdk.AuthorizationServerMismatchError) {
    const { recordedIssuer, currentIssuer } = error as unknown as Record<string, unknown>;
    return new ConnectionError(
      `Authorization failed: the sign-in started at the issuer ${quoted(recordedIssuer)}, ` +
        `but the server now names ${quoted(currentIssuer)}`,
      { hint: `sign in again with 'jn auth login ${serverUrl}'`, cause: error },
    );
  }
  if (error instanceof sdk.InsecureTokenEndpointError) {
    return new ConnectionError(
      `Authorization failed: the token endpoint "${shownUrl(error.tokenEndpoint)}" is not HTTPS`,
      { hint: "the authorization server must use https:// (loopback excepted)", cause: error },
    );
  }
  const invalid = schemaIssues(error);
  if (invalid !== undefined) {
    // The SDK's check of the metadata (e.g. a `javascript:` or `data:` authorization endpoint).
    return new ConnectionError(
      `Authorization failed: the authorization server's metadata is invalid: ${
        serverText(invalid, secrets)
      }`,
      { hint, cause: error },
    );
  }
  if (error instanceof TypeError) {
    return new ConnectionError(`Cannot reach the authorization server: ${rootMessage(error)}`, {
      hint,
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ConnectionError(`Authorization failed: ${serverText(message, secrets)}`, {
    hint,
    cause: error,
  });
}

/** `field: problem; …` of a schema error (a ZodError's `issues`), or undefined for another error. */
function schemaIssues(error: unknown): string | undefined {
  const issues = (error as { issues?: unknown } | null)?.issues;
  if (!Array.isArray(issues) || issues.length === 0) return undefined;
  return issues.slice(0, 3).map((issue) => {
    const { path, message } = issue as { path?: unknown; message?: unknown };
    const where = Array.isArray(path) && path.length > 0 ? `${path.join(".")}: ` : "";
    return `${where}${String(message)}`;
  }).join("; ") + (issues.length > 3 ? "; …" : "");
}

/** An issuer as shown in a message: checked as a URL, JSON-quoted, bounded. */
function quoted(value: unknown): string {
  if (typeof value !== "string") return "(none)";
  const text = JSON.stringify(shownUrl(value));
  return text.length > 200 ? `${text.slice(0, 199)}…"` : text;
}

function rootMessage(error: Error): string {
  let current: unknown = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  return (current as Error).message;
}
