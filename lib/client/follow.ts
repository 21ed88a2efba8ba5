/**
 * `--follow` as a verb: reads a resource (or lists) like `cat`, then again
 * on every change the server announces — a resource's
 * `notifications/resources/updated` (after subscribing to it), a list's
 * `list_changed` — until the caller's signal aborts, the optional duration
 * runs out, or the connection ends. Each version is handed over whole,
 * its records marked `"version": N` (1-based).
 *
 * Guarantees: no change is lost (the subscription starts before the first
 * read) and none piles up (changes that arrive during a read make one more
 * read, not one each; a flood of identical notifications is coalesced before
 * the SDK sees it, lib/session/tap.ts, so memory stays flat); the duration
 * is a deadline: when it comes, the follow ends normally, even in the middle
 * of a subscribe or a read (a read behind a flood is not waited for); the
 * subscription is ended (unsubscribe, or the listen stream closed) on every
 * way out; an operation that cannot be followed is a usage error before
 * anything is sent.
 *
 * @module
 */

import { ConnectionError, UsageError } from "../errors.ts";
import type { JnRecord } from "../output/records.ts";
import type { Following, FollowTarget } from "../session/types.ts";
import { type ArgInput, cat, type CatOptions, givenArguments, requireOperation } from "./cat.ts";
import type { Connection } from "./connection.ts";
import type { Target } from "./resolve.ts";

/** Options of {@linkcode follow}. */
export interface FollowOptions {
  /** Aborting it ends the follow with its reason (e.g. an InterruptedError). */
  signal?: AbortSignal;
  /** End (normally) after this many ms; 0 or absent: no bound. */
  durationMs?: number;
  /** One version of the resource or list: its records, each with `version`. */
  onVersion(records: JnRecord[], version: number): void | Promise<void>;
}

/**
 * Prints a resource or list now and after each change.
 *
 * @example
 * ```ts
 * import { follow, open } from "@jn/jn";
 *
 * await using conn = await open("@demo?resource=demo://ticker", {
 *   cwd: Deno.cwd(),
 *   env: Deno.env.toObject(),
 * });
 * await follow(conn, {
 *   durationMs: 2500,
 *   onVersion: (records, version) => console.log(version, records[0].text),
 * });
 * ```
 */
export async function follow(conn: Connection, options: FollowOptions): Promise<void> {
  const what = checkFollow(conn.target);
  let changed = false;
  let ended = false;
  let wake: (() => void) | undefined;
  const poke = () => {
    wake?.();
    wake = undefined;
  };
  const signal = options.signal;
  const onAbort = () => poke();
  signal?.addEventListener("abort", onAbort);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timedOut = false;
  let deadline: Promise<undefined> | undefined;
  if (options.durationMs && options.durationMs > 0) {
    deadline = new Promise((resolve) => {
      timer = setTimeout(() => {
        timedOut = true;
        poke();
        resolve(undefined);
      }, options.durationMs);
    });
  }
  /** `work`'s value, or undefined once the deadline has come (`work` is then abandoned). */
  const beforeDeadline = <T>(work: Promise<T>): Promise<T | undefined> => {
    if (deadline === undefined) return work;
    work.catch(() => {}); // abandoned at the deadline: its failure is of no one's concern
    return Promise.race([work, deadline]);
  };
  let following: Following | undefined;
  let subscribing: Promise<Following> | undefined;
  try {
    subscribing = conn.session.follow(what, {
      onChange: () => {
        changed = true;
        poke();
      },
      onEnd: () => {
        ended = true;
        poke();
      },
    });
    following = await beforeDeadline(subscribing);
    if (following === undefined) return;
    for (let version = 1; !timedOut; version++) {
      changed = false;
      const read = await beforeDeadline(cat(conn));
      if (read === undefined || timedOut) return;
      const { records } = read;
      const marked = (records as JnRecord[]).map((record) => ({ ...record, version }));
      await options.onVersion(marked, version);
      while (!changed) {
        signal?.throwIfAborted();
        if (timedOut) return;
        if (ended) {
          throw new ConnectionError(
            `The server "${conn.target.name}" closed the connection while jn followed it`,
          );
        }
        await new Promise<void>((resolve) => wake = resolve);
      }
    }
  } catch (error) {
    throw conn.explain(error);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
    if (following) await following.close();
    // A subscribe the deadline cut short is ended when it answers (or with the connection).
    else void subscribing?.then((late) => late.close(), () => {});
  }
}

/**
 * What a follow of `target` watches, after checking, before any server
 * starts, that it can be followed: a resource or a list, without arguments
 * (`input`: the caller's `--args`/`--arg`) and without the bounds of one
 * call (`saveDir`, `maxBytes`: cat's options). UsageError (exit 2) otherwise;
 * {@linkcode follow} checks the same.
 */
export function checkFollow(
  target: Target,
  input: ArgInput & Pick<CatOptions, "saveDir" | "maxBytes"> = {},
): FollowTarget {
  if (input.saveDir !== undefined || input.maxBytes !== undefined) {
    throw new UsageError("--save-dir and --max-bytes apply to one call, not to --follow");
  }
  requireOperation(target);
  const what = followTarget(target);
  const given = givenArguments(target, input);
  if (given.length > 0) {
    throw new UsageError(`Arguments are not used with --follow: ${given.join(", ")}`, {
      hint: "--follow reads a resource (?resource=URI) or a list (?list=…)",
    });
  }
  return what;
}

/** What a target's `--follow` watches, or a usage error. */
export function followTarget(target: Target): FollowTarget {
  const operation = target.operation;
  if (operation.kind === "resource") return { resource: operation.uri };
  if (operation.kind === "list") {
    return { list: operation.what === "templates" ? "resources" : operation.what };
  }
  throw new UsageError(`--follow needs a resource or a list, not ${describe(target)}`, {
    hint: "use ?resource=URI or ?list=tools|resources|templates|prompts",
  });
}

function describe(target: Target): string {
  const operation = target.operation;
  switch (operation.kind) {
    case "tool":
      return `a tool call (${operation.name})`;
    case "prompt":
      return `a prompt (${operation.name})`;
    case "task":
      return `a task's result (${operation.id})`;
    default:
      return "nothing";
  }
}
