import assert from "node:assert/strict";
import { parseNdjson, runJnHere, tempDir } from "../helpers.ts";
import { fixtureUri, ndjson, readCallLog } from "./put_helpers.ts";

type Rec = Record<string, unknown>;

const echoed = (record: unknown) => JSON.parse((record as { text: string }).text);

Deno.test("jn put keeps input order when the server answers out of order", async (t) => {
  await t.step("a slow first record is still written first", async () => {
    const input = ndjson([{ ms: 400 }, { ms: 0 }, { ms: 0 }]);
    const { code, stdout, stderr } = await runJnHere(["put", "-q", fixtureUri("sleep")], {
      stdin: input,
    });
    assert.equal(stderr, "");
    assert.equal(code, 0);
    const records = parseNdjson(stdout) as Rec[];
    assert.deepEqual(records.map((r) => [r.input, r.text]), [
      [1, "slept 400ms"],
      [2, "slept 0ms"],
      [3, "slept 0ms"],
    ]);
  });

  await t.step("60 records with random delays come back numbered 1…60 in order", async () => {
    const records = Array.from({ length: 60 }, (_, i) => ({ text: `r${i + 1}` }));
    const { code, stdout } = await runJnHere(
      ["put", "-q", "-c", "16", fixtureUri("echo", { switches: ["--random-delay", "25"] })],
      { stdin: ndjson(records) },
    );
    assert.equal(code, 0);
    const out = parseNdjson(stdout) as Rec[];
    assert.deepEqual(out.map((r) => r.input), records.map((_, i) => i + 1));
    assert.deepEqual(out.map((r) => echoed(r).text), records.map((r) => r.text));
    assert.deepEqual(Object.keys(out[0]), [
      "type",
      "input",
      "tool",
      "content_type",
      "text",
    ]);
  });
});

Deno.test("jn put merges URI arguments under each record's fields and never sends _ keys", async () => {
  const dir = await tempDir();
  try {
    const log = `${dir}/calls.ndjson`;
    const uri = fixtureUri("echo", {
      switches: ["--call-log", log],
      args: { text: "default", extra: "from-uri" },
    });
    const input = ndjson([{ text: "mine", _id: 7, _note: { a: 1 } }, { _only: true }]);
    const { code, stdout } = await runJnHere(["put", "-q", "-c", "1", uri], { stdin: input });
    assert.equal(code, 0);
    const out = (parseNdjson(stdout) as Rec[]).map(echoed);
    assert.deepEqual(out, [{ text: "mine", extra: "from-uri" }, {
      text: "default",
      extra: "from-uri",
    }]);
    const calls = await readCallLog(log);
    assert.deepEqual(calls.map((c) => c.arguments), out);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("jn put --json writes the payload with input, wrapping what cannot take it", async () => {
  const input = ndjson([{ text: "a" }, { input: "theirs" }]);
  const { code, stdout } = await runJnHere(["put", "-q", "--json", fixtureUri("echo")], {
    stdin: input,
  });
  assert.equal(code, 0);
  assert.deepEqual(parseNdjson(stdout), [
    { input: 1, text: "a" },
    { input: 2, value: { input: "theirs" } },
  ]);
});

Deno.test("jn put writes a one-line summary on stderr, silenced by --quiet", async () => {
  const input = ndjson([{ text: "a" }, { text: "b" }]);
  const loud = await runJnHere(["put", fixtureUri("echo")], { stdin: input });
  assert.equal(loud.code, 0);
  assert.match(
    loud.stderr,
    /^jn put echo: 2 records, 2 calls, 0 errors in \d+\.\d\ds \(\d+ calls\/s\)\n$/,
  );
  const quiet = await runJnHere(["put", "--quiet", fixtureUri("echo")], { stdin: input });
  assert.equal(quiet.stderr, "");
  assert.equal(quiet.stdout, loud.stdout);
});

Deno.test("jn put with empty input calls nothing and exits 0", async () => {
  const { code, stdout, stderr } = await runJnHere(["put", fixtureUri("echo")], { stdin: "\n \n" });
  assert.equal(code, 0);
  assert.equal(stdout, "");
  assert.match(stderr, /0 records, 0 calls, 0 errors/);
});

Deno.test("jn put refuses bad usage with exit 2 before reading stdin", async (t) => {
  const cases: [string, string[], RegExp][] = [
    [
      "a target naming a resource",
      ["put", fixtureUri("echo").replace("tool=echo", "resource=fixture%3A%2F%2Fx")],
      /Cannot put to ".*": it names a resource, not a tool\nhint: .*\(@server\) it runs the operation each record names/,
    ],
    ["an unknown tool", ["put", fixtureUri("nope")], /Tool "nope" not found/],
    [
      "a bad --concurrency",
      ["put", "-c", "0", fixtureUri("echo")],
      /Invalid -c "0": expected a whole number from 1 to 1024/,
    ],
    ["a target that is neither", ["put", "results.txt"], /Cannot put to "results.txt"/],
    ["a URI without mcp+", ["put", "node://x.js"], /hint: MCP URIs start with "mcp\+"/],
  ];
  for (const [name, args, message] of cases) {
    await t.step(name, async () => {
      const { code, stdout, stderr } = await runJnHere(args, { stdin: ndjson([{ text: "a" }]) });
      assert.equal(code, 2, stderr);
      assert.equal(stdout, "");
      assert.match(stderr, message);
    });
  }
});
