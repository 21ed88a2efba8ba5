/**
 * Every place the user's sessions may be, hidden from every sandboxed
 * server, always. A session's socket takes a jn command of its source and
 * runs it in the session's process, outside any sandbox (docs/session.md);
 * `connect()` needs no more than a read-only view of the socket, so a grant
 * that covers a sessions folder (`--sandbox-read ~`, `~/.local`,
 * `/run/user/UID`, `/run`, `/`) would let a server out. Like the root-only
 * secrets (root_secrets.ts), each folder is hidden behind an empty one,
 * even under an explicit grant that names it:
 * - Linux: a folder the plan would show is covered by an empty read-only
 *   tmpfs (bwrap.ts). One that does not exist yet, in a runtime directory
 *   or home that does, is listed in the plan's `create`, and jn creates it
 *   (mode 0700, as a session does) before the server starts, so that a
 *   session started later, while the server runs, is hidden too
 *   (confine.ts). Where the runtime directory or home itself is absent, no
 *   session can be there.
 * - macOS: every folder, existing or not, is denied last (seatbelt.ts):
 *   reading, writing, and connecting to a socket in them.
 *
 * Which folders: `everySessionPlace` (lib/profile/paths.ts) — not only
 * where a jn of this environment keeps them, but where a jn of the same
 * user with another environment does: `$XDG_RUNTIME_DIR/jn` and
 * `~/.local/jn/sessions` of `$HOME`, `/run/user/UID/jn` (Linux) and
 * `~/.local/jn/sessions` of the home `/etc/passwd` gives. The user is told
 * by the {@linkcode HostView}'s `user` (lib/profile/own_user.ts), never by
 * the environment, which whoever starts jn (cron, an MCP host) chooses. When
 * the uid cannot be told and the plan would show something in `/run/user`,
 * the launch is refused (SandboxError) rather than left unmasked. Each
 * folder is hidden at its real path, as the plan binds everything.
 *
 * Pure: the host is seen through the {@linkcode HostView}.
 *
 * @module
 */

import { basename, dirname, join } from "node:path";
import { SandboxError } from "../errors.ts";
import { everySessionPlace } from "../profile/paths.ts";
import { type HostView, peek, peekReal, within } from "./host_view.ts";
import type { SandboxMask } from "./root_secrets.ts";

/** The sessions folders to hide, and those of them to create first (Linux). */
export interface SessionMasks {
  mask: SandboxMask[];
  create: string[];
}

/** Where Linux gives each user a runtime directory (`/run/user/UID`). */
const RUN_USER = "/run/user";

/**
 * The masks of the sessions folders: on Linux those the plan shows, or
 * shows something inside of (`canSee`, the plan's `bound` paths; a missing
 * one whose runtime directory or home exists is also in `create`); on
 * macOS every one. Throws a SandboxError naming `label` when a folder the
 * plan may show cannot be told (see the module doc).
 */
export function sessionMasks(
  host: HostView,
  canSee: (path: string) => boolean,
  bound: readonly string[],
  label: string,
): SessionMasks {
  const found: SessionMasks = { mask: [], create: [] };
  const linux = host.os !== "darwin";
  const shown = (path: string) => canSee(path) || bound.some((root) => within(root, path));
  const user = host.user ?? {};
  if (linux && user.uid === undefined && shown(RUN_USER)) {
    throw new SandboxError(
      `Cannot sandbox "${label}": jn cannot tell which user runs it, so cannot hide ` +
        `${RUN_USER}/UID/jn (your sessions) from the server`,
      { hint: `let jn read /proc/self, or grant less than ${RUN_USER}` },
    );
  }
  for (const place of everySessionPlace(host.env, user, host.os)) {
    const path = plannedReal(host, place.dir);
    if (found.mask.some((mask) => mask.path === path)) continue;
    if (!linux) {
      found.mask.push({ path, kind: "dir" });
      continue;
    }
    const kind = peek(host, path);
    // Something else there (a socket): no session can use it, and nothing can be made there.
    if (kind === "other") continue;
    if (!shown(path)) continue;
    // No runtime directory (not logged in) or no home: no session can be there.
    if (kind === undefined && peek(host, place.root) !== "dir") continue;
    found.mask.push({ path, kind: kind ?? "dir" });
    if (kind === undefined) found.create.push(path);
  }
  return found;
}

/** The real path of `path`, or of its nearest existing parent with the rest joined on. */
function plannedReal(host: HostView, path: string): string {
  const rest: string[] = [];
  for (let at = path;; at = dirname(at)) {
    const real = peekReal(host, at);
    if (real !== undefined) return join(real, ...rest);
    if (dirname(at) === at) return path;
    rest.unshift(basename(at));
  }
}
