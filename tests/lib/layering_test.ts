/**
 * The layering of issue #13 stays true: `mod.ts` (the library) loads no
 * module of `lib/cli`, jn's modules import each other
 * without cycles and never back up a layer, and a module over 300 lines
 * says why at its top. Measured by scripts/import_graph.ts, the same
 * script README's "Project layout" names.
 */

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));

Deno.test("the import graph keeps its layers", async (t) => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", "--allow-run", "scripts/import_graph.ts"],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));

  await t.step("mod.ts loads no lib/cli", () => {
    assert.match(text, /^mod\.ts: \d+ jn modules; lib\/cli modules: 0;/m);
    // The measurement can see lib/cli at all: main.ts does load it.
    assert.match(text, /^main\.ts: \d+ jn modules; lib\/cli modules: [1-9]\d*;/m);
  });

  await t.step("no import cycles", () => {
    assert.match(text, /^cycles: 0$/m, text);
  });

  await t.step("no import runs back up a layer, and no module is unranked", () => {
    assert.match(text, /^upward imports: 0$/m, text);
    assert.doesNotMatch(text, /^unranked:/m);
  });

  await t.step("a module over 300 lines states why", () => {
    const section = text.split("modules over 300 lines:")[1]?.split("\n\n")[0] ?? "";
    const long = section.split("\n").slice(1).filter((line) => line.trim() !== "");
    for (const line of long) assert.match(line, /\(reason stated\)$/, line);
  });
});
