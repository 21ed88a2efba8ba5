/**
 * Trust for project profiles (SPEC §4). A project's `.jn/profiles/mcp/` comes
 * with a cloned repository, so nothing of it launches a server or shapes a
 * call until the user ran `jn profile trust @server`. Trust covers the
 * profile's directory as written, whole: every file (tool files, their
 * `defaults`, inline `tools`, `roots`, `sandbox`, `env`, scripts), every
 * subdirectory and symlink, with `${VAR}` references unexpanded (no secret is
 * hashed; a rotated token needs no new trust). It is recorded for the
 * directory's real path together with the directory as named and the
 * profile's name (a symlink from elsewhere borrows no trust), and checked
 * against the very bytes the loader parsed
 * (see dir_contents.ts): any change anywhere asks for trust again, and a
 * symlink that now leads elsewhere is refused. Other layers are the user's
 * own files and need none: the trust store and the change descriptions
 * (./trust_store.ts, ./trust_changes.ts, SHA-256) load only for a project
 * profile (`profile info @demo` loads neither).
 *
 * @module
 */

import { ConfigError } from "../errors.ts";
import { describeArgv } from "../launch/spec.ts";
import type { TrustChange } from "./trust_changes.ts";
import type { TrustRecord } from "./trust_store.ts";
import type { MetaDef, Profile } from "./types.ts";
import { visibleLine } from "../output/visible.ts";

/** A profile's trust state. */
export type TrustState = "not-needed" | "trusted" | "untrusted" | "changed" | "moved";

/** A profile's trust state and what it is based on. */
export interface TrustCheck {
  state: TrustState;
  /** The record of the directory's real path, when there is a current one. */
  record?: TrustRecord;
  /** What changed since that record (state `changed`). */
  changes?: TrustChange[];
  /** The directory was trusted by jn 0.1, which digested its launch fields only (state `changed`). */
  legacy?: boolean;
  /** The real path the directory had when trusted (state `moved`). */
  trustedRealPath?: string;
}

/** Checks a profile against the trust records. */
export async function checkTrust(
  profile: Profile,
  env: Record<string, string>,
): Promise<TrustCheck> {
  if (profile.layer !== "project") return { state: "not-needed" };
  const { entries, digest } = readContents(profile);
  const [{ isCurrentRecord, readTrustStore, trustRecord }, { trustChanges }] = await Promise.all([
    import("./trust_store.ts"),
    import("./trust_changes.ts"),
  ]);
  const store = await readTrustStore(env);
  const own = Object.hasOwn(store.profiles, profile.realDir)
    ? store.profiles[profile.realDir]
    : undefined;
  // A record is this profile's only for the same real path, directory as named AND name:
  // another repository (or another name) that symlinks to a trusted directory borrows nothing.
  if (
    own === undefined ||
    (isCurrentRecord(own) && (own.path !== profile.dir || own.server !== profile.name))
  ) {
    // This directory, trusted at another real path: a symlink on the way was swapped; or the
    // same profile, trusted as it is now, at another place: the repository was moved.
    const moved = Object.entries(store.profiles).find(([key, value]) =>
      key !== profile.realDir && isCurrentRecord(value) &&
      (value.path === profile.dir || (value.server === profile.name && value.digest === digest))
    );
    return moved ? { state: "moved", trustedRealPath: moved[0] } : { state: "untrusted" };
  }
  const record = trustRecord(store, profile.realDir);
  if (record === undefined) return { state: "changed", legacy: true };
  if (record.digest === digest) return { state: "trusted", record };
  return {
    state: "changed",
    record,
    changes: await trustChanges(record, { entries, meta: profile.rawMeta }),
  };
}

/** Whether the profile may launch, and why not. */
export async function trustState(
  profile: Profile,
  env: Record<string, string>,
): Promise<TrustState> {
  return (await checkTrust(profile, env)).state;
}

