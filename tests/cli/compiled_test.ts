/**
 * The compiled tables (lib/cli/table/compiled.ts, compiled_help.ts), which
 * start-up reads instead of the tables' modules, are what `deno task
 * tables` makes of the tables now: a change to a command, a flag, a help
 * footer, a launcher or a query key without regenerating them fails here.
 * And what jn prints for `--help` and `help CMD` is lib/cli/help.ts's text.
 */

import assert from "node:assert/strict";
import { helpText } from "../../lib/cli/help.ts";
import { helpFor } from "../../lib/cli/table/compiled_help.ts";
import { TABLES } from "../../lib/cli/table/tables.ts";
import { compiledFiles } from "../../scripts/tables.ts";
import { ROOT } from "../helpers.ts";

Deno.test("the compiled tables are up to date (else: deno task tables)", async () => {
  for (const [path, text] of Object.entries(compiledFiles())) {
    const current = await Deno.readTextFile(`${ROOT}/${path}`);
    assert.ok(current === text, `${path} is stale: run deno task tables`);
  }
});

Deno.test("the compiled help of jn, each group and each command is help.ts's", () => {
  const paths = [[], ...TABLES.groups.map((g) => g.path), ...TABLES.commands.map((c) => c.path)];
  for (const path of paths) assert.equal(helpFor(path), helpText(path, TABLES), path.join(" "));
  assert.throws(() => helpFor(["nope"]), /No help for "nope"/);
});
