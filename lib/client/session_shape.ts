/**
 * What makes a session the one a call may go through: the source's
 * identity (its key: the profile it was resolved from, or a naked URI's
 * launch) and the launch-shaping options it was started with — everything
 * that decides what process starts, what it may reach and what it is told:
 * the launch itself (command, arguments, the profile's `env` and `cwd`,
 * headers, the token), the working directory of a stdio server that has no
 * `cwd` of its own, the sandbox and Deno permissions, the variables passed
 * through and their values, the protocol, roots, cleartext HTTP, and whether
 * sampling is offered (a project profile's files are the session's own
 * watch: session_trust.ts). Per-call
 * options (timeouts, log level, `--elicit`, progress, drift checks) are not
 * among them: each call keeps its own.
 *
 * Guarantees: each field is kept as a salted SHA-256 digest (the salt is
 * the session's own), so a secret among them (a `${VAR}` value, a token,
 * a passed-through variable) never lands in a file; two sets of options
 * are told apart field by field, so a call says what differs.
 *
 * @module
 */

import type { LaunchSpec } from "../launch/spec.ts";
import { mergePolicies } from "../sandbox/policy.ts";
import { digestHex, hex } from "../text/digest.ts";
import type { OpenOptions } from "./options.ts";
import type { SessionSettings } from "./remote.ts";
import type { Target } from "./resolve.ts";

/** The launch-shaping options, by field, as digests. */
export type Shape = Record<string, string>;

/** How each field is named when it differs. */
const FIELD_NAMES: Record<string, string> = {
  launch: "the server's command, environment or headers",
  cwd: "the working directory",
  sandbox: "the sandbox",
  env: "the environment passed through",
  protocol: "the protocol",
  roots: "the roots",
  allowHttp: "--allow-http",
  sampling: "sampling",
};

/** A source's identity: what a session of it is found by (session_paths.ts names files by its digest). */
export function sourceIdentity(target: Pick<Target, "profile" | "launch">): string {
  const profile = target.profile;
  if (profile !== undefined) {
    return canonical(["profile", profile.layer, profile.dir, profile.name]);
  }
  const launch = target.launch;
  return launch.transport === "stdio"
    ? canonical(["uri", "stdio", launch.command, launch.args])
    : canonical(["uri", launch.transport, launch.url]);
}

/** The key of a source: the hex digest of its identity (a file name). */
export async function sessionKey(identity: string): Promise<string> {
  return (await sha256(identity)).slice(0, 32);
}

/** A fresh salt for a session's shape. */
export function newSalt(): string {
  return hex(crypto.getRandomValues(new Uint8Array(16)));
}

/** The launch-shaping options of a call (or a start), salted. */
export async function launchShape(
  target: Target,
  options: OpenOptions,
  settings: Pick<SessionSettings, "launch" | "options">,
  salt: string,
): Promise<Shape> {
  const launch: LaunchSpec = settings.launch;
  const passthrough = [
    ...(options.envPassthrough ?? []),
    ...(launch.transport === "stdio" ? launch.envPassthrough ?? [] : []),
  ].sort();
  const fields: Record<string, unknown> = {
    launch,
    cwd: launch.transport === "stdio" && launch.cwd === undefined ? options.cwd : null,
    sandbox: [
      mergePolicies(target.sandbox, options.sandbox) ?? null,
      target.denoPermissions ?? null,
    ],
    env: passthrough.map((name) => [name, options.env[name] ?? null]),
    protocol: options.protocol ?? "auto",
    roots: (settings.options.roots ?? []).map((root) => root.uri),
    allowHttp: settings.options.allowHttp === true,
    sampling: Boolean(options.sample || options.samplingCommand || target.samplingCommand),
  };
  const entries = Object.entries(fields);
  const digests = await Promise.all(
    entries.map(([, value]) => sha256(`${salt}\n${canonical(value)}`)),
  );
  return Object.fromEntries(entries.map(([field], at) => [field, digests[at]]));
}

/** The fields that differ between two shapes, in words (empty: the same). */
export function shapeDifferences(session: Shape, call: Shape): string[] {
  const fields = new Set([...Object.keys(session), ...Object.keys(call)]);
  return [...fields].filter((field) => session[field] !== call[field])
    .map((field) => FIELD_NAMES[field] ?? field);
}

/** `the sandbox differs`, `the sandbox and the protocol differ`: differences in one phrase. */
export function differencesText(differences: readonly string[]): string {
  const list = differences.length <= 1
    ? differences.join("")
    : `${differences.slice(0, -1).join(", ")} and ${differences.at(-1)}`;
  return `${list} ${differences.length === 1 ? "differs" : "differ"}`;
}

/** JSON with object keys sorted: the same value always gives the same text. */
export function canonical(value: unknown): string {
  return JSON.stringify(
    value,
    (_key, item) =>
      item !== null && typeof item === "object" && !Array.isArray(item)
        ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0))
        : item,
  );
}

/** Digests already made (a session's process asks the same for every forwarded command). */
const made = new Map<string, Promise<string>>();

/** SHA-256 as hex, remembered for the last few hundred texts. */
function sha256(text: string): Promise<string> {
  let digest = made.get(text);
  if (digest === undefined) {
    if (made.size >= 512) made.clear();
    digest = digestHex(text);
    made.set(text, digest);
  }
  return digest;
}
