/**
 * Trust for project profiles (SPEC §4). A project's `.jn/profiles/mcp/` comes
 * with a cloned repository, so jn launches nothing from it until the user ran
 * `jn profile trust @server`, which records a SHA-256 digest of the launch
 * config *as written* (`command`, `args`, `env`, `cwd`, `transport`, `url`,
 * `headers`, `sandbox`, `env_passthrough`, `deno_permissions`; `${VAR}`
 * references unexpanded, so no secret is hashed
 * and a rotated token needs no new trust) for that directory's absolute path.
 * Any change of those fields needs a new trust. Other layers are the user's
 * own files and need none.
 *
 * The records live in `~/.local/jn/trust.json` (mode 0600):
 * `{"version": 1, "profiles": {"/abs/.jn/profiles/mcp/NAME": {"server", "digest", "trusted_at"}}}`.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { join } from "node:path";
import { ConfigError } from "../errors.ts";
import { describeArgv } from "../launch/spec.ts";
import { userJnDir } from "./layers.ts";
import type { MetaDef, Profile } from "./types.ts";

/** The launch fields a trust covers. */
export const TRUSTED_FIELDS = [
  "command",
  "args",
  "env",
  "cwd",
  "transport",
  "url",
  "headers",
  "sandbox",
  // What a server may read of the caller's environment and do as a Deno program.
  "env_passthrough",
  "deno_permissions",
] as const;

/** A profile's trust state. */
export type TrustState = "not-needed" | "trusted" | "untrusted" | "changed";

interface TrustRecord {
  server: string;
  digest: string;
  trusted_at: string;
}

interface TrustFile {
  version: 1;
  profiles: Record<string, TrustRecord>;
}

/** `sha256:HEX` of the launch fields of a `_meta.json` as written (keys sorted). */
export function launchDigest(meta: MetaDef): string {
  const fields: Record<string, unknown> = {};
  for (const key of TRUSTED_FIELDS) if (meta[key] !== undefined) fields[key] = meta[key];
  return `sha256:${createHash("sha256").update(canonicalJson(fields)).digest("hex")}`;
}

/** Whether the profile may launch, and why not. */
export async function trustState(
  profile: Profile,
  env: Record<string, string>,
): Promise<TrustState> {
  if (profile.layer !== "project") return "not-needed";
  const record = (await readTrustFile(env)).profiles[await trustKey(profile)];
  if (record === undefined) return "untrusted";
  return record.digest === launchDigest(profile.rawMeta) ? "trusted" : "changed";
}

/** Throws a `ConfigError` (exit 3) with the command to run unless the profile may launch. */
export async function assertTrusted(profile: Profile, env: Record<string, string>): Promise<void> {
  const state = await trustState(profile, env);
  if (state === "trusted" || state === "not-needed") return;
  const what = describeLaunch(profile.rawMeta);
  const message = state === "changed"
    ? `Project profile "@${profile.name}" changed its launch config since you trusted it: ${what}`
    : `Project profile "@${profile.name}" is not trusted to launch ${what}`;
  throw new ConfigError(message, {
    path: profile.metaFile,
    hint: `review ${profile.metaFile}, then run: jn profile trust @${profile.name}`,
  });
}

/** Records trust in the profile's current launch config. */
export async function recordTrust(profile: Profile, env: Record<string, string>): Promise<void> {
  const file = await readTrustFile(env);
  file.profiles[await trustKey(profile)] = {
    server: profile.name,
    digest: launchDigest(profile.rawMeta),
    trusted_at: new Date().toISOString(),
  };
  await writeTrustFile(file, env);
}

/** Removes the profile's trust record; false when there was none. */
export async function removeTrust(profile: Profile, env: Record<string, string>): Promise<boolean> {
  const file = await readTrustFile(env);
  const key = await trustKey(profile);
  if (!(key in file.profiles)) return false;
  delete file.profiles[key];
  await writeTrustFile(file, env);
  return true;
}

/** One line saying what a launch config starts (`uvx --from x y`, or the URL). */
export function describeLaunch(meta: MetaDef): string {
  if (meta.url !== undefined) return `"${meta.url}"`;
  return `"${
    describeArgv({
      transport: "stdio",
      command: meta.command ?? "?",
      args: meta.args ?? [],
      env: {},
      label: "",
    })
  }"`;
}

/** The trust store's path. */
export function trustFilePath(env: Record<string, string>): string {
  const dir = userJnDir(env);
  if (dir === undefined) {
    throw new ConfigError("Cannot find the user's jn directory: HOME is not set", {
      hint: "set HOME to your home directory",
    });
  }
  return join(dir, "trust.json");
}

async function trustKey(profile: Profile): Promise<string> {
  return await Deno.realPath(profile.dir).catch(() => profile.dir);
}

async function readTrustFile(env: Record<string, string>): Promise<TrustFile> {
  const path = trustFilePath(env);
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { version: 1, profiles: {} };
    throw error;
  }
  try {
    const value = JSON.parse(text);
    if (typeof value?.profiles === "object" && value.profiles !== null) {
      return { version: 1, profiles: value.profiles };
    }
  } catch { /* reported below */ }
  throw new ConfigError(`Invalid trust store ${path}: expected {"version": 1, "profiles": {…}}`, {
    path,
    hint: "delete the file to forget every trust, then trust your project profiles again",
  });
}

async function writeTrustFile(file: TrustFile, env: Record<string, string>): Promise<void> {
  const path = trustFilePath(env);
  const dir = join(path, "..");
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  const temp = `${path}.${crypto.randomUUID()}.tmp`;
  await Deno.writeTextFile(temp, JSON.stringify(file, null, 2) + "\n", { mode: 0o600 });
  await Deno.rename(temp, path);
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const keys = Object.keys(value).sort();
    return `{${
      keys.map((k) =>
        `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`
      )
        .join(",")
    }}`;
  }
  return JSON.stringify(value);
}
