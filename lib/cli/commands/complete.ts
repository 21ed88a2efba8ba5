/**
 * `jn complete SOURCE ARG [PARTIAL]`: the server's completions
 * (`completion/complete`) for argument ARG of the prompt or resource
 * template SOURCE names (`?prompt=NAME`, `?resource=TEMPLATE`), the other
 * query keys, `--arg` and `--args` being the arguments already chosen (the
 * context). One
 * `{"type":"completion",…}` record per value on stdout; when the server has
 * more than it sent, a note on stderr.
 *
 * @module
 */

import { collectArgs } from "../../args/collect.ts";
import { complete, completionRef } from "../../client/complete.ts";
import { resolveTarget } from "../../client/resolve.ts";
import { UsageError } from "../../errors.ts";
import { completionRecords } from "../../output/records.ts";
import { withConnection } from "../connect.ts";
import type { Cli } from "../context.ts";
import { printErr } from "../io.ts";
import { RecordSink } from "../record_sink.ts";
import type { Invocation } from "../table/command.ts";
import type { COMPLETE } from "../table/commands.ts";

/** `jn complete SOURCE ARGUMENT [PARTIAL]`. */
export async function run(cli: Cli, call: Invocation<typeof COMPLETE>): Promise<void> {
  const flags = call.options;
  const { source, argument } = call.args;
  const partial = call.args.partial ?? "";
  const { io } = cli;
  const target = await resolveTarget(source, { cwd: io.cwd, env: io.env });
  const ref = completionRef(target);
  if (ref === undefined) {
    throw new UsageError(`Nothing to complete in "${source}"`, {
      hint: "name a prompt (?prompt=NAME) or a resource template (?resource=TEMPLATE)",
    });
  }
  // Syntax errors in --arg/--args are reported before any server starts.
  const context = collectArgs({ query: [], args: flags.args, arg: flags.arg ?? [] });
  const result = await withConnection(
    cli,
    target,
    flags,
    (conn) => complete(conn, argument, partial, { context }),
  );
  const sink = new RecordSink(io.stdout, { kind: "all" });
  for (const record of completionRecords(ref, argument, result)) {
    await sink.write(record);
    if (sink.done) break;
  }
  await sink.end();
  if (result.hasMore && !cli.quiet) {
    const total = result.total === undefined ? "" : ` (${result.total} in all)`;
    await printErr(
      io,
      `jn: the server has more values than these ${result.values.length}${total}; type more of the value to narrow them`,
    );
  }
}
