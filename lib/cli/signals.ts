/**
 * The signals that stop jn — Ctrl-C (SIGINT), SIGTERM, a closed terminal
 * (SIGHUP) and SIGQUIT — for commands that must clean up before exiting.
 *
 * Guarantees: the first signal calls the handler, which aborts the work in
 * progress (the command then cancels its calls, closes its session and ends
 * the server's process tree); by default a second one (any of the four)
 * SIGKILLs every live server tree synchronously and exits at once. Whatever
 * the signal, the exit status is 130, SPEC §6's "interrupted": scripts test
 * one code for "stopped before it finished".
 *
 * One Ctrl-C can arrive twice: the terminal signals its whole foreground
 * process group, and a runner in that group (`deno task`, npm scripts)
 * forwards the signal to its child — jn — again, a few ms later. So the
 * same signal within `DUPLICATE_MS` of the first counts as that first one,
 * not as the second Ctrl-C that ends the graceful teardown (which would
 * skip `notifications/cancelled`). A person's second press comes later.
 *
 * @module
 */

import { killAllServers } from "../client/teardown.ts";
import { ExitCode } from "./exit_codes.ts";
import type { Io, StopSignal } from "./io.ts";

export type { StopSignal };

const STOP_SIGNALS: readonly StopSignal[] = ["SIGHUP", "SIGINT", "SIGQUIT", "SIGTERM"];

/** How soon a repeat of the first signal is taken as the same one delivered twice (ms). */
export const DUPLICATE_MS = 250;

/**
 * Installs the handlers of the four signals — or, for a run whose `io` has
 * interrupts of its own (a command forwarded to a session), of those.
 * Returns the uninstaller.
 */
export function onInterrupt(
  handler: (signal: StopSignal) => void,
  options: { secondExits?: boolean; io?: Io } = {},
): () => void {
  if (options.io?.interrupts) return options.io.interrupts(handler);
  if (Deno.build.os === "windows") return () => {};
  const secondExits = options.secondExits ?? true;
  let first: StopSignal | undefined;
  let firstAt = 0;
  const listeners = STOP_SIGNALS.map((signal) => {
    const listener = () => {
      if (first !== undefined) {
        // The same Ctrl-C, forwarded by a runner such as `deno task`: not a second one.
        if (signal === first && performance.now() - firstAt < DUPLICATE_MS) return;
        if (!secondExits) return;
        // No time for the graceful teardown: every server tree dies now.
        killAllServers();
        Deno.exit(ExitCode.interrupted);
      }
      first = signal;
      firstAt = performance.now();
      handler(signal);
    };
    Deno.addSignalListener(signal, listener);
    return [signal, listener] as const;
  });
  return () => {
    for (const [signal, listener] of listeners) Deno.removeSignalListener(signal, listener);
  };
}
