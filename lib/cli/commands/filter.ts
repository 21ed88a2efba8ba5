/**
 * `jn filter EXPR`: a jq expression over each NDJSON record on stdin, with
 * the jq embedded in jn (lib/filter/jq.ts, loaded on demand), so no jq needs
 * installing. Outputs are compact JSON lines exactly as `jq -c EXPR` prints
 * them, in input order.
 *
 * Errors: a bad expression is exit 2 with jq's message. A record on which
 * the expression raises an error, and a line that is not JSON, are reported
 * on stderr as `jn: filter: line N: MESSAGE` and the run goes on (jq would
 * stop at a bad line; jn keeps every other record); the exit status is then
 * 1. `halt` ends the run with 0, `halt_error` with jq's exit code and
 * message. `$ENV` and `env` are jn's environment, as in jq. A closed stdout
 * (`… | head -1`) stops reading and exits 0.
 *
 * Records may come from a server: messages quoting them, and what `debug`,
 * `stderr` and `halt_error` write, reach stderr with their control
 * characters made visible; outputs are exact JSON with the characters a
 * terminal would act on escaped (lib/output/visible.ts).
 *
 * @module
 */

import type { Cli, Outcome } from "../context.ts";
import type { Invocation } from "../table/command.ts";
import type { FILTER } from "../table/commands.ts";

/** `jn filter EXPR` over stdin. */
export async function run(cli: Cli, call: Invocation<typeof FILTER>): Promise<Outcome> {
  const { io } = cli;
  const expr = call.args.expr;
  const [
    { compileJq },
    { readLineBatches },
    { NdjsonWriter },
    { printErr },
    { jsonSafe, visible },
  ] = await Promise.all([
    import("../../filter/jq.ts"),
    import("../../ndjson/read.ts"),
    import("../../ndjson/write.ts"),
    import("../io.ts"),
    import("../../output/visible.ts"),
  ]);
  const filter = await compileJq(expr, { env: io.env });
  const { noteTerminalStdin } = await import("../stdin_hint.ts");
  await noteTerminalStdin(io, "filter", "jn cat SOURCE | jn filter EXPR");
  const out = new NdjsonWriter(io.stdout);
  const warn = (text: string) => printErr(io, visible(text));
  const failed = (line: number, message: string) =>
    printErr(io, `jn: filter: line ${line}: ${visible(message, { oneLine: true })}`);
  let failures = 0;
  for await (const event of filter.stream(readLineBatches(io.stdin))) {
    switch (event.kind) {
      case "output":
        out.push(jsonSafe(event.json) + "\n");
        break;
      case "error":
        failures++;
        await failed(event.line, event.message);
        break;
      case "invalid":
        failures++;
        await failed(event.line, event.message);
        break;
      case "stderr":
        await out.flush();
        await warn(event.text);
        break;
      case "halt":
        await out.flush();
        if (event.stderr !== "") await warn(event.stderr);
        return { halt: event.exitCode };
    }
    const pressure = out.ready();
    if (pressure !== undefined) await pressure;
    if (out.closed) break;
  }
  await out.flush();
  if (out.closed) return "ok";
  return failures > 0 ? "failed_records" : "ok";
}
