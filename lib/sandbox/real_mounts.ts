/**
 * The paths a sandbox plan gives a server, each taken by its real path
 * (real_paths.ts): bubblewrap follows a symlinked source, so what a path
 * looks like says nothing about what it binds.
 *
 * Guarantees:
 * - a declared path (`--sandbox-read/-write`, a profile's `sandbox`) that
 *   reaches a broad or credential directory through a symlink is a
 *   SandboxError naming where it leads (unless the user typed a path that
 *   is itself that broad, `--sandbox-read ~`); a declared path that is `/`,
 *   the home directory or one of its parents is a SandboxError unless typed
 *   on the command line;
 * - jn's own cache for the server, when it is a symlink to a broad or
 *   credential directory, is not given (`ownCache` answers `undefined`: the
 *   server gets an empty throw-away cache instead), with a notice;
 * - an implicit path is left out, with a notice, when its real path is a
 *   broad directory, when it reaches a credential store through a symlink,
 *   or when it lies in a launcher's package tree and leads out of it;
 * - every path given is its real path; where that differs from the path the
 *   runtime uses, `links` records the symlink to re-create in the sandbox.
 *
 * @module
 */

import { SandboxError } from "../errors.ts";
import { type HostView, outermost, peek, within } from "./host_view.ts";
import type { PathJudge } from "./real_paths.ts";

/** A symlink re-created in the sandbox: `path` (as the runtime uses it) points to `target`. */
export interface SandboxLink {
  /** Where the link is, in the sandbox (the path the runtime uses). */
  path: string;
  /** What it points to (a real path bound in the sandbox). */
  target: string;
}

/** Options of {@linkcode RealMounts}. */
export interface RealMountsOptions {
  /** The launch's label, for messages. */
  label: string;
  /** Declared paths the user typed on the command line (absolute). */
  explicit?: readonly string[];
  /** Launchers' package trees (real paths): nothing in one leads out of it. */
  trees?: readonly string[];
}

/** Collects the real paths a plan gives, the symlinks to re-create and the notices. */
export class RealMounts {
  /** Implicit paths admitted (real paths). */
  readonly implicit: string[] = [];
  /** What was left out, and why. */
  readonly notices: string[] = [];
  readonly #links: SandboxLink[] = [];
  readonly #explicit: Set<string>;

  constructor(
    private readonly host: HostView,
    private readonly judge: PathJudge,
    private readonly options: RealMountsOptions,
  ) {
    this.#explicit = new Set(options.explicit ?? []);
  }

  /** A declared path's real path; throws a SandboxError (see the module doc). */
  declare(path: string, flag: string): string {
    const { judge, options } = this;
    if (!this.host.stat(path)) {
      throw new SandboxError(
        `Cannot sandbox "${options.label}": the path "${path}" does not exist`,
        {
          hint: "create it first, or remove it from the sandbox's read/write list",
        },
      );
    }
    const real = judge.real(path) ?? path;
    const typed = this.#explicit.has(path);
    if (judge.viaLink(path, real) && judge.sensitive(real) && !(typed && judge.sensitive(path))) {
      throw new SandboxError(
        `Cannot sandbox "${options.label}": the path "${path}" is a symlink to "${real}"`,
        {
          hint: "jn does not follow a symlink to a broad or credential directory: " +
            `if you mean it, give ${flag} ${real}`,
        },
      );
    }
    if (!typed && judge.homeOrAbove(real)) {
      throw new SandboxError(
        `Cannot sandbox "${options.label}": its profile gives the server "${path}", ` +
          `which is ${real === "/" ? "/" : "your home directory or a parent of it"}`,
        { hint: `jn gives that only when you ask on the command line: ${flag} ${path}` },
      );
    }
    this.#link(path, real);
    return real;
  }

  /** jn's own cache for the server by its real path (it may not exist yet), or `undefined`. */
  ownCache(dir: string): string | undefined {
    const { judge } = this;
    const real = judge.real(dir);
    if (real && judge.viaLink(dir, real) && (judge.sensitive(real) || judge.broad(real))) {
      this.notices.push(
        `jn's cache for this server, ${dir}, is a symlink to ${real}: ` +
          "the server gets an empty cache that vanishes with it",
      );
      return undefined;
    }
    if (real) this.#link(dir, real);
    return real ?? dir;
  }

  /** Admits an implicit path as the runtime uses it, unless it leads somewhere jn never gives. */
  admit(path: string): void {
    const { judge } = this;
    const real = judge.real(path);
    if (!real) return;
    const tree = (this.options.trees ?? []).find((root) => within(path, root));
    if (tree && !within(real, tree)) {
      this.notices.push(`jn leaves out ${path}: it leads out of the package's install (${tree})`);
      return;
    }
    const linked = judge.viaLink(path, real);
    // A file alone is never broad; a directory may be, and a symlink may lead anywhere.
    const broad = peek(this.host, real) === "dir" && judge.broad(real);
    if (broad || (linked && judge.sensitive(real))) {
      this.notices.push(
        linked
          ? `jn leaves out ${path}: it is a symlink to ${real}, which jn never gives on its own`
          : `jn leaves out ${path}: jn never gives a directory this broad on its own`,
      );
      return;
    }
    this.implicit.push(real);
    this.#link(path, real);
  }

  /** The symlinks to re-create, outermost first (one inside another is reached through it). */
  outerLinks(): SandboxLink[] {
    const paths = outermost(this.#links.map((link) => link.path));
    return paths.map((path) => this.#links.find((link) => link.path === path)!);
  }

  #link(path: string, real: string): void {
    if (real !== path && !this.#links.some((link) => link.path === path)) {
      this.#links.push({ path, target: real });
    }
  }
}
