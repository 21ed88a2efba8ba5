/**
 * `jn put FILE.json|FILE.ndjson|FILE.jsonl`: stdin's records into a file,
 * atomically (see lib/client/put_file.ts).
 *
 * Exit status: 0 when the file was written; 1 when a line is not JSON (the
 * file is not written, an existing one is untouched; stderr names the line);
 * 2 when the file cannot be written (a symlink, a directory, a name too long,
 * a missing directory, a read-only or full file system: nothing is left
 * behind); 130 on Ctrl-C/SIGTERM (nothing written).
 *
 * @module
 */

import { InterruptedError } from "../errors.ts";
import { writeRecordsFile } from "../client/put_file.ts";
import { readLineBatches } from "../ndjson/read.ts";
import type { FileFormat } from "../client/put_target.ts";
import { visible } from "../output/visible.ts";
import { style } from "../output/style.ts";
import { printErr, useColor } from "./io.ts";
import type { Cli, Outcome } from "./context.ts";
import { onInterrupt } from "./signals.ts";

/** Writes stdin's records to `path`. */
export async function runPutFile(
  cli: Cli,
  path: string,
  options: { format: FileFormat },
): Promise<Outcome> {
  const { io } = cli;
  const abort = new AbortController();
  // A second signal must not exit before the temporary file is removed.
  const stopSignals = onInterrupt((signal) => abort.abort(new InterruptedError(signal)), {
    secondExits: false,
  });
  const started = performance.now();
  try {
    const result = await writeRecordsFile(
      readLineBatches(io.stdin, { signal: abort.signal }),
      path,
      { format: options.format, signal: abort.signal },
    );
    const s = style(useColor(io));
    switch (result.kind) {
      case "interrupted":
        throw abort.signal.reason ?? new InterruptedError();
      case "invalid":
        await printErr(
          io,
          `${s.red("jn:")} Line ${result.line} of stdin is not JSON, "${path}" was not written: ${
            visible(result.message, { oneLine: true })
          }\n${s.cyan("hint:")} each line must be one JSON value (NDJSON)`,
        );
        return "failed_records";
      case "written": {
        if (cli.quiet) return "ok";
        const seconds = ((performance.now() - started) / 1000).toFixed(2);
        const records = result.records === 1 ? "1 record" : `${result.records} records`;
        await printErr(io, s.dim(`jn put: ${records} written to ${path} in ${seconds}s`));
        return "ok";
      }
    }
  } finally {
    stopSignals();
  }
}
