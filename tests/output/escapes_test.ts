/**
 * Server text reaches the terminal only with its control characters made
 * visible (SPEC §7), on every path jn renders it, black-box against
 * tests/fixtures/servers/escapes.mjs; NDJSON stays exact JSON.
 */

import assert from "node:assert/strict";
import { permissionFlags } from "../../lib/sandbox/permissions.ts";
import { FIXTURES, MAIN, parseNdjson, ROOT, runJnHere } from "../helpers.ts";

const SERVER = `mcp+node://${FIXTURES}/servers/escapes.mjs`;
const HOSTILE = "\x1b]0;pwned\x07\x1b[31mred\r\x9b2J\u202eevil\u2066\x7f";
/** HOSTILE as jn shows it. */
const SHOWN = String.raw`\x1b]0;pwned\x07\x1b[31mred\x0d\x9b2J\u202eevil\u2066\x7f`;
/** Anything a terminal would act on, newline and tab aside. */
const RAW_CONTROL =
  // deno-lint-ignore no-control-regex
  /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

function assertSafe(text: string, where: string): void {
  const match = RAW_CONTROL.exec(text);
  assert.equal(
    match,
    null,
    `${where}: raw U+${match?.[0].charCodeAt(0).toString(16).padStart(4, "0")} in ${
      JSON.stringify(text.slice(Math.max(0, (match?.index ?? 0) - 40), (match?.index ?? 0) + 40))
    }`,
  );
}

Deno.test("inspect's text shows every server string with its controls visible", async () => {
  const { code, stdout, stderr } = await runJnHere(["inspect", SERVER]);
  assert.equal(code, 0, stderr);
  assertSafe(stdout, "stdout");
  assertSafe(stderr, "stderr");
  for (
    const shown of [
      `Instructions ${SHOWN}`,
      `log ${SHOWN}`,
      `second line ${SHOWN}`,
      `p: param ${SHOWN}`,
      `evil${SHOWN}()`,
      `resource ${SHOWN}`,
      `template ${SHOWN}`,
      `prompt ${SHOWN}`,
    ]
  ) {
    assert.ok(stdout.includes(shown), `missing ${JSON.stringify(shown)} in:\n${stdout}`);
  }
});

Deno.test("inspect --format json is exact JSON with no raw control for a terminal", async () => {
  const { code, stdout, stderr } = await runJnHere(["inspect", SERVER, "--format", "json"]);
  assert.equal(code, 0, stderr);
  assertSafe(stdout, "stdout");
  const inventory = JSON.parse(stdout);
  assert.equal(inventory.instructions, `Instructions ${HOSTILE}`, "the value is unchanged");
  assert.ok(inventory.tools.some((t: { name: string }) => t.name === `evil${HOSTILE}`));
});

Deno.test("cat's NDJSON keeps the server's text exactly, escaped for a terminal", async () => {
  const { code, stdout, stderr } = await runJnHere(["cat", `${SERVER}?list=tools`]);
  assert.equal(code, 0, stderr);
  assertSafe(stdout, "stdout");
  const records = parseNdjson(stdout) as { name: string; description: string }[];
  assert.equal(
    records.find((r) => r.name === "log")?.description,
    `log ${HOSTILE}\nsecond line ${HOSTILE}`,
  );
});

