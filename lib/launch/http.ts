/**
 * The http and https launchers: `mcp+http(s)://HOST[:PORT]/PATH` → a
 * Streamable HTTP connection to `http(s)://HOST[:PORT]/PATH` (the session
 * falls back to SSE). LOCATION is kept verbatim, escapes included (checked,
 * not decoded), because it becomes part of a URL that keeps its own
 * escaping; user info is refused (credentials belong in a profile's headers).
 * Nothing is started, so nothing is installed, isolated or sandboxed.
 *
 * @module
 */

import type { LauncherDescriptor, LocationContext } from "./descriptor.ts";

/** `mcp+http://`, `mcp+https://`: a remote server. */
export const http: LauncherDescriptor = {
  schemes: ["http", "https"],
  usage: "mcp+https://HOST[:PORT]/PATH",
  help: "a remote server over HTTP (mcp+http:// too)",
  completions: ["mcp+https://", "mcp+http://"],
  location: checkUrl,
  short: (target) => target.location.split("/")[0],
  build(target) {
    const url = `${target.launcher}://${target.location}`;
    return { transport: "http", url, headers: {}, label: url };
  },
  programs: [],
};

/** `host[:port][/path]`, kept verbatim. */
function checkUrl(raw: string, ctx: LocationContext): string {
  ctx.decode(raw, ctx.start); // only to reject malformed escapes
  const slash = raw.indexOf("/");
  const authority = slash === -1 ? raw : raw.slice(0, slash);
  if (authority === "") ctx.fail(ctx.start, "host is empty");
  const at = authority.indexOf("@");
  if (at !== -1) {
    ctx.fail(
      ctx.start + at,
      "user info is not supported in a naked URI",
      "put credentials in a profile's headers (with ${VAR})",
    );
  }
  const bracket = authority.lastIndexOf("]");
  const colon = authority.indexOf(":", bracket + 1);
  if (colon === 0) ctx.fail(ctx.start, "host is empty");
  if (colon !== -1) {
    const port = authority.slice(colon + 1);
    if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535) {
      ctx.fail(ctx.start + colon + 1, `port "${port}" is not a number from 1 to 65535`);
    }
  }
  try {
    new URL(`${ctx.scheme}://${raw}`);
  } catch {
    ctx.fail(ctx.start, `"${ctx.scheme}://${raw}" is not a valid URL`);
  }
  return raw;
}
