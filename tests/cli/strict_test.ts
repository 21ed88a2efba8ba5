/**
 * Strict means strict (#15): a mistake the user can fix is a usage error
 * (exit 2) with one line saying what was wrong and a hint with what to type,
 * never a protocol failure leaking the SDK's own words. The command's own
 * checks run jn in-process (runJnHere); what passes through main.ts (help,
 * unknown commands) and the terminal checks start jn.
 */

import assert from "node:assert/strict";
import { MAIN, ROOT, runJn, runJnHere } from "../helpers.ts";

const DEMO = `mcp+deno://${ROOT}/tests/fixtures/demo_server_main.ts`;

Deno.test("--protocol with a 2025 revision is a one-line usage error listing the accepted values", async () => {
  const result = await runJnHere(["inspect", "--protocol", "2025-11-25", DEMO]);
  assert.equal(result.code, 2, result.stderr);
  assert.equal(result.stdout, "");
  assert.match(result.stderr, /Invalid --protocol "2025-11-25": .*2025-era/);
  assert.match(result.stderr, /hint: accepted: auto, legacy .* 2026-07-28/);
  assert.doesNotMatch(result.stderr, /versionNegotiation/);
});

Deno.test("a plain https:// source is a usage error with the mcp+ string to paste", async () => {
  const result = await runJnHere(["inspect", "https://example.com/mcp"]);
  assert.equal(result.code, 2, result.stderr);
  assert.match(result.stderr, /hint: to reach this server, write mcp\+https:\/\/example\.com\/mcp/);
});

const SCRIPT = "/usr/bin/script";
const hasScript = await Deno.stat(SCRIPT).then(() => true, () => false);
if (!hasScript) {
  // deno-lint-ignore no-console
  console.error(
    `SKIPPED: put/filter terminal-stdin tests need ${SCRIPT} (apt-get install bsdutils)`,
  );
}

/** Runs `jn ARGS…` with stdin on a pseudo-terminal (via script(1)); returns the terminal's text. */
async function onTerminal(args: string[]): Promise<string> {
  const jn = [Deno.execPath(), "run", "-A", "--config", `${ROOT}/deno.json`, MAIN, ...args]
    .map((word) => `'${word}'`).join(" ");
  const child = new Deno.Command(SCRIPT, {
    args: ["-qec", jn, "/dev/null"],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode('{"a":1}\n\x04'));
  await writer.close();
  const out = await child.output();
  return new TextDecoder().decode(out.stdout);
}

Deno.test({
  name: "filter and put on a terminal say they read NDJSON from stdin",
  ignore: !hasScript,
  fn: async (t) => {
    await t.step("filter", async () => {
      const text = await onTerminal(["filter", ".a"]);
      assert.match(text, /jn: filter: reading NDJSON records from stdin/);
      assert.match(text, /hint: pipe records in, e\.g\. jn cat SOURCE \| jn filter EXPR/);
    });
    await t.step("put", async () => {
      const dir = await Deno.makeTempDir();
      try {
        const text = await onTerminal(["put", `${dir}/out.ndjson`]);
        assert.match(text, /jn: put: reading NDJSON records from stdin/);
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    });
  },
});

Deno.test("a mistyped profile name suggests the closest one", async () => {
  const result = await runJnHere(["inspect", "@dmeo"]);
  assert.notEqual(result.code, 0);
  assert.match(result.stderr, /Profile "@dmeo" not found/);
  assert.match(result.stderr, /hint: did you mean @demo\?/);
});

Deno.test("a mistyped tool name suggests the closest one", async () => {
  const result = await runJnHere(["cat", `${DEMO}?tool=tpyes_demo`]);
  assert.equal(result.code, 2, result.stderr);
  assert.match(result.stderr, /Tool "tpyes_demo" not found/);
  assert.match(result.stderr, /hint: did you mean "types_demo"/);
});

Deno.test("mistyped commands, subcommands and options suggest the closest one", async (t) => {
  const cases: [string[], RegExp][] = [
    [["catt", "@demo"], /^jn: Unknown command "catt"\nhint: did you mean 'jn cat'\?/],
    [["profile", "lst"], /^jn: Unknown command "lst"\nhint: did you mean 'jn profile list'\?/],
    [
      ["cat", "--jsn", "@demo"],
      /^jn: Unknown option "--jsn"\nhint: did you mean --json\? \(see 'jn help cat'\)/,
    ],
    [["catt", "--help"], /^jn: Unknown command "catt"\nhint: did you mean 'jn cat'\?/],
    [
      ["profile", "lst", "--help"],
      /^jn: Unknown command "lst"\nhint: did you mean 'jn profile list'\?/,
    ],
    [["help", "inspcet"], /^jn: Unknown command "inspcet"\nhint: did you mean 'jn help inspect'\?/],
  ];
  for (const [args, expected] of cases) {
    await t.step(args.join(" "), async () => {
      const result = await runJn(args);
      assert.equal(result.code, 2, result.stderr);
      assert.equal(result.stdout, "");
      assert.match(result.stderr, expected);
    });
  }
});

Deno.test("inspect and cat help end with the query keys and examples", async (t) => {
  for (const command of ["inspect", "cat"]) {
    await t.step(command, async () => {
      const result = await runJn([command, "--help"]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /\nQuery keys \(SOURCE\?key=value&…\):\n {2}tool=NAME/);
      assert.match(result.stdout, /goes in --arg KEY=VALUE\n\nExamples:\n {2}jn \w+ [^\n]*@demo/);
      assert.match(result.stdout, /\n {2}jn [^\n]+\n$/, "the help ends with an example");
    });
  }
});

Deno.test("a mistyped profile tool name suggests the profile's own tool", async () => {
  const result = await runJnHere(["cat", "@demo/itms"]);
  assert.equal(result.code, 2, result.stderr);
  assert.match(
    result.stderr,
    /Tool "itms" not found on server "@demo"\nhint: did you mean "items"\?/,
  );
});
