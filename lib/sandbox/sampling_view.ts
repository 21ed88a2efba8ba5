/**
 * What a profile's `sampling_command` sees when its server is sandboxed and
 * may write somewhere of yours. The command is the profile's, which you
 * trusted; what it loads is more than its line: `node ask.mjs` resolves a
 * bare import up the directory tree (`<repo>/node_modules`), npm reads the
 * nearest `.npmrc`, git a repository's `.git/config`, an agent CLI a
 * project's settings and hooks. A server that may write the repository
 * (`"write": ["."]`) would plant code there for the command to run as you.
 *
 * Guarantees of the argv built here (bubblewrap, Linux): the command sees
 * your machine as it is — your files, the network, its credentials, where
 * it keeps its state — except every path the server may write (the plan's
 * `write`: the declared paths and jn's caches for that server), each hidden
 * behind an empty tmpfs, with the profile's own directories inside them
 * (`protect`: read-only to the server, so still what trust covered) bound
 * back read-only. So nothing the server wrote is there to load. It starts
 * in the profile's directory, in a pid namespace of its own (its whole tree
 * ends with it), and dies with jn.
 *
 * Pure: builds an argv, runs nothing.
 *
 * @module
 */

import { outermost, within } from "./host_view.ts";
import type { PathKind } from "./host.ts";

/**
 * Where a confined server may write (real paths): a sandbox plan's `write`,
 * or a Deno server's `--allow-write` list; `protect`: directories inside
 * them it may not write (the profile's own).
 */
export interface ServerWrites {
  write: readonly string[];
  protect?: readonly string[];
}

/** One step of a sampling command's view, in the order bwrap takes them (outer paths first). */
export interface SamplingMount {
  path: string;
  /** `hide`: a directory behind an empty tmpfs; `blank`: a file behind `/dev/null`; `keep`: bound back read-only. */
  kind: "hide" | "blank" | "keep";
}

/** What a sampling command is kept from: the paths its server may write. */
export interface SamplingView {
  /** The paths hidden (real paths), for the notice. */
  hidden: string[];
  mounts: SamplingMount[];
}

/**
 * The view of a sampling command beside a server that writes `plan`; none
 * when the server writes nothing of yours. `stat` tells a directory from a
 * file; a path that is not there has nothing to load. A writable path
 * inside a kept directory (the profile's own `out`, say) is hidden again.
 */
export function samplingView(
  plan: ServerWrites | undefined,
  stat: (path: string) => PathKind | undefined,
): SamplingView | undefined {
  const writable = [...new Set(plan?.write ?? [])]
    .map((path) => ({ path, kind: stat(path) }))
    .filter((entry) => entry.kind !== undefined);
  if (writable.length === 0) return undefined;
  const dirs = writable.filter((entry) => entry.kind === "dir").map((entry) => entry.path);
  const kept = (plan?.protect ?? []).filter((dir) =>
    dirs.some((path) => path !== dir && within(dir, path))
  );
  // Hidden already: inside a hidden directory and no kept directory between them.
  const covered = (path: string) =>
    dirs.some((outer) =>
      outer !== path && within(path, outer) &&
      !kept.some((keep) => within(keep, outer) && within(path, keep))
    );
  const mounts: SamplingMount[] = [
    ...outermost(kept).map((path) => ({ path, kind: "keep" as const })),
    ...writable.filter((entry) => !covered(entry.path)).map((entry) => ({
      path: entry.path,
      kind: entry.kind === "dir" ? "hide" as const : "blank" as const,
    })),
  ];
  // Outer paths first; at one path, hiding wins (it comes after keeping).
  mounts.sort((a, b) => depth(a.path) - depth(b.path) || order(a) - order(b));
  return { hidden: mounts.filter((m) => m.kind !== "keep").map((m) => m.path), mounts };
}

/** Whether a sampling command in `view` would start in `dir` hidden: it sees nothing there. */
export function hiddenFrom(view: SamplingView, dir: string): boolean {
  let hidden = false;
  for (const mount of view.mounts) {
    if (within(dir, mount.path)) hidden = mount.kind !== "keep";
  }
  return hidden;
}

/**
 * bwrap's options that run a command in `view` from `dir`, up to and with
 * the `--` before the command.
 *
 * @example
 * ```ts
 * samplingBwrapArgs({ hidden: ["/repo"], mounts: [
 *   { path: "/repo", kind: "hide" }, { path: "/repo/.jn/profiles/mcp/p", kind: "keep" },
 * ] }, "/repo/.jn/profiles/mcp/p");
 * // ["--die-with-parent", "--unshare-pid", "--bind", "/", "/", "--dev-bind", "/dev", "/dev",
 * //  "--proc", "/proc", "--tmpfs", "/repo", "--ro-bind", "/repo/.jn/profiles/mcp/p", …, "--"]
 * ```
 */
export function samplingBwrapArgs(view: SamplingView, dir: string): string[] {
  const args = [
    "--die-with-parent",
    "--unshare-pid",
    "--bind",
    "/",
    "/",
    "--dev-bind",
    "/dev",
    "/dev",
    "--proc",
    "/proc",
  ];
  for (const { path, kind } of view.mounts) {
    if (kind === "hide") args.push("--tmpfs", path);
    else if (kind === "blank") args.push("--ro-bind", "/dev/null", path);
    else args.push("--ro-bind", path, path);
  }
  args.push("--chdir", dir, "--");
  return args;
}

function depth(path: string): number {
  return path.split("/").filter(Boolean).length;
}

function order(mount: SamplingMount): number {
  return mount.kind === "keep" ? 0 : 1;
}
