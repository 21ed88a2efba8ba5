/**
 * The first step of command forwarding (forward.ts), the one every `jn`
 * takes before it loads anything else: which running sessions its command
 * line may be for. It reads the environment, the private sessions
 * directory's entry and its records, and no more; a command line no
 * session's source is named by loads none of forwarding's other modules.
 *
 * Guarantees: nothing is found on Windows, with `--no-session` (before
 * `--`), without a sessions directory, or when that directory is plainly
 * not private (one `lstat`: session_dir.ts); an unreadable record ends the
 * search (the command then runs in this process, as without sessions). A
 * record names a session by its file name's key only: what it says of its
 * socket is not used. This is the cheap first look: forward.ts checks the
 * whole folder chain, and reads the records again from the checked folder,
 * before it connects.
 *
 * @module
 */

import { privacyProblemNow, sessionDirOf } from "../client/session_dir.ts";
import { VERSION } from "../version.ts";

/** A running session a command line may be for. */
export interface Candidate {
  source: string;
  /** Its key: its files are `KEY.json`, `KEY.sock` in the sessions directory. */
  key: string;
}

/** The sessions a command line may be for, and what the caller sends them. */
export interface Sessions {
  /** The sessions directory, as the environment names it (not checked through). */
  dir: string;
  candidates: readonly Candidate[];
  /** The caller's environment (sent with the command). */
  env: Record<string, string>;
  /** The command line's words before `--`. */
  words: readonly string[];
}

/**
 * The running sessions (of this jn version, in the private sessions
 * directory) whose source one of the command line's words starts with:
 * `@x` for `@x`, `@x/tool`, `@x?…`; a URI for itself, `URI?…` or, when it
 * has a query, `URI&…` — or undefined when there are none. The session
 * decides for sure (forward_serve.ts).
 */
export function sessionsNamedBy(args: readonly string[]): Sessions | undefined {
  const dash = args.indexOf("--");
  const words = dash === -1 ? args : args.slice(0, dash);
  if (Deno.build.os === "windows" || words.includes("--no-session")) return undefined;
  try {
    const env = Deno.env.toObject();
    const dir = sessionDirOf(env);
    if (dir === undefined || privacyProblemNow(dir) !== undefined) return undefined;
    const candidates = sessionsIn(dir, args);
    return candidates.length === 0 ? undefined : { dir, candidates, env, words };
  } catch {
    return undefined;
  }
}

/** The running sessions in `dir` (of this jn version) one of `args` names; throws on a bad record. */
export function sessionsIn(dir: string, args: readonly string[]): Candidate[] {
  const candidates: Candidate[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    const key = /^([0-9a-f]{32})\.json$/.exec(entry.name)?.[1];
    if (key === undefined || !entry.isFile) continue; // a symlink or a FIFO is never read
    const record = JSON.parse(Deno.readTextFileSync(`${dir}/${entry.name}`));
    const { source, version } = record ?? {};
    if (typeof source !== "string" || version !== VERSION) continue;
    if (args.some((word) => names(word, source))) candidates.push({ source, key });
  }
  return candidates;
}

function names(word: string, source: string): boolean {
  if (!word.startsWith(source)) return false;
  const next = word.charAt(source.length);
  return next === "" || next === "?" || (source.startsWith("@") && next === "/") ||
    (source.includes("?") && next === "&");
}
