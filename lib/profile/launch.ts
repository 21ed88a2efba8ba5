/**
 * A resolved profile's launch config turned into a `LaunchSpec`:
 *
 * - stdio (`command`, `args`, `env`, `cwd`): no shell; `env` is all the child
 *   gets besides the safe defaults; a relative `cwd` is relative to the
 *   profile's directory, through the real path its files were read (and
 *   trusted) from, so a profile behaves the same from anywhere and its
 *   relative `command`/`args` name files of that directory even if a symlink
 *   on the way is swapped after the check; without `cwd` the server runs in
 *   the caller's directory. `"command": "jn"` is this
 *   jn itself (see lib/launch/self.ts), whatever `jn` is on PATH.
 * - http / sse (`url`, `headers`): `transport` defaults to `http` when `url`
 *   is given (Streamable HTTP, falling back to SSE).
 *
 * @module
 */

import { isAbsolute, resolve } from "node:path";
import { ConfigError } from "../errors.ts";
import { SELF_COMMAND, selfCommand } from "./self_command.ts";
import type { LaunchSpec } from "../launch/spec.ts";
import type { Profile } from "./types.ts";

/** The launch spec of a profile. */
export function profileLaunch(profile: Profile): LaunchSpec {
  const meta = profile.meta;
  const label = `@${profile.name}`;
  const fail = (message: string, hint?: string): never => {
    throw new ConfigError(`Invalid profile ${profile.metaFile}: ${message}`, {
      path: profile.metaFile,
      hint,
    });
  };
  if (meta.command !== undefined && meta.url !== undefined) {
    fail(`give "command" (a local server) or "url" (a remote one), not both`);
  }
  const transport = meta.transport ?? (meta.url !== undefined ? "http" : "stdio");
  if (transport === "stdio") {
    if (meta.command === undefined) {
      fail(
        meta.url === undefined
          ? `it needs "command" (a local server) or "url" (a remote one)`
          : `"url" needs "transport": "http" or "sse", not "stdio"`,
      );
    }
    if (meta.headers !== undefined) fail(`"headers" are for http/sse servers, not stdio`);
    const self = meta.command === SELF_COMMAND ? selfCommand(meta.args ?? []) : undefined;
    return {
      transport: "stdio",
      command: self?.command ?? meta.command!,
      args: self?.args ?? [...(meta.args ?? [])],
      env: { ...meta.env },
      ...(self && self.envPassthrough.length > 0 ? { envPassthrough: self.envPassthrough } : {}),
      ...(meta.cwd === undefined ? {} : { cwd: profileCwd(profile, meta.cwd) }),
      label,
    };
  }
  if (meta.url === undefined) fail(`"transport": "${transport}" needs "url"`);
  for (const key of ["command", "args", "env", "cwd"] as const) {
    if (meta[key] !== undefined) fail(`"${key}" is for stdio servers, not ${transport}`);
  }
  if (!/^https?:\/\//i.test(meta.url!)) {
    fail(`"url" must start with http:// or https://`, 'e.g. "url": "https://example.com/mcp"');
  }
  return { transport, url: meta.url!, headers: { ...meta.headers }, label };
}

function profileCwd(profile: Profile, cwd: string): string {
  if (isAbsolute(cwd)) return cwd;
  if (profile.layer === "bundled") {
    throw new ConfigError(
      `Invalid profile ${profile.metaFile}: a bundled profile cannot use a relative "cwd"`,
      { path: profile.metaFile },
    );
  }
  // Through the real path that was read (and trusted): a symlink swapped
  // after the check cannot point the server at another directory.
  return resolve(profile.realDir, cwd);
}
