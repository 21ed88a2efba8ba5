/**
 * The user's sessions folders, hidden from every sandboxed server, always.
 * A session's socket takes a jn command of its source and runs it in the
 * session's process, outside any sandbox (docs/session.md); `connect()`
 * needs no more than a read-only view of the socket, so a grant that covers
 * the folder (`--sandbox-read ~`, `~/.local`, `/run/user/UID`) would let a
 * server out. Like the root-only secrets (root_secrets.ts), each folder is
 * hidden behind an empty one, even under an explicit grant that names it:
 * - Linux: a folder the plan would show is covered by an empty read-only
 *   tmpfs (bwrap.ts). One that does not exist yet is listed in the plan's
 *   `create`, and jn creates it (mode 0700, as a session does) before the
 *   server starts, so that a session started later, while the server runs,
 *   is hidden too (confine.ts).
 * - macOS: both folders, existing or not, are denied last (seatbelt.ts):
 *   reading, writing, and connecting to a socket in them.
 *
 * Which folders: `sessionDirCandidates` (lib/profile/paths.ts), both of
 * them, whichever this environment uses: a jn with another environment
 * (no runtime directory) keeps its sessions in the other one. Each is
 * hidden at its real path, as the plan binds everything.
 *
 * Pure: the host is seen through the {@linkcode HostView}.
 *
 * @module
 */

import { basename, dirname, join } from "node:path";
import { sessionDirCandidates } from "../profile/paths.ts";
import { type HostView, peek, peekReal, within } from "./host_view.ts";
import type { SandboxMask } from "./root_secrets.ts";

/** The sessions folders to hide, and those of them to create first (Linux). */
export interface SessionMasks {
  mask: SandboxMask[];
  create: string[];
}

/**
 * The masks of the sessions folders: on Linux those the plan shows, or
 * shows something inside of (`canSee`, the plan's `bound` paths; a missing
 * one is also in `create`); on macOS every one.
 */
export function sessionMasks(
  host: HostView,
  canSee: (path: string) => boolean,
  bound: readonly string[],
): SessionMasks {
  const found: SessionMasks = { mask: [], create: [] };
  for (const dir of sessionDirCandidates(host.env)) {
    const path = plannedReal(host, dir);
    if (host.os === "darwin") {
      found.mask.push({ path, kind: "dir" });
      continue;
    }
    const kind = peek(host, path);
    // Something else there (a socket): no session can use it, and nothing can be made there.
    if (kind === "other") continue;
    if (!canSee(path) && !bound.some((root) => within(root, path))) continue;
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
