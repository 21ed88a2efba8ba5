/**
 * A hostile or broken server never breaks jn: against each misbehaviour of
 * tests/fixtures/servers/hostile.mjs, jn ends with one error line (and a
 * hint), the documented exit code, no stack trace, stdout that is exact
 * NDJSON, and no process of the server's tree left alive.
 */

import assert from "node:assert/strict";
import { parseNdjson, runJn, type RunResult } from "../helpers.ts";
import { ALL_ROLES, endTree, hostileUri, readTree, survivors, treeFiles } from "./tree_support.ts";

type Rec = Record<string, unknown>;

/** Runs `jn cat` on a hostile tool with `--tree`; checks the tree is gone and stderr is tidy. */
async function hostile(
  tool: string,
  options: { args?: Record<string, string>; switches?: string[]; flags?: string[] } = {},
): Promise<RunResult> {
  const { dir, pidFile } = await treeFiles();
  try {
    const switches = ["--tree", pidFile, ...options.switches ?? []];
    const uri = hostileUri(tool, { args: options.args, switches });
    const result = await runJn(["cat", uri, ...options.flags ?? []], { timeoutMs: 30_000 });
    const tree = await readTree(pidFile);
    assert.deepEqual(await survivors(tree, ALL_ROLES), [], "orphans survived jn");
    assert.doesNotMatch(result.stderr, /^\s+at /m, "a stack trace");
    assert.doesNotMatch(result.stderr, /internal error/);
    // stdout is exact NDJSON whatever the server sent.
    parseNdjson(result.stdout);
    return result;
  } finally {
    await endTree(pidFile);
    await Deno.remove(dir, { recursive: true });
  }
}

/** The first line of stderr, and that it is the whole error (plus an optional hint). */
function errorLine(result: RunResult): string {
  const lines = result.stderr.trimEnd().split("\n");
  assert.match(lines[0], /^jn: /);
  return lines[0];
}

Deno.test("a result nested too deeply is a protocol error (exit 5)", async () => {
  const result = await hostile("deep_result", { args: { depth: "100000" } });
  assert.equal(result.code, 5, result.stderr);
  assert.equal(result.stdout, "");
  assert.equal(
    errorLine(result),
    'jn: The server sent a malformed answer to tools/call "deep_result": it nests more than 512 levels deep',
  );
});

Deno.test("a result nested within the bound passes whole", async () => {
  const result = await hostile("deep_result", { args: { depth: "400" } });
  assert.equal(result.code, 0, result.stderr);
  const [, structured] = parseNdjson(result.stdout) as Rec[];
  let depth = 0;
  for (
    let value = structured.data as Rec | number;
    typeof value === "object";
    value = value.a as Rec
  ) {
    depth++;
  }
  assert.equal(depth, 400);
});

Deno.test("tool schemas nested too deeply are a protocol error (exit 5)", async () => {
  const result = await hostile("echo", { switches: ["--deep-schema", "1000"] });
  assert.equal(result.code, 5, result.stderr);
  assert.equal(
    errorLine(result),
    "jn: The server sent a malformed answer to tools/list: it nests more than 512 levels deep",
  );
});

Deno.test("a notification nested too deeply ends the session (exit 5)", async () => {
  const result = await hostile("deep_notification", { args: { depth: "100000" } });
  assert.equal(result.code, 5, result.stderr);
  assert.equal(result.stdout, "", "the answer behind the violation is not taken");
  assert.equal(
    errorLine(result),
    "jn: The server sent a message (notifications/message) that nests more than 512 levels deep",
  );
});

Deno.test("a batch nested 100,000 levels deep is a protocol error (exit 5)", async () => {
  const result = await hostile("deep_batch", { args: { depth: "100000" } });
  assert.equal(result.code, 5, result.stderr);
  assert.match(
    errorLine(result),
    /^jn: The server wrote a message that is not JSON-RPC 2\.0: "\[\[\[/,
  );
  assert.doesNotMatch(result.stderr, /RangeError|call stack/);
});

for (
  const [tool, problem] of [
    ["null_result", "the result is null"],
    ["array_result", "the result is an array"],
  ]
) {
  Deno.test(`${tool}: a malformed answer fails the call at once (exit 5, not a timeout)`, async () => {
    const result = await hostile(tool);
    assert.equal(result.code, 5, result.stderr);
    assert.equal(
      errorLine(result),
      `jn: The server sent a malformed answer to tools/call "${tool}": ${problem}`,
    );
    assert.match(result.stderr, /\nhint: /);
  });
}

Deno.test("tools/list answered with result: null is a protocol error (exit 5)", async () => {
  const result = await hostile("echo", { switches: ["--list-result", "null"] });
  assert.equal(result.code, 5, result.stderr);
  assert.equal(
    errorLine(result),
    "jn: The server sent a malformed answer to tools/list: the result is null",
  );
});

Deno.test("an endless flood of progress stops at the hard bound: 10 × --timeout (exit 4)", async () => {
  const result = await hostile("flood", { flags: ["--timeout", "300ms"] });
  assert.equal(result.code, 4, result.stderr);
  assert.equal(result.stdout, "");
  assert.equal(errorLine(result), 'jn: Timed out after 3s waiting for tools/call "flood"');
  assert.match(result.stderr, /\nhint: progress kept coming, but 10 × --timeout is the most/);
});

Deno.test("blank and non-JSON lines on stdout are skipped with one warning", async () => {
  const result = await hostile("noise");
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual((parseNdjson(result.stdout) as Rec[]).map((r) => r.text), ["after noise"]);
  assert.equal(result.stderr.split("\n").filter((line) => line.includes("warning")).length, 1);
});

Deno.test("a 50 MB result on one line passes", async () => {
  const bytes = 50_000_000;
  const result = await hostile("huge", { args: { bytes: String(bytes) } });
  assert.equal(result.code, 0, result.stderr);
  const [record] = parseNdjson(result.stdout) as { text: string }[];
  assert.equal(record.text.length, bytes);
});

Deno.test("a server that dies mid-message is a lost server (exit 4) with its stderr", async () => {
  const { dir, pidFile } = await treeFiles();
  try {
    const uri = hostileUri("exit_mid", { switches: ["--tree", pidFile] });
    const result = await runJn(["cat", uri], { timeoutMs: 30_000 });
    assert.equal(result.code, 4, result.stderr);
    assert.match(
      errorLine(result),
      /^jn: The server "[^"]+" exited with code 1 during tools\/call "exit_mid"$/,
    );
    assert.match(result.stderr, /server stderr \(last lines\):\n[^]* {2}hostile: dying mid-answer/);
    // Its empty-environment setsid'd grandchild is out of reach once the server died.
    const tree = await readTree(pidFile);
    assert.deepEqual(await survivors(tree, ["server", "grandchild", "setsid", "daemon"]), []);
  } finally {
    await endTree(pidFile);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("terminal escapes in everything the server sends stay escaped JSON on stdout", async () => {
  const result = await hostile("chatty", { flags: ["--progress"] });
  assert.equal(result.code, 0, result.stderr);
  assert.ok(!result.stdout.includes("\x1b"), "a raw ESC on stdout");
  const [record] = parseNdjson(result.stdout) as Rec[];
  assert.equal(record.text, "chatty \x1b[31m\x1b]0;pwned\x07\x1b[2J\r\b\u009b1m");
});

Deno.test("a JSON-RPC error whose message carries escapes is one error (exit 5)", async () => {
  const result = await hostile("rpc_error");
  assert.equal(result.code, 5, result.stderr);
  assert.match(
    errorLine(result),
    /^jn: The server answered tools\/call "rpc_error" with error -32000/,
  );
});
