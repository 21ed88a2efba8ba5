/**
 * The first step of command forwarding (forward.ts), the one every `jn`
 * takes before it loads anything else: which running sessions its command
 * line may be for. It reads the environment, the private sessions
 * directory's entry and its records, and no more; a command line no
 * session's source is named by loads none of forwarding's other modules.
 *
 * Guarantees: nothing is found on Windows, with `--no-session` (before
 * `--`), without a sessions directory, or when that directory is not
 * private (session_dir.ts); an unreadable record ends the search (the
 * command then runs in this process, as without sessions).
 *
 * @module
 */

import { privacyProblemNow, sessionDirOf } from "../client/session_dir.ts";
import { VERSION } from "../version.ts";

/** A running session a command line may be for. */
export interface Candidate {
  source: string;
  socket: string;
}

/** The sessions a command line may be for, and what the caller sends them. */
export interface Sessions {
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
    const candidates: Candidate[] = [];
    for (const entry of Deno.readDirSync(dir)) {
      if (!/^[0-9a-f]{32}\.json$/.test(entry.name)) continue;
      const record = JSON.parse(Deno.readTextFileSync(`${dir}/${entry.name}`));
      const { source, socket, version } = record ?? {};
      if (typeof source !== "string" || typeof socket !== "string" || version !== VERSION) continue;
      if (args.some((word) => names(word, source))) candidates.push({ source, socket });
    }
    return candidates.length === 0 ? undefined : { candidates, env, words };
  } catch {
    return undefined;
  }
}

function names(word: string, source: string): boolean {
  if (!word.startsWith(source)) return false;
  const next = word.charAt(source.length);
  return next === "" || next === "?" || (source.startsWith("@") && next === "/") ||
    (source.includes("?") && next === "&");
}
