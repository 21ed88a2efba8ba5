/**
 * A profile's launch as the user reviews it: every field of `_meta.json`
 * that shapes a launch or a call — what it starts (argv or URL) and where,
 * its `env` (each name and value as written: a `${VAR}` stays the
 * reference, its value is never read here), the variables it passes
 * through, its headers, `sandbox`, `deno_permissions`, `roots` and the
 * sampling command with the directory it runs in — and the variables among
 * them that load code (lib/sandbox/code_loading_env.ts), as data and as the
 * `label: value` fields `jn profile trust` (trust_report.ts) and `jn
 * profile info` print.
 *
 * Also the rule of where a profile's `sampling_command` runs
 * ({@linkcode samplingCommandDir}), which `open()` applies and the review shows.
 *
 * Every text in it comes from a file jn did not write: it is made visible
 * (control characters escaped) here, once. Light: no `node:path`, no
 * hashing, so `profile info` stays quick.
 *
 * @module
 */

import { visibleLine } from "../output/visible.ts";
import { codeLoadingVariables, untrustedDirs } from "../sandbox/code_loading_env.ts";
import { isAbsolutePath, joinPath } from "./paths.ts";
import { describeLaunch } from "./trust.ts";
import type { Profile } from "./types.ts";

/** A profile's launch, field by field, as written. */
export interface LaunchReview {
  /** What it starts: `"argv"` or `"url"`. */
  launches: string;
  /** Where a stdio server starts (a real path), and whether trust covers that directory. */
  startsIn?: { dir: string; covered: boolean; current: boolean };
  /** `env`, as written. */
  env: { name: string; value: string }[];
  /** `env_passthrough`: names of the user's variables the server gets. */
  passthrough: string[];
  /** `headers` of a remote server, as written. */
  headers: { name: string; value: string }[];
  /** `sandbox` in one line, or `none`. */
  sandbox: string;
  /** `deno_permissions` in one line. */
  denoPermissions?: string;
  /** `roots`. */
  roots?: string[];
  /** `sampling_command`, and the directory it runs in. */
  sampling?: { command: string; dir?: string };
  /** The variables of `env` that load code, each with its reason. */
  warnings: { name: string; reason: string }[];
}

/**
 * Where a profile's `sampling_command` runs: the profile's directory by the
 * real path its files were read (and trusted) from, so that a relative path
 * anywhere in its line (`./llm.sh`, `python3 ask.py`) names a file trust
 * covered, never one of the directory jn runs in; `undefined` for a bundled
 * profile, which has no directory (jn's own data: the caller's directory).
 */
export function samplingCommandDir(profile: Profile): string | undefined {
  return profile.layer === "bundled" ? undefined : profile.realDir;
}

/** The launch fields of a profile as written, for review (`cwd`: where jn runs). */
export async function launchReview(profile: Profile, cwd: string): Promise<LaunchReview> {
  const meta = profile.rawMeta;
  const pairs = (map: unknown) =>
    Object.entries(isRecord(map) ? map : {}).map(([name, value]) => ({
      name: visibleLine(name),
      value: visibleLine(String(value)),
    }));
  const env = isRecord(meta.env) ? meta.env as Record<string, string> : {};
  // A project profile's PATH may not lead into its repository (jn drops such entries).
  const local = profile.layer === "project" ? untrustedDirs(cwd) : [];
  const review: LaunchReview = {
    launches: describeLaunch(meta),
    env: pairs(meta.env),
    passthrough: Array.isArray(meta.env_passthrough)
      ? meta.env_passthrough.map((name) => visibleLine(String(name)))
      : [],
    headers: pairs(meta.headers),
    sandbox: describeSandbox(meta.sandbox),
    warnings: codeLoadingVariables(env, { local }).map(({ name, reason }) => ({
      name: visibleLine(name),
      reason,
    })),
  };
  if (meta.url === undefined) review.startsIn = await startDir(profile, cwd);
  if (meta.deno_permissions !== undefined) {
    review.denoPermissions = describeGrants(meta.deno_permissions);
  }
  if (Array.isArray(meta.roots)) review.roots = meta.roots.map((root) => visibleLine(root));
  if (typeof meta.sampling_command === "string") {
    const dir = samplingCommandDir(profile);
    review.sampling = {
      command: visibleLine(JSON.stringify(meta.sampling_command)),
      ...(dir === undefined ? {} : { dir: visibleLine(dir) }),
    };
  }
  return review;
}

