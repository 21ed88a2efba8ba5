/**
 * Checks the LOCATION of a naked URI for its launcher and returns it in the
 * form `NakedSource.location` documents. LOCATION is never parsed as a URL
 * authority: `@scope/pkg@1` is a package, not user-info. Every rejection
 * points at the offending offset. Pure, no I/O.
 *
 * @module
 */

import type { Launcher } from "./source.ts";
import { type Fail, percentDecode } from "./percent.ts";

/** Where LOCATION sits in the input, and how to report an error in it. */
export interface LocationContext {
  /** Offset of LOCATION's first character in the input. */
  start: number;
  fail: Fail;
}

/**
 * Returns LOCATION percent-decoded for package and script launchers, and
 * verbatim (escapes checked, not decoded) for http(s), whose LOCATION becomes
 * part of a URL that keeps its own escaping.
 */
export function checkLocation(launcher: Launcher, raw: string, ctx: LocationContext): string {
  switch (launcher) {
    case "uvx":
      return checkUvx(raw, ctx);
    case "npx":
      return checkNpx(raw, ctx);
    case "python":
    case "node":
    case "deno":
      return checkPath(raw, ctx);
    case "http":
    case "https":
      return checkHttp(launcher, raw, ctx);
    default: {
      const never: never = launcher;
      throw new Error(`Unhandled launcher ${never}`);
    }
  }
}

/** `PACKAGE` or `PACKAGE/COMMAND`; a PyPI name never contains `/`. */
function checkUvx(raw: string, ctx: LocationContext): string {
  const slash = raw.indexOf("/");
  const pkgRaw = slash === -1 ? raw : raw.slice(0, slash);
  const pkg = decodeWord(pkgRaw, ctx.start, ctx, "package name");
  if (slash === -1) return pkg;
  const cmdStart = ctx.start + slash + 1;
  const cmdRaw = raw.slice(slash + 1);
  const extra = cmdRaw.indexOf("/");
  if (extra !== -1) {
    ctx.fail(
      cmdStart + extra,
      `uvx takes PACKAGE or PACKAGE/COMMAND, not a second "/"`,
      "pass server arguments with ?command=ARG",
    );
  }
  const cmd = decodeWord(cmdRaw, cmdStart, ctx, "command name");
  return `${pkg}/${cmd}`;
}

/** An npm package spec: `pkg`, `pkg@1.2.3`, `@scope/pkg@latest`, … */
function checkNpx(raw: string, ctx: LocationContext): string {
  const pkg = decodeWord(raw, ctx.start, ctx, "package name");
  if (raw.startsWith("@")) {
    const slash = raw.indexOf("/");
    if (slash === 1) ctx.fail(ctx.start + 1, "npm scope is empty");
    if (slash === -1) {
      ctx.fail(
        ctx.start + raw.length,
        `scoped package "${pkg}" has no name`,
        `write it as @scope/name, e.g. mcp+npx://@upstash/context7-mcp`,
      );
    }
    if (slash === raw.length - 1 || raw[slash + 1] === "@") {
      ctx.fail(ctx.start + slash + 1, "package name is empty after the scope");
    }
  }
  return pkg;
}

/** A script path, relative (`./x.py`, `../x.py`, `x.py`) or absolute (`/abs/x.py`). */
function checkPath(raw: string, ctx: LocationContext): string {
  const path = decodeWord(raw, ctx.start, ctx, "script path");
  if (path.startsWith("~")) {
    ctx.fail(
      ctx.start,
      `script path "${path}" starts with "~", which is not expanded (there is no shell)`,
      "write an absolute path (mcp+python:///home/me/server.py) or a relative one",
    );
  }
  return path;
}

/** `host[:port][/path]`, kept verbatim. */
function checkHttp(launcher: Launcher, raw: string, ctx: LocationContext): string {
  percentDecode(raw, ctx); // only to reject malformed escapes
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
    new URL(`${launcher}://${raw}`);
  } catch {
    ctx.fail(ctx.start, `"${launcher}://${raw}" is not a valid URL`);
  }
  return raw;
}

/**
 * Decodes a word that becomes one argv element of a launcher: it must be
 * non-empty, must not look like an option, and must not contain NUL.
 */
function decodeWord(raw: string, start: number, ctx: LocationContext, what: string): string {
  const word = percentDecode(raw, { start, fail: ctx.fail });
  if (word === "") ctx.fail(start, `${what} is empty`);
  if (word.startsWith("-")) {
    ctx.fail(
      start,
      `${what} "${word}" starts with "-" and would be read as an option`,
      what === "script path" ? `write ./${word} for a file of that name` : undefined,
    );
  }
  if (word.includes("\0")) ctx.fail(start, `${what} contains a NUL character`);
  return word;
}
