/**
 * Opens a URL in the user's browser, best effort: `$JN_BROWSER` (a command,
 * split on spaces, the URL appended) when set, otherwise `open` on macOS and
 * `xdg-open` elsewhere. Never a shell; never fails: the caller has already
 * printed the URL for the user to open by hand.
 *
 * Guarantees: only a URL that passes jn's one check of URLs to open
 * (lib/output/web_url.ts: plain http(s), no user name or password, no
 * control characters, bounded) reaches the browser, as the browser reads it;
 * anything else (`file:`, `smb:`, `ssh:`, `javascript:` …) starts nothing.
 *
 * @module
 */

import { webUrl } from "../output/web_url.ts";

/** Starts the browser on `url`; returns whether a program could be started. */
export function openBrowser(url: string, env: Record<string, string>): boolean {
  const checked = webUrl(url).url;
  if (checked === undefined) return false;
  const configured = (env.JN_BROWSER ?? "").trim();
  const argv = configured
    ? [...configured.split(/\s+/), checked]
    : [Deno.build.os === "darwin" ? "open" : "xdg-open", checked];
  try {
    const child = new Deno.Command(argv[0], {
      args: argv.slice(1),
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    // Reap it in the background; jn never waits for a browser.
    child.status.catch(() => {});
    child.unref();
    return true;
  } catch {
    return false;
  }
}
