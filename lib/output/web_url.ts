/**
 * The one check of a URL that came from a server or an authorization server
 * before jn shows it for the user to open, or opens it: a URL elicitation's,
 * a `-32042` error's, an OAuth sign-in's, and every URL of theirs that a
 * message quotes.
 *
 * Guarantees: only a plain `http:` or `https:` URL passes — not
 * `javascript:`, `data:`, `file:`, `smb:`, `ssh:` or any other scheme; no
 * user name or password (`https://bank.example@evil.example` disguises the
 * real host); no control character, tab or line break (a real URL has them
 * percent-encoded; raw ones can rewrite what the terminal shows); at most
 * {@linkcode MAX_URL_LENGTH} characters. A URL that passes is shown and
 * opened as the browser reads it whenever the text could read otherwise: a
 * non-ASCII host (an IDN look-alike such as `аpple.com` in Cyrillic) is shown
 * in its `xn--` form, a backslash as the slash the browser takes it for, a
 * percent-encoded host decoded; other ASCII text is shown as the server wrote
 * it. A refusal's reason holds
 * no server text but the scheme, made visible and cut short. Pure: no I/O.
 *
 * @module
 */

import { visible } from "./visible.ts";

/** The longest URL shown to a user (sign-in URLs with PKCE and scopes stay far below). */
export const MAX_URL_LENGTH = 4096;

/** What jn may show or open of a server's URL: the URL to use, or why not. */
export type WebUrl = { url: string; refusal?: undefined } | { url?: undefined; refusal: string };

/**
 * `text` checked as a URL for the user to open (see the module doc).
 *
 * @example
 * ```ts
 * webUrl("https://example.com/consent"); // { url: "https://example.com/consent" }
 * webUrl("https://аpple.com/"); // { url: "https://xn--pple-43d.com/" }
 * webUrl("smb://host/share"); // { refusal: 'its scheme is "smb", not http(s)' }
 * ```
 */
export function webUrl(text: string): WebUrl {
  if (text.length > MAX_URL_LENGTH) {
    return { refusal: `it is longer than ${MAX_URL_LENGTH} characters` };
  }
  if (text.includes("\t") || visible(text, { oneLine: true }) !== text) {
    return { refusal: "it contains control characters" };
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { refusal: "it is not a valid URL" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    const scheme = visible(url.protocol.slice(0, -1).slice(0, 32), { oneLine: true });
    return { refusal: `its scheme is "${scheme}", not http(s)` };
  }
  if (url.username !== "" || url.password !== "") {
    return { refusal: "it carries a user name or password, which can disguise the real host" };
  }
  // Text that could read as another address than the browser's: shown as the browser reads it.
  const plain = /^[\x21-\x7e]*$/.test(text) && !text.includes("\\") &&
    text.toLowerCase().startsWith(`${url.protocol}//${url.host}`);
  return { url: plain ? text : url.href };
}

/**
 * Why jn will not show `text` as a URL for the user to open, or undefined
 * when {@linkcode webUrl} lets it pass.
 */
export function urlRefusal(text: string): string | undefined {
  return webUrl(text).refusal;
}

/**
 * A server's URL as a message may quote it: the URL ({@linkcode webUrl}), or
 * a note saying why it is not shown.
 *
 * @example
 * ```ts
 * shownUrl("http://accounts.example@127.0.0.1/"); // "(a URL jn does not show: it carries …)"
 * ```
 */
export function shownUrl(text: string): string {
  const checked = webUrl(text);
  return checked.url ?? `(a URL jn does not show: ${checked.refusal})`;
}
