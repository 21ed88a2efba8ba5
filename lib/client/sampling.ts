/**
 * Sampling through a command (`--sampling-command CMD`, a profile's
 * `sampling_command`): for each `sampling/createMessage` request, jn runs
 * `sh -c CMD` with the caller's environment — the caller's own command in the
 * caller's directory, a profile's in the profile's directory by its real
 * path (`Target.samplingDir`, lib/profile/launch.ts), so that a relative path
 * anywhere in its line (`./llm.sh`, `python3 ask.py < prompt.txt`) names a
 * file trust covered, never one of the directory jn runs in — writes
 * the request's params as one line of JSON to its stdin, and answers with its
 * stdout as the text of the assistant's message (one trailing newline
 * removed; model `jn-sampling-command`). A non-zero exit refuses the request
 * (the server gets a JSON-RPC error). The command's stderr is the caller's.
 *
 * A shell, not an argv split: the command is the user's own line (a pipeline,
 * a quoted prompt, `llm -m MODEL`), from their flag or a profile they wrote
 * or trusted (a project profile cannot set it before `jn profile trust`,
 * which covers every field of `_meta.json`). A profile's command beside a
 * sandboxed server that may write somewhere of the user's runs with those
 * paths hidden from it (`confinedSampling`, sandbox.ts), or is refused: what
 * it loads (a `node_modules` up the tree, an `.npmrc`) is not only its line.
 *
 * Guarantees: the command runs in a process group of its own, ended (SIGTERM)
 * when the signal aborts (Ctrl-C, a timeout, the connection closing; SIGKILL
 * a second later if it ignores SIGTERM) and SIGKILLed once the command exits
 * or jn exits, so nothing it started (a pipeline, a background job) outlives
 * it; stdout beyond 16 MiB refuses the request instead of growing jn's
 * memory; a command answers one request at a time, in order.
 *
 * A server may send sampling requests faster than they can be answered (a
 * flood meant to run the user's LLM, or their bill, without end): at most
 * {@linkcode SAMPLING_LIMITS} requests run at once (one for a command) and
 * a few wait; every request beyond is refused at once with a JSON-RPC error,
 * and the caller is told once per connection (`onOverflow`), not once per
 * request. This holds for a program's `sample` callback too.
 *
 * @module
 */

import { spawn } from "node:child_process";
import process from "node:process";
import { trackTree } from "../session/live_trees.ts";
import { SamplingOverflow } from "../session/sampling.ts";
import type { SamplingRequest, SamplingResponse } from "../types.ts";
import type { ServerWrites } from "../sandbox/sampling_view.ts";
import { concatBytes } from "../text/bytes.ts";
import type { OpenOptions } from "./options.ts";
import type { Target } from "./resolve.ts";

/** The model name of answers from a sampling command. */
export const SAMPLING_COMMAND_MODEL = "jn-sampling-command";

const MAX_OUTPUT = 16 * 1024 * 1024;
/** How long a command ended by SIGTERM has before SIGKILL. */
const KILL_GRACE_MS = 1_000;

/** How many sampling requests run at once, and how many more may wait. */
export const SAMPLING_LIMITS = {
  /** Running at once: a program's `sample` callback. */
  callbackConcurrency: 4,
  /** Waiting for a turn; any request beyond is refused. */
  waiting: 8,
} as const;

/** The notice given (once) when a server sends more sampling requests than jn takes. */
export const SAMPLING_OVERFLOW_NOTICE =
  `the server sent more sampling requests than jn answers at once; refusing the excess ` +
  `(at most ${SAMPLING_LIMITS.waiting} wait for an answer)`;

/** Options of {@linkcode commandSampler}. */
export interface CommandSamplerOptions {
  /** Where the command runs. */
  cwd: string;
  /** Its environment. */
  env: Record<string, string>;
  /** Aborting it ends a command that is running. */
  signal?: AbortSignal;
  /** Called once, the first time a request is refused because too many wait. */
  onOverflow?: () => void;
  /**
   * The argv that runs the command's `/bin/sh` inside a sandbox, asked
   * before each run; none: `/bin/sh` itself. Throwing refuses the request.
   */
  confine?: () => Promise<string[] | undefined>;
}

/** A sampling handler that runs `command` through `sh -c` for each request, one at a time. */
export function commandSampler(
  command: string,
  options: CommandSamplerOptions,
): (request: SamplingRequest) => Promise<SamplingResponse> {
  return boundedSampler((request) => runOnce(command, request, options), {
    concurrency: 1,
    onOverflow: options.onOverflow,
  });
}

/**
 * `handler` with at most `concurrency` requests running (in order of
 * arrival) and {@linkcode SAMPLING_LIMITS}`.waiting` more waiting; a request
 * beyond is rejected at once with a {@linkcode SamplingOverflow}, and
 * `onOverflow` is called the first time only.
 */
