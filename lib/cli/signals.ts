/**
 * Ctrl-C and SIGTERM for commands that must clean up before exiting: the
 * first signal calls the handler (which aborts the work in progress); by
 * default a second one exits at once with 130.
 *
 * @module
 */

/** Installs SIGINT/SIGTERM handlers. Returns the uninstaller. */
export function onInterrupt(
  handler: (signal: "SIGINT" | "SIGTERM") => void,
  options: { secondExits?: boolean } = {},
): () => void {
  if (Deno.build.os === "windows") return () => {};
  const secondExits = options.secondExits ?? true;
  let count = 0;
  const listeners = (["SIGINT", "SIGTERM"] as const).map((signal) => {
    const listener = () => {
      count++;
      if (count > 1 && secondExits) Deno.exit(130);
      handler(signal);
    };
    Deno.addSignalListener(signal, listener);
    return [signal, listener] as const;
  });
  return () => {
    for (const [signal, listener] of listeners) Deno.removeSignalListener(signal, listener);
  };
}
