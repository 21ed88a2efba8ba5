/**
 * Sampling through a command (`--sampling-command CMD`, a profile's
 * `sampling_command`): for each `sampling/createMessage` request, jn runs
 * `sh -c CMD` in the caller's directory with the caller's environment, writes
 * the request's params as one line of JSON to its stdin, and answers with its
 * stdout as the text of the assistant's message (one trailing newline
 * removed; model `jn-sampling-command`). A non-zero exit refuses the request
 * (the server gets a JSON-RPC error). The command's stderr is the caller's.
 *
 * A shell, not an argv split: the command is the user's own line (a pipeline,
 * a quoted prompt, `llm -m MODEL`), from their flag or a profile they wrote
 * or trusted (a project profile cannot set it before `jn profile trust`,
 * which covers every field of `_meta.json`).
 *
 * Guarantees: the command runs in a process group of its own, ended (SIGTERM)
 * when the signal aborts (Ctrl-C, a timeout, the connection closing) and
 * SIGKILLed once the command exits or jn exits, so nothing it started (a
 * pipeline, a background job) outlives it; stdout beyond 16 MiB refuses the
 * request instead of growing jn's memory; requests are answered one at a time, in order.
 *
 * @module
 */

import { spawn } from "node:child_process";
import process from "node:process";
import { trackTree } from "../session/live_trees.ts";
import type { SamplingRequest, SamplingResponse } from "../types.ts";
import type { OpenOptions } from "./options.ts";
import type { Target } from "./resolve.ts";

/** The model name of answers from a sampling command. */
export const SAMPLING_COMMAND_MODEL = "jn-sampling-command";

const MAX_OUTPUT = 16 * 1024 * 1024;

/** Options of {@linkcode commandSampler}. */
export interface CommandSamplerOptions {
  /** Where the command runs. */
  cwd: string;
  /** Its environment. */
  env: Record<string, string>;
  /** Aborting it ends a command that is running. */
  signal?: AbortSignal;
}

/** A sampling handler that runs `command` through `sh -c` for each request. */
export function commandSampler(
  command: string,
  options: CommandSamplerOptions,
): (request: SamplingRequest) => Promise<SamplingResponse> {
  let queue: Promise<unknown> = Promise.resolve();
  return (request) => {
    const answer = queue.then(() => runOnce(command, request, options));
    queue = answer.catch(() => {});
    return answer;
  };
}

async function runOnce(
  command: string,
  request: SamplingRequest,
  options: CommandSamplerOptions,
): Promise<SamplingResponse> {
  options.signal?.throwIfAborted();
  // A process group of its own: ending the command ends its pipeline and what it left behind.
  const child = spawn("/bin/sh", ["-c", command], {
    cwd: options.cwd,
    env: options.env,
    stdio: ["pipe", "pipe", "inherit"],
    detached: true,
  });
  const group = child.pid;
  const untrack = trackTree({ killNow: () => signalGroup(group, "SIGKILL") });
  const onAbort = () => signalGroup(group, "SIGTERM");
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
    const bytes = new Uint8Array(size);
    let at = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, at);
      at += chunk.length;
    }
    const text = new TextDecoder().decode(bytes).replace(/\r?\n$/, "");
    return {
      role: "assistant",
      content: { type: "text", text },
      model: SAMPLING_COMMAND_MODEL,
      stopReason: "endTurn",
    };
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
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
 */
export function samplingHandler(
  target: Target,
  options: OpenOptions,
  stop: AbortSignal,
): ((request: SamplingRequest) => Promise<SamplingResponse>) | undefined {
  if (options.sample) return options.sample;
  const command = options.samplingCommand ?? target.samplingCommand;
  if (command === undefined || command === "") return undefined;
  return commandSampler(command, {
    cwd: options.cwd,
    env: options.env,
    signal: options.signal ? AbortSignal.any([options.signal, stop]) : stop,
  });
}
