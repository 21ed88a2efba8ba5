/**
 * A newcomer's checks: the examples `jn --help` and `jn help complete` print
 * run as pasted from the repository root (those that need no network), and
 * the `complete` help says what it prints.
 *
 * @module
 */

import assert from "node:assert/strict";
import { baseEnv, MAIN, ROOT, runJn, runJnHere } from "../helpers.ts";
import { permissionFlags } from "../../lib/sandbox/permissions.ts";

/** The `  jn …` lines after "Examples:" in a help text. */
function examples(help: string): string[] {
  const after = help.split("\nExamples:\n")[1] ?? "";
  return after.split("\n").filter((line) => line.startsWith("  jn ")).map((line) => line.trim());
}

/** Runs one example line in sh from the repository root, `jn` being this checkout. */
async function runExample(line: string): Promise<{ code: number; stderr: string }> {
  const jn = [Deno.execPath(), "run", "--config", `${ROOT}/deno.json`, ...permissionFlags(), MAIN]
    .map((word) => `'${word}'`).join(" ");
  const output = await new Deno.Command("sh", {
    args: ["-c", `jn() { ${jn} "$@"; }\n${line}`],
    cwd: ROOT,
    env: baseEnv(),
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  return { code: output.code, stderr: new TextDecoder().decode(output.stderr) };
}

for (const command of ["", "complete"]) {
  Deno.test(`the offline examples of 'jn ${command ? `help ${command}` : "--help"}' run as pasted`, async (t) => {
    const help = await runJn(command === "" ? ["--help"] : ["help", command]);
    assert.equal(help.code, 0, help.stderr);
    const lines = examples(help.stdout).filter((line) => !/mcp\+(npx|uvx|https?):/.test(line));
    assert.ok(lines.length >= 2, `examples in:\n${help.stdout}`);
    for (const line of lines) {
      await t.step(line, async () => {
        const { code, stderr } = await runExample(line);
        assert.equal(code, 0, stderr);
      });
    }
  });
}

Deno.test("'jn help complete' names the record it prints", async () => {
  const help = await runJn(["help", "complete"]);
  assert.match(help.stdout, /\{"type":"completion",/);
});

Deno.test("several violations: one line and a hint; a typo's hint skips names already given", async () => {
  const { code, stderr } = await runJnHere(["cat", "@demo/add?a=two&c=1"]);
  assert.equal(code, 2, stderr);
  assert.match(stderr, /^jn: Invalid arguments for tool "add": [^\n]+\nhint: [^\n]+\n$/);
  assert.match(stderr, /c is unknown: did you mean "b"\?; b is required; a must be number/);
});

Deno.test("reading a resource template as is hints at filling in its variables", async () => {
  const { code, stderr } = await runJnHere(["cat", "@demo?resource=demo://items/{id}"]);
  assert.equal(code, 5, stderr);
  assert.match(stderr, /\nhint: that is a resource template: give each \{…\} a value/);
});