/** Throws a `ConfigError` (exit 3) with the command to run unless the profile may launch. */
export async function assertTrusted(profile: Profile, env: Record<string, string>): Promise<void> {
  const check = await checkTrust(profile, env);
  const name = `@${profile.name}`;
  const dir = visibleLine(profile.dir);
  const fix = `then run: jn profile trust ${name}`;
  switch (check.state) {
    case "trusted":
    case "not-needed":
      return;
    case "untrusted":
      throw new ConfigError(
        `Project profile "${name}" is not trusted to launch ${describeLaunch(profile.rawMeta)}`,
        { path: profile.dir, hint: `review every file in ${dir}, ${fix}` },
      );
    case "changed": {
      const { describeChanges } = await import("./trust_changes.ts");
      throw new ConfigError(
        check.legacy
          ? `Project profile "${name}" was trusted by an older jn, which checked only its launch fields`
          : `Project profile "${name}" changed since you trusted it: ${
            describeChanges(check.changes ?? [])
          }`,
        {
          path: profile.dir,
          hint: `review ${check.legacy ? "every file" : "the changes"} in ${dir}, ${fix}`,
        },
      );
    }
    case "moved":
      throw new ConfigError(
        `Project profile "${name}" now resolves to ${visibleLine(profile.realDir)}, not to ${
          visibleLine(check.trustedRealPath ?? "?")
        } where you trusted it`,
        {
          path: profile.dir,
          hint: `a symlink on its path changed: review ${visibleLine(profile.realDir)}, ${fix}`,
        },
      );
    default: {
      const never: never = check.state;
      throw new Error(`Unknown trust state ${never}`);
    }
  }
}

/** Records trust in the profile directory as it was read (the same bytes the profile was parsed from). */
export async function recordTrust(
  profile: Profile,
  env: Record<string, string>,
): Promise<TrustRecord | undefined> {
  const { entries, digest } = readContents(profile);
  const [{ isCurrentRecord, readTrustStore, writeTrustStore }, { metaFieldDigests }] = await Promise
    .all([import("./trust_store.ts"), import("./trust_changes.ts")]);
  const store = await readTrustStore(env);
  // One record per real path: trusting it under another name or path replaces the old one.
  const previous = Object.hasOwn(store.profiles, profile.realDir)
    ? store.profiles[profile.realDir]
    : undefined;
  const replaced = isCurrentRecord(previous) &&
      (previous.path !== profile.dir || previous.server !== profile.name)
    ? previous
    : undefined;
  const record: TrustRecord = {
    server: profile.name,
    path: profile.dir,
    real_path: profile.realDir,
    digest,
    files: entries,
    meta_fields: await metaFieldDigests(profile.rawMeta),
    trusted_at: new Date().toISOString(),
  };
  store.profiles[profile.realDir] = record;
  await writeTrustStore(store, env);
  return replaced;
}

/** Removes the profile's trust record; false when there was none. */
export async function removeTrust(profile: Profile, env: Record<string, string>): Promise<boolean> {
  const { readTrustStore, writeTrustStore } = await import("./trust_store.ts");
  const store = await readTrustStore(env);
  if (!Object.hasOwn(store.profiles, profile.realDir)) return false;
  delete store.profiles[profile.realDir];
  await writeTrustStore(store, env);
  return true;
}

/** One line saying what a launch config starts (`"uvx --from x y"`, or the URL), control characters escaped. */
export function describeLaunch(meta: MetaDef): string {
  if (meta.url !== undefined) return `"${visibleLine(meta.url)}"`;
  return `"${
    visibleLine(describeArgv({
      transport: "stdio",
      command: meta.command ?? "?",
      args: meta.args ?? [],
      env: {},
      label: "",
    }))
  }"`;
}

function readContents(profile: Profile): { entries: Record<string, string>; digest: string } {
  if (profile.entries === undefined || profile.digest === undefined) {
    // The project layer is always read whole (layers.ts); anything else is a bug.
    throw new Error(`Project profile @${profile.name} was not read whole`);
  }
  return { entries: profile.entries, digest: profile.digest };
}