Deno.test("what a server sends during a call reaches stderr made visible", async (t) => {
  const cases: [string, string[], number, string[]][] = [
    ["log notifications", ["cat", `${SERVER}?tool=log`], 0, [`warning esc: log ${SHOWN}`]],
    [
      "progress messages (--progress)",
      ["cat", `${SERVER}?tool=progress`, "--progress"],
      0,
      [`progress 1/2 step ${SHOWN}`, `progress 2/2 step ${SHOWN}`],
    ],
    [
      "a JSON-RPC error message",
      ["cat", `${SERVER}?tool=fail`],
      5,
      [`with error -32000: fail ${SHOWN}`],
    ],
    ["an isError result", ["cat", `${SERVER}?tool=is_error`], 1, [
      `with an error: is_error ${SHOWN}`,
    ]],
    [
      "an elicitation request without a terminal",
      ["cat", `${SERVER}?tool=elicit`],
      0,
      [`asked: elicit ${SHOWN}`],
    ],
    [
      "an elicitation request with --elicit accept-defaults",
      ["cat", `${SERVER}?tool=elicit`, "--elicit", "accept-defaults"],
      0,
      [`asked: elicit ${SHOWN} — accepted the defaults`],
    ],
    [
      "a URL elicitation",
      ["cat", `${SERVER}?tool=elicit_url`],
      0,
      [`open ${SHOWN}`, "asks you to open https://example.com/page"],
    ],
    [
      "a URL elicitation whose URL holds control characters",
      ["cat", `${SERVER}?tool=elicit_bad_url`],
      0,
      ["declined the server's request to open a URL: it contains control characters"],
    ],
    [
      "non-JSON noise on stdout",
      ["cat", `${SERVER}?tool=noise`],
      0,
      [String
        .raw`(ignored): "noise \u001b]0;pwned\u0007\u001b[31mred\r\x9b2J\u202eevil\u2066\x7f"`],
    ],
    [
      "the last stderr lines of a server that exited",
      ["cat", `${SERVER}?command=exit&tool=log`],
      4,
      [`  stderr:${SHOWN}\n`, `  last words ${SHOWN}\n`],
    ],
    [
      "server stderr and the protocol log (--debug)",
      ["--debug", "cat", `${SERVER}?tool=log`],
      0,
      [`] stderr:${SHOWN}`, String.raw`"instructions":"Instructions \u001b]0;pwned\u0007`],
    ],
  ];
  for (const [name, args, exit, expected] of cases) {
    await t.step(name, async () => {
      const { code, stderr, stdout } = await runJnHere(args);
      assert.equal(code, exit, stderr);
      assertSafe(stderr, "stderr");
      assertSafe(stdout, "stdout");
      for (const text of expected) {
        assert.ok(stderr.includes(text), `missing ${JSON.stringify(text)} in:\n${stderr}`);
      }
    });
  }
});

Deno.test("jn filter shows a record's controls visible in its messages, exact JSON out", async () => {
  const record = JSON.stringify({ a: HOSTILE });
  const { code, stdout, stderr } = await runJnHere(["filter", ".a, error(.a), (.a | stderr)"], {
    stdin: `${record}\n`,
  });
  assert.equal(code, 1, stderr);
  assertSafe(stdout, "stdout");
  assertSafe(stderr, "stderr");
  assert.equal(JSON.parse(stdout), HOSTILE);
  assert.ok(stderr.includes(`jn: filter: line 1: ${SHOWN}`), stderr);
});

Deno.test({
  name: "on a terminal the elicitation prompt shows the server's text made visible",
  ignore: Deno.build.os === "windows",
  async fn() {
    const answers = [["Title", "Ada"], ["Colour", "1"], ["Send", "y"]];
    const output = await new Deno.Command("python3", {
      args: [
        `${ROOT}/tests/remote/pty_run.py`,
        JSON.stringify(answers),
        "--",
        Deno.execPath(),
        "run",
        ...permissionFlags(),
        MAIN,
        "cat",
        `${SERVER}?tool=elicit`,
      ],
      cwd: ROOT,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const run = JSON.parse(new TextDecoder().decode(output.stdout));
    assert.equal(run.code, 0, run.output);
    // The terminal itself turns each newline into CR LF.
    const text = run.output.replaceAll("\r\n", "\n");
    assertSafe(text, "terminal");
    for (
      const shown of [
        `asks: elicit ${SHOWN}`,
        `Desc ${SHOWN}`,
        `1) Choice ${SHOWN}`,
        `Title ${SHOWN}* [Def ${SHOWN}]`,
      ]
    ) {
      assert.ok(text.includes(shown), `missing ${JSON.stringify(shown)} in:\n${text}`);
    }
    const record = text.split("\n").find((line: string) => line.startsWith("{"));
    assert.deepEqual(JSON.parse(JSON.parse(record).text).result, {
      action: "accept",
      content: { name: "Ada", color: "a" },
    });
  },
});
