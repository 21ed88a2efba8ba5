/**
 * Creating a profile, as a verb: from the seed's one-document JSON
 * ({@linkcode profileFromDocument}) or discovered from a live server
 * (`discoverProfile`, lib/client/profile.ts, from a source
 * {@linkcode discoverySource} accepts), written to the user layer
 * (`~/.local/jn/profiles/mcp/NAME/`) or the project layer
 * (`.jn/profiles/mcp/NAME/`) by {@linkcode createProfile}.
 *
 * Guarantees: a document is checked whole before anything is written, and
 * every problem is reported at once, each at its JSON path (ConfigError,
 * exit 3, `problems`); a directory is written whole or not at all, never
 * through a symlink of the project, and never over an existing profile
 * unless `force`; a project profile the user creates is trusted as written
 * (the user wrote it).
 *
 * @module
 */

import { join } from "node:path";
import { ConfigError } from "../errors.ts";
import { layerRoot } from "../profile/layers.ts";
import { parseJsonc } from "../profile/load.ts";
import { splitSeedProfile } from "../profile/edit/seed_format.ts";
import { type ProfileFiles, writeProfileDir } from "../profile/edit/write.ts";
import { profileName } from "./profile_name.ts";

export type { ProfileFiles } from "../profile/edit/write.ts";
export { profileName } from "./profile_name.ts";

/** Where a verb that reads or writes profiles looks: the caller's directory and environment. */
export interface ProfilePlace {
  /** The caller's directory (the project layer is `.jn/profiles/mcp/` in it). */
  cwd: string;
  /** The caller's environment (`HOME`, `JN_HOME`, the trust store). */
  env: Record<string, string>;
}

/** Options of {@linkcode createProfile}. */
export interface CreateProfileOptions extends ProfilePlace {
  /** Write to the project layer (and trust it) instead of the user's. */
  project?: boolean;
  /** Replace an existing profile of that name in that layer. */
  force?: boolean;
}

/** What {@linkcode createProfile} wrote. */
export interface CreatedProfile {
  /** The profile's name (without `@`). */
  name: string;
  /** Its directory. */
  dir: string;
  /** The files written, `_meta.json` first. */
  files: string[];
  /** Whether it was trusted (a project profile). */
  trusted: boolean;
}

/**
 * The profile files of a seed-format document (JSONC text from `source`,
 * e.g. `<stdin>`): every problem at once, each at its JSON path.
 *
 * @example
 * ```ts
 * import { ConfigError } from "@jn/jn";
 * import { profileFromDocument } from "@jn/jn/profile";
 *
 * const files = profileFromDocument('{"command": "uvx", "args": ["mcp-server-time"]}');
 * console.log(files.meta.command); // "uvx"
 * try {
 *   profileFromDocument('{"args": [1]}');
 * } catch (error) {
 *   console.log((error as ConfigError).problems);
 *   // ['$.args[0]: must be a string, got 1',
 *   //  '$: needs "command" (a local server) or "url" (a remote one)']
 * }
 * ```
 */
export function profileFromDocument(text: string, source = "<stdin>"): ProfileFiles {
  return splitSeedProfile(parseJsonc(text, source).value, { source });
}

/**
 * Writes profile `name` (see the module doc); a project profile is trusted
 * as written.
 */
export async function createProfile(
  name: string,
  files: ProfileFiles,
  options: CreateProfileOptions,
): Promise<CreatedProfile> {
  const server = profileName(name);
  const layer = options.project ? "project" : "user";
  const root = layerRoot(layer, options);
  if (root === undefined) {
    throw new ConfigError("Cannot find your user profile directory: HOME is not set", {
      hint: "set HOME, or write a project profile with --project",
    });
  }
  const dir = join(root, server);
  const written = await writeProfileDir(dir, files, {
    force: options.force,
    label: `@${server}`,
    project: options.project ? options.cwd : undefined,
  });
  if (options.project) {
    const [{ loadProfile }, { recordTrust }] = await Promise.all([
      import("../profile/resolve.ts"),
      import("../profile/trust.ts"),
    ]);
    await recordTrust(await loadProfile(server, options), options.env);
  }
  return { name: server, dir, files: written, trusted: options.project === true };
}
