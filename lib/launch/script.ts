/**
 * The LOCATION rule the script launchers share (python, node, deno): a
 * script path, relative (`./x.py`, `../x.py`, `x.py`) or absolute
 * (`/abs/x.py`), percent-decoded. `~` is refused (there is no shell to expand
 * it), and a path starting with `-` would be read as an option. The launchers
 * make it absolute against the caller's cwd, so the argv means the same from
 * any directory.
 *
 * @module
 */

import type { LocationContext } from "./descriptor.ts";

/** A script path (see the module doc). */
export function checkScriptPath(raw: string, ctx: LocationContext): string {
  const path = ctx.word(raw, "script path", {
    dashHint: (word) => `write ./${word} for a file of that name`,
  });
  if (path.startsWith("~")) {
    ctx.fail(
      ctx.start,
      `script path "${path}" starts with "~", which is not expanded (there is no shell)`,
      "write an absolute path (mcp+python:///home/me/server.py) or a relative one",
    );
  }
  return path;
}