function boundedSampler(
  handler: (request: SamplingRequest) => Promise<SamplingResponse>,
  options: { concurrency: number; onOverflow?: () => void },
): (request: SamplingRequest) => Promise<SamplingResponse> {
  let running = 0;
  const waiting: (() => void)[] = [];
  let told = false;
  return async (request) => {
    if (running < options.concurrency) {
      running++;
    } else {
      if (waiting.length >= SAMPLING_LIMITS.waiting) {
        if (!told) {
          told = true;
          options.onOverflow?.();
        }
        throw new SamplingOverflow(
          `too many sampling requests at once (at most ${SAMPLING_LIMITS.waiting} may wait)`,
        );
      }
      // The slot of a request that finishes is handed over, never freed in between.
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
    try {
      return await handler(request);
    } finally {
      const wake = waiting.shift();
      if (wake) wake();
      else running--;
    }
  };
}

async function runOnce(
  command: string,
  request: SamplingRequest,
  options: CommandSamplerOptions,
): Promise<SamplingResponse> {
  options.signal?.throwIfAborted();
  const [file, ...args] = [...await options.confine?.() ?? [], "/bin/sh", "-c", command];
  options.signal?.throwIfAborted();
  // A process group of its own: ending the command ends its pipeline and what it left behind.
  const child = spawn(file, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ["pipe", "pipe", "inherit"],
    detached: true,
  });
  const group = child.pid;
  const untrack = trackTree({ killNow: () => signalGroup(group, "SIGKILL") });
  // SIGTERM first; a command that ignores it is SIGKILLed a moment later.
  let killLater: ReturnType<typeof setTimeout> | undefined;
  const onAbort = () => {
    signalGroup(group, "SIGTERM");
    killLater = setTimeout(() => signalGroup(group, "SIGKILL"), KILL_GRACE_MS);
  };
  options.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const exited = new Promise<{ code: number | null; signal: string | null }>(
      (resolve, reject) => {
        child.once("error", reject);
        child.once("exit", (code, signal) => resolve({ code, signal }));
      },
    );
    const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
    const chunks: Uint8Array[] = [];
    let size = 0;
    let tooLong = false;
    child.stdout!.on("data", (chunk: Uint8Array) => {
      if (tooLong) return;
      size += chunk.length;
      if (size > MAX_OUTPUT) {
        tooLong = true;
        signalGroup(group, "SIGTERM");
        return;
      }
      chunks.push(chunk);
    });
    child.stdin!.on("error", () => {/* the command need not read its stdin */});
    child.stdin!.end(`${JSON.stringify(request)}\n`);
    const status = await exited;
    // The command is done: whatever it started and left running (holding stdout open) goes too.
    signalGroup(group, "SIGKILL");
    await closed;
    if (tooLong) throw new Error(`the sampling command wrote more than ${MAX_OUTPUT} bytes`);
    if (status.code !== 0) {
      throw new Error(
        status.signal
          ? `the sampling command was ended by ${status.signal}`
          : `the sampling command exited with status ${status.code}`,
      );
    }
    const text = new TextDecoder().decode(concatBytes(chunks)).replace(/\r?\n$/, "");
    return {
      role: "assistant",
      content: { type: "text", text },
      model: SAMPLING_COMMAND_MODEL,
      stopReason: "endTurn",
    };
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
    clearTimeout(killLater);
    signalGroup(group, "SIGKILL");
    untrack();
  }
}

/** Signals a process group (ignored when it is gone). */
function signalGroup(pid: number | undefined, signal: "SIGTERM" | "SIGKILL"): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch { /* already gone */ }
}

/**
 * The sampling handler of a connection: the caller's `sample` callback, else
 * a command (the caller's `samplingCommand`, else the profile's
 * `sampling_command`), else none. `stop` ends a running command.
 *
 * The caller's own command runs as they typed it. The profile's runs, when
 * the server is confined and may write somewhere of the user's (`writes()`,
 * known once the launch is prepared), with those paths hidden from it
 * (confinedSampling, sandbox.ts), and the caller is told once which.
 */
export function samplingHandler(
  target: Target,
  options: OpenOptions,
  stop: AbortSignal,
  writes: () => ServerWrites | undefined | Promise<ServerWrites | undefined> = () => undefined,
): ((request: SamplingRequest) => Promise<SamplingResponse>) | undefined {
  const onNotice = options.events?.onNotice;
  const onOverflow = onNotice && (() => void onNotice(SAMPLING_OVERFLOW_NOTICE));
  if (options.sample) {
    return boundedSampler(options.sample, {
      concurrency: SAMPLING_LIMITS.callbackConcurrency,
      onOverflow,
    });
  }
  const command = options.samplingCommand ?? target.samplingCommand;
  if (command === undefined || command === "") return undefined;
  const own = options.samplingCommand !== undefined;
  const cwd = (own ? undefined : target.samplingDir) ?? options.cwd;
  let told = false;
  const onHidden = (paths: string[]) => {
    if (told) return;
    told = true;
    void onNotice?.(
      `the profile's sampling command runs with what the sandboxed server may write hidden ` +
        `from it: ${paths.join(", ")} (see docs/sandbox.md)`,
    );
  };
  return commandSampler(command, {
    cwd,
    env: options.env,
    signal: options.signal ? AbortSignal.any([options.signal, stop]) : stop,
    onOverflow,
    confine: own
      ? undefined
      : async () =>
        await (await import("./sandbox.ts")).confinedSampling(await writes(), {
          dir: cwd,
          env: options.env,
          onHidden,
        }),
  });
}
