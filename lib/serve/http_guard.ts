/**
 * Who may talk to `serve --http`: the checks every request passes before
 * the proxy reads its body.
 *
 * - `Host` (DNS-rebinding protection): a loopback name, the bound address,
 *   a name the user allowed, or — when bound to every interface — any IP
 *   literal (a rebinding attack needs a DNS name in `Host`, which an IP
 *   literal cannot be).
 * - `Origin`, when present (browsers send it): a loopback host or one the
 *   user allowed; a malformed or opaque (`null`) origin is refused.
 * - `Authorization: Bearer TOKEN`, when a token is set (it must be for any
 *   non-loopback address): compared in constant time (SHA-256 of both
 *   sides, then every byte), so the time of a refusal says nothing about
 *   the token.
 *
 * Guarantees: a refusal is 403 (Host, Origin) or 401 with
 * `WWW-Authenticate: Bearer` (token), with a fixed body that repeats
 * nothing the request sent.
 *
 * @module
 */

import { validateHostHeader, validateOriginHeader } from "@modelcontextprotocol/server";

const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "[::1]"];

/** Whether an address to bind is loopback. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "");
  return bare === "localhost" || bare === "::1" || /^127\.\d+\.\d+\.\d+$/.test(bare);
}

/** Whether binding `host` means every interface. */
function isWildcard(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "");
  return bare === "0.0.0.0" || bare === "::";
}

function isIpLiteral(hostname: string): boolean {
  return /^\d+\.\d+\.\d+\.\d+$/.test(hostname) || /^\[[0-9a-f:.]+\]$/i.test(hostname);
}

/** Options of {@linkcode requestGuard}. */
export interface GuardOptions {
  /** The bound address. */
  host: string;
  /** The bearer token, if one is required. */
  token?: string;
  allowedHosts?: string[];
  allowedOrigins?: string[];
}

/** A check of each request: undefined to let it through, or the refusal. */
export async function requestGuard(
  options: GuardOptions,
): Promise<(request: Request) => Promise<Response | undefined>> {
  const bound = options.host.includes(":") && !options.host.startsWith("[")
    ? `[${options.host}]`
    : options.host;
  const hosts = [...LOOPBACK_NAMES, bound, ...(options.allowedHosts ?? [])];
  const origins = [...LOOPBACK_NAMES, ...(options.allowedOrigins ?? [])];
  const wildcard = isWildcard(options.host);
  const expected = options.token === undefined ? undefined : await digest(options.token);
  return async (request) => {
    const host = validateHostHeader(request.headers.get("host"), hosts);
    if (!host.ok && !(wildcard && host.hostname !== undefined && isIpLiteral(host.hostname))) {
      return refusal(403, "Forbidden: this Host is not served (DNS rebinding protection)");
    }
    if (!validateOriginHeader(request.headers.get("origin"), origins).ok) {
      return refusal(403, "Forbidden: this Origin is not allowed");
    }
    if (expected !== undefined) {
      const given = /^Bearer\s+(.+)$/i.exec(request.headers.get("authorization") ?? "")?.[1] ?? "";
      if (!equal(await digest(given.trim()), expected)) {
        return refusal(401, "Unauthorized: a valid bearer token is required", {
          "WWW-Authenticate": 'Bearer realm="jn serve"',
        });
      }
    }
    return undefined;
  };
}

async function digest(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

/** Byte-wise comparison that looks at every byte whatever it finds. */
function equal(a: Uint8Array, b: Uint8Array): boolean {
  let difference = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) difference |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return difference === 0;
}

/** A JSON-RPC error body with a fixed message. */
export function refusal(status: number, message: string, headers: Record<string, string> = {}) {
  return Response.json(
    { jsonrpc: "2.0", error: { code: -32000, message }, id: null },
    { status, headers },
  );
}
