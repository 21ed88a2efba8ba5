/**
 * The error path of URL elicitation: a request refused with JSON-RPC error
 * `-32042` (URL elicitation required) carries the URLs the user must open
 * (`data.elicitations`, each `{mode: "url", url, message, elicitationId}`)
 * before the server can go on. jn shows each one through the caller's
 * elicitation handler — the same path as an `elicitation/create` request
 * in URL mode, so the CLI prints it the same way and, on a terminal, asks
 * whether the user is done — and, when every one was accepted, the caller
 * retries the request once. Otherwise the error says which URL(s) to open.
 *
 * Guarantees: the URLs are in the error's message too (so `--quiet` still
 * shows them; the CLI makes server text visible before printing it); jn
 * never opens a server's URL itself; at most one retry, so a server that
 * keeps asking cannot loop. Only plain http(s) URLs are kept, as the browser
 * reads them (lib/output/web_url.ts, the check of every URL jn shows or
 * opens: not a `javascript:` or `file:` URL, no user name or password that
 * can disguise the host, no control characters, not absurdly long); the
 * caller is told, in one line, how many were refused and why. More than MAX_URLS are not offered one by one, and the error names
 * the first MAX_URLS and counts the rest.
 *
 * @module
 */

import { ProtocolError } from "../errors.ts";
import { webUrl } from "../output/web_url.ts";
import type { ElicitationRequest, ElicitationResponse } from "../types.ts";

/** JSON-RPC error code: URL elicitation required. */
export const URL_ELICITATION_REQUIRED = -32042;

/** The most URLs offered or named; a server may send thousands. */
export const MAX_URLS = 5;

/** One line saying that URLs of a `-32042` error were refused, and why. */
export function refusedUrlsNotice(reasons: readonly string[]): string {
  const distinct = [...new Set(reasons)];
  const why = distinct.slice(0, 3).join("; ") + (distinct.length > 3 ? "; …" : "");
  const which = reasons.length === 1 ? "a URL" : `${reasons.length} URLs`;
  return `refused to show ${which} the server wants opened: ${why}`;
}

/** One URL the server asks the user to open. */
export interface RequiredUrl {
  url: string;
  message: string;
  elicitationId?: string;
}

/** What a `-32042` error asks: the URLs to show, and why the others were refused. */
export interface RequiredUrls {
  urls: RequiredUrl[];
  /** One reason per refused URL (lib/output/web_url.ts). */
  refused: string[];
}

/** The URLs of a `-32042` error, or undefined for any other error. */
export function requiredUrls(error: unknown): RequiredUrls | undefined {
  if (!(error instanceof ProtocolError) || error.code !== URL_ELICITATION_REQUIRED) {
    return undefined;
  }
  const list = (error.data as { elicitations?: unknown } | undefined)?.elicitations;
  const found: RequiredUrls = { urls: [], refused: [] };
  if (!Array.isArray(list)) return found;
  for (const item of list) {
    const given = (item as { url?: unknown } | null)?.url;
    const { url, refusal } = typeof given === "string"
      ? webUrl(given)
      : { refusal: "it is not a string" };
    if (url === undefined) {
      found.refused.push(refusal ?? "");
      continue;
    }
    const { message, elicitationId } = item as { message?: unknown; elicitationId?: unknown };
    found.urls.push({
      url,
      message: typeof message === "string" ? message : "",
      ...(typeof elicitationId === "string" ? { elicitationId } : {}),
    });
  }
  return found;
}

/**
 * Shows each URL through `elicit`; true when every one was accepted (retry
 * the request), false when one was declined or cancelled or there is no
 * handler.
 */
export async function offerUrls(
  urls: RequiredUrl[],
  elicit: ((request: ElicitationRequest) => Promise<ElicitationResponse>) | undefined,
): Promise<boolean> {
  if (!elicit || urls.length === 0 || urls.length > MAX_URLS) return false;
  for (const { url, message, elicitationId } of urls) {
    const answer = await elicit({ mode: "url", url, message, elicitationId, retry: true });
    if (answer.action !== "accept") return false;
  }
  return true;
}

/** The error to report when the URLs were not (all) opened: it names them. */
export function urlRequiredError(
  error: ProtocolError,
  { urls, refused }: RequiredUrls,
  what: string,
  server: string,
): ProtocolError {
  const list = urls.map((u) => u.url);
  const needs = list.length === 0 && refused.length > 0
    ? `needs you to open a URL jn will not show (${[...new Set(refused)].slice(0, 3).join("; ")})`
    : list.length === 0
    ? "needs you to complete a step in a browser"
    : list.length === 1
    ? `needs you to open ${list[0]}`
    : `needs you to open ${list.length} URLs: ${list.slice(0, MAX_URLS).join(" , ")}${
      list.length > MAX_URLS ? ` … and ${list.length - MAX_URLS} more` : ""
    }`;
  return new ProtocolError(`The server "${server}" ${needs} before ${what} can run`, {
    code: error.code,
    data: error.data,
    cause: error,
    hint: list.length === 0
      ? `the server said: ${error.message}`
      : list.length > MAX_URLS
      ? `jn offers at most ${MAX_URLS} URLs one by one: open them in a browser, finish ` +
        "there, then run the command again"
      : `open ${list.length === 1 ? "it" : "them"} in a browser, finish there, then run the ` +
        "command again",
  });
}
