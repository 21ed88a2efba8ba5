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
 * Guarantees: the command is ended (SIGTERM) when the signal aborts (Ctrl-C,
 * the connection closing); stdout beyond 16 MiB refuses the request instead
 * of growing jn's memory; requests are answered one at a time, in order.
 *
 * @module
 */

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
  const child = new Deno.Command("/bin/sh", {
    args: ["-c", command],
    cwd: options.cwd,
    env: options.env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
    signal: options.signal,
  }).spawn();
  const writing = (async () => {
    const writer = child.stdin.getWriter();
    try {
      await writer.write(new TextEncoder().encode(`${JSON.stringify(request)}\n`));
      await writer.close();
    } catch { /* the command need not read its stdin */ }
  })();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let tooLong = false;
  for await (const chunk of child.stdout) {
    size += chunk.length;
    if (size > MAX_OUTPUT) {
      tooLong = true;
      try {
        child.kill("SIGTERM");
      } catch { /* already gone */ }
      break;
    }
    chunks.push(chunk);
  }
  const status = await child.status;
  await writing;
  if (tooLong) throw new Error(`the sampling command wrote more than ${MAX_OUTPUT} bytes`);
  if (!status.success) {
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
