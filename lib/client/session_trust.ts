/**
 * A project profile's trust, kept live for as long as its session runs: the
 * session serves the profile as it was trusted when it started, and stops
 * serving the moment that no longer holds — a file of the profile's
 * directory changed, was added or removed, or its trust was withdrawn.
 *
 * Guarantees: {@linkcode TrustWatch.check} is cheap while nothing changed
 * (one `lstat` per entry of the profile's directory and one of the trust
 * store, compared with the last look: `jn profile untrust` rewrites the
 * store, not the profile); when anything looks different, the profile is
 * read and checked again as a call checks it (resolve.ts: withdrawn trust
 * is refused, exit 3), and its directory's digest must still be the one the
 * session started with. A profile of another layer is the user's own and
 * needs no watch.
 *
 * @module
 */

import { ConfigError } from "../errors.ts";
import { joinPath } from "../profile/paths.ts";
import { trustFilePath } from "../profile/trust_store.ts";
import type { Profile } from "../profile/types.ts";
import { type ResolveOptions, resolveTarget } from "./resolve.ts";

/** Watches a project profile's trust. */
export class TrustWatch {
  #source: string;
  #profile: Profile;
  #options: ResolveOptions;
  #signature?: string;
  #checking?: Promise<void>;

  /** `profile` as the session resolved it from `source` when it started. */
  constructor(source: string, profile: Profile, options: ResolveOptions) {
    this.#source = source;
    this.#profile = profile;
    this.#options = options;
  }

  /** Whether the source needs a watch (a project profile). */
  static needed(profile: Profile | undefined): profile is Profile {
    return profile?.layer === "project";
  }

  /** Takes the first look (call when the session starts). */
  async start(): Promise<void> {
    this.#signature = await this.#look();
  }

  /** Throws a ConfigError unless the profile is as it was trusted when the session started. */
  check(): Promise<void> {
    this.#checking ??= this.#check().finally(() => this.#checking = undefined);
    return this.#checking;
  }

  async #check(): Promise<void> {
    const now = await this.#look().catch(() => "gone");
    if (now === this.#signature) return;
    const target = await resolveTarget(this.#source, this.#options);
    if (target.profile?.digest !== this.#profile.digest) {
      throw new ConfigError(
        `The profile @${this.#profile.name} changed since its session started`,
        {
          path: this.#profile.dir,
          hint: `its session ended: start it again (jn session start @${this.#profile.name})`,
        },
      );
    }
    this.#signature = now;
  }

  /** The trust store's and the profile directory's signatures. */
  async #look(): Promise<string> {
    const store = await Deno.lstat(trustFilePath(this.#options.env)).then(
      (info) => `${info.size}:${info.mtime?.getTime() ?? 0}:${info.ino ?? 0}`,
      () => "none",
    );
    return `${store}\n${await signature(this.#profile.realDir)}`;
  }
}

/** What `lstat` says of every entry under `dir` (names, kinds, sizes, times, inodes). */
async function signature(dir: string, depth = 0): Promise<string> {
  if (depth > 8) return "deep";
  const parts: string[] = [];
  const entries: Deno.DirEntry[] = [];
  for await (const entry of Deno.readDir(dir)) entries.push(entry);
  entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  for (const entry of entries) {
    const path = joinPath(dir, entry.name);
    const info = await Deno.lstat(path);
    parts.push(
      `${entry.name}:${info.isDirectory ? "d" : info.isSymlink ? "l" : "f"}:${info.size}:${
        info.mtime?.getTime() ?? 0
      }:${info.ino ?? 0}`,
    );
    if (info.isDirectory) parts.push(`[${await signature(path, depth + 1)}]`);
  }
  return parts.join("\n");
}
