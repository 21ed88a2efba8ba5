/**
 * Opens a URL in the user's browser, best effort: `$JN_BROWSER` (a command,
 * split on spaces, the URL appended) when set, otherwise `open` on macOS and
 * `xdg-open` elsewhere. Never a shell; never fails: the caller has already
 * printed the URL for the user to open by hand.
 *
 * @module
 */

/** Starts the browser on `url`; resolves to whether a program could be started. */
export function openBrowser(url: string, env: Record<string, string>): boolean {
  const configured = (env.JN_BROWSER ?? "").trim();
  const argv = configured
    ? [...configured.split(/\s+/), url]
    : [Deno.build.os === "darwin" ? "open" : "xdg-open", url];
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
