/**
 * The signals that stop jn — Ctrl-C (SIGINT), SIGTERM, a closed terminal
 * (SIGHUP) and SIGQUIT — for commands that must clean up before exiting.
 *
 * Guarantees: the first signal calls the handler, which aborts the work in
 * progress (the command then cancels its calls, closes its session and ends
 * the server's process tree); by default a second one (any of the four)
 * SIGKILLs every live server tree synchronously and exits at once. The exit
 * status is 128 + the number of the first signal, as a shell reports a
 * process killed by it: 130 for SIGINT (SPEC §6 "interrupted"), 129 for
 * SIGHUP, 131 for SIGQUIT, 143 for SIGTERM.
 *
 * @module
 */

import { killAllTrees } from "../session/live_trees.ts";

/** A signal that interrupts jn. */
export type StopSignal = "SIGINT" | "SIGTERM" | "SIGHUP" | "SIGQUIT";

const SIGNAL_NUMBERS: Record<StopSignal, number> = {
  SIGHUP: 1,
  SIGINT: 2,
  SIGQUIT: 3,
  SIGTERM: 15,
};

/** The exit status of a run stopped by `signal` (128 + its number). */
export function signalExitCode(signal: StopSignal): number {
  return 128 + SIGNAL_NUMBERS[signal];
}

/** Installs the handlers of the four signals. Returns the uninstaller. */
export function onInterrupt(
  handler: (signal: StopSignal) => void,
  options: { secondExits?: boolean } = {},
): () => void {
  if (Deno.build.os === "windows") return () => {};
  const secondExits = options.secondExits ?? true;
  let first: StopSignal | undefined;
  const listeners = (Object.keys(SIGNAL_NUMBERS) as StopSignal[]).map((signal) => {
    const listener = () => {
      if (first !== undefined) {
        if (!secondExits) return;
        // No time for the graceful teardown: every server tree dies now.
        killAllTrees();
        Deno.exit(signalExitCode(first));
      }
      first = signal;
      handler(signal);
    };
    Deno.addSignalListener(signal, listener);
    return [signal, listener] as const;
  });
  return () => {
    for (const [signal, listener] of listeners) Deno.removeSignalListener(signal, listener);
  };
}