/** The review's fields, one `field(label, value)` each, in the order of the report. */
export function reviewLines(
  review: LaunchReview,
  field: (label: string, value: string) => void,
): void {
  field("launches", review.launches);
  const start = review.startsIn;
  if (start) {
    field(
      "in",
      `${start.dir}${
        start.current
          ? " (the current directory, not covered by trust)"
          : start.covered
          ? ""
          : " (outside the profile's directory, not covered by trust)"
      }`,
    );
  }
  for (const { name, value } of review.env) field("env", `${name}=${value}`);
  warningLines(review, field);
  if (review.passthrough.length > 0) {
    field("passes", `${review.passthrough.join(", ")} (from your environment)`);
  }
  for (const { name, value } of review.headers) field("header", `${name}: ${value}`);
  if (start) field("sandbox", review.sandbox);
  if (review.denoPermissions) field("deno", review.denoPermissions);
  if (review.roots) field("roots", review.roots.join(", "));
  // A sampling command runs on this machine too (sh -c, for each sampling request).
  const sampling = review.sampling;
  if (sampling) {
    field(
      "samples",
      `sh -c ${sampling.command}${
        sampling.dir ? ` in ${sampling.dir} (the profile's directory)` : " in the current directory"
      }`,
    );
  }
}

/** One `warning` field per code-loading variable. */
export function warningLines(
  review: Pick<LaunchReview, "warnings">,
  field: (label: string, value: string) => void,
): void {
  for (const { name, reason } of review.warnings) {
    field("warning", `${name} can load code (${reason})`);
  }
}

/** `sandbox` in one line: `none`, or what it grants. */
function describeSandbox(value: unknown): string {
  if (value === undefined || value === null || value === false) {
    return "none: the server runs with your permissions (unless you add --sandbox)";
  }
  if (value === true) return "network: none; read: nothing of yours; write: nothing of yours";
  if (!isRecord(value)) return `invalid: ${visibleLine(JSON.stringify(value))}`;
  const list = (items: unknown) =>
    Array.isArray(items) && items.length > 0
      ? items.map((item) => visibleLine(String(item))).join(", ")
      : "nothing of yours";
  const network = value.network === true
    ? "every host"
    : Array.isArray(value.network)
    ? `${list(value.network)} (Deno servers only)`
    : "none";
  return `network: ${network}; read: ${list(value.read)}; write: ${list(value.write)}`;
}

/** `deno_permissions` in one line: `net=a,b; env`. */
function describeGrants(value: unknown): string {
  if (!isRecord(value)) return `invalid: ${visibleLine(JSON.stringify(value))}`;
  return Object.entries(value).map(([name, grant]) =>
    visibleLine(
      grant === true
        ? name
        : Array.isArray(grant)
        ? `${name}=${grant.join(",")}`
        : `${name}=${JSON.stringify(grant)}`,
    )
  ).join("; ");
}

/** The real path of the directory a stdio server starts in, and whether trust covers it. */
async function startDir(
  profile: Profile,
  cwd: string,
): Promise<{ dir: string; covered: boolean; current: boolean }> {
  const written = profile.rawMeta.cwd;
  const dir = written === undefined
    ? cwd
    : isAbsolutePath(written)
    ? written
    : joinPath(profile.realDir, written);
  const real = await Deno.realPath(dir).catch(() => dir);
  const root = profile.realDir;
  const covered = written !== undefined &&
    (real === root || real.startsWith(root.endsWith("/") ? root : `${root}/`));
  return { dir: visibleLine(real), covered, current: written === undefined };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
