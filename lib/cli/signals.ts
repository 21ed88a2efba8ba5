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
 * @module
 */

import { killAllTrees } from "../session/live_trees.ts";
import { ExitCode } from "./exit_codes.ts";

/** A signal that interrupts jn. */
export type StopSignal = "SIGINT" | "SIGTERM" | "SIGHUP" | "SIGQUIT";

const STOP_SIGNALS: readonly StopSignal[] = ["SIGHUP", "SIGINT", "SIGQUIT", "SIGTERM"];

/** Installs the handlers of the four signals. Returns the uninstaller. */
export function onInterrupt(
  handler: (signal: StopSignal) => void,
  options: { secondExits?: boolean } = {},
): () => void {
  if (Deno.build.os === "windows") return () => {};
  const secondExits = options.secondExits ?? true;
  let first: StopSignal | undefined;
  const listeners = STOP_SIGNALS.map((signal) => {
    const listener = () => {
      if (first !== undefined) {
        if (!secondExits) return;
        // No time for the graceful teardown: every server tree dies now.
        killAllTrees();
        Deno.exit(ExitCode.interrupted);
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
