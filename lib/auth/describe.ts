/**
 * What `jn auth status` shows of a stored authorization: who signed in how,
 * with which scopes, until when. Never the tokens or the client secret.
 *
 * @module
 */

import {
  type AuthRecord,
  type CredentialSource,
  machineGrant,
  tokenExpired,
} from "./token_store.ts";
import { visible } from "../output/visible.ts";
import { shownUrl } from "../output/web_url.ts";

/** The printable facts of one auth record (no secrets). */
export interface AuthSummary {
  serverUrl: string;
  signedIn: boolean;
  grant: AuthRecord["grant"];
  clientId?: string;
  issuer?: string;
  scopes: string[];
  /** ISO time the access token expires, when known. */
  expiresAt?: string;
  expired: boolean;
  /** A refresh token (or client credentials) can renew the access token. */
  renewable: boolean;
  /** Tokens are bound to a DPoP key. */
  dpop?: boolean;
  /** Where a machine grant's credential is read (a file or a variable's name, never its value). */
  credential?: string;
  file?: string;
}

/** Summarises a record; `now` is injectable for tests. */
export function summarize(record: AuthRecord, file?: string, now = Date.now()): AuthSummary {
  const tokens = record.tokens;
  const issuer = typeof tokens?.issuer === "string"
    ? tokens.issuer
    : typeof record.client?.issuer === "string"
    ? record.client.issuer
    : undefined;
  return {
    serverUrl: record.serverUrl,
    signedIn: tokens !== undefined,
    grant: record.grant,
    clientId: record.client?.client_id,
    issuer,
    scopes: (tokens?.scope ?? record.scope ?? "").split(" ").filter(Boolean),
    expiresAt: tokens?.expires_at ? new Date(tokens.expires_at).toISOString() : undefined,
    expired: tokens ? tokenExpired(tokens, now, 0) : false,
    renewable: tokens?.refresh_token !== undefined || machineGrant(record),
    ...(record.dpop ? { dpop: true } : {}),
    ...(credentialOf(record) ? { credential: credentialOf(record) } : {}),
    file,
  };
}

function where(source: CredentialSource | undefined): string {
  return source?.file ? `file ${source.file}` : source?.env ? `$${source.env}` : "(none)";
}

function credentialOf(record: AuthRecord): string | undefined {
  if (record.clientKey) return `private key from ${where(record.clientKey)}`;
  if (record.assertion) return `workload JWT from ${where(record.assertion)}`;
  const idp = record.idp;
  if (idp) {
    return `ID token from ${where(idp.idToken)} for ${idp.tokenEndpoint ?? idp.issuer} ` +
      `(client ${idp.clientId})`;
  }
  return undefined;
}

const GRANT_NAMES: Record<AuthRecord["grant"], string> = {
  authorization_code: "browser sign-in",
  client_credentials: "client credentials",
  jwt_bearer: "workload identity (JWT bearer)",
  id_jag: "cross-app access (identity assertion)",
};

/** The summary as indented text lines. */
export function formatSummary(summary: AuthSummary, now = Date.now()): string {
  const lines = [summary.serverUrl];
  const how = `${GRANT_NAMES[summary.grant] ?? summary.grant}${summary.dpop ? ", DPoP" : ""}`;
  lines.push(`  signed in: ${summary.signedIn ? `yes (${how})` : "no"}`);
  // The client ID, issuer and scopes come from the authorization server: made visible (the
  // issuer checked as every server URL jn shows is).
  if (summary.clientId) lines.push(`  client:    ${shown(summary.clientId)}`);
  if (summary.issuer) lines.push(`  issuer:    ${shownUrl(summary.issuer)}`);
  if (summary.credential) lines.push(`  uses:      ${shown(summary.credential)}`);
  if (summary.scopes.length > 0) lines.push(`  scopes:    ${shown(summary.scopes.join(" "))}`);
  if (summary.signedIn) {
    const expiry = summary.expiresAt ? Date.parse(summary.expiresAt) : undefined;
    const when = expiry === undefined
      ? "no expiry given"
      : summary.expired
      ? `expired ${duration(now - expiry)} ago (${summary.expiresAt})`
      : `in ${duration(expiry - now)} (${summary.expiresAt})`;
    lines.push(`  expires:   ${when}`);
    lines.push(`  renewable: ${summary.renewable ? "yes (refreshed automatically)" : "no"}`);
  }
  if (summary.file) lines.push(`  file:      ${summary.file}`);
  return lines.join("\n");
}

/** A value on one line with its control characters made visible. */
function shown(text: string): string {
  return visible(text, { oneLine: true });
}

function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 120) return `${s}s`;
  if (s < 7200) return `${Math.round(s / 60)}m`;
  if (s < 172800) return `${Math.round(s / 3600)}h`;
  return `${Math.round(s / 86400)}d`;
}
