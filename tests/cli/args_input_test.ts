/**
 * Arguments from a file or stdin (`--args @FILE`, `--args -`) for cat, head,
 * tail and complete; `put`, which reads its records from stdin, refuses
 * `--args -`; and a `cat` that was piped the arguments it lacks says where
 * piped records go.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { parseNdjson, runJn, runJnHere, tempDir } from "../helpers.ts";

type Rec = Record<string, unknown>;

Deno.test("--args @FILE and --args - give a call its arguments", async (t) => {
  const dir = await tempDir();
  try {
    await Deno.writeTextFile(join(dir, "call.json"), '{"a": 2, "b": 40}');
    await t.step("@FILE, relative to the working directory", async () => {
      const result = await runJnHere(["cat", "@demo/add", "--args", "@call.json"], { cwd: dir });
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual((parseNdjson(result.stdout) as Rec[])[1], {
        type: "structured_result",
        tool: "add",
        data: { sum: 42 },
      });
    });

    await t.step("- reads stdin (a real pipe)", async () => {
      const result = await runJn(["head", "-n", "1", "@demo/add", "--args", "-"], {
        stdin: '{"a": 1, "b": 2}\n',
      });
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /"text":"\{\\"sum\\":3\}"/);
    });

    await t.step("--arg still wins over --args from a file", async () => {
      const result = await runJnHere(
        ["cat", "--json", "@demo/add", "--args", "@call.json", "--arg", "b=0"],
        { cwd: dir },
      );
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(parseNdjson(result.stdout), [{ sum: 2 }]);
    });

    await t.step("complete reads its context from a file too", async () => {
      await Deno.writeTextFile(join(dir, "ctx.json"), '{"topik": "x"}');
      const result = await runJnHere(
        ["complete", "@demo?prompt=summarize", "topic", "--args", "@ctx.json"],
        { cwd: dir },
      );
      assert.equal(result.code, 2);
      assert.match(result.stderr, /has no argument "topik"/);
    });

    await t.step(
      "a missing file, a directory, bad JSON: usage errors naming the flag",
      async () => {
        const missing = await runJnHere(["cat", "@demo/add", "--args", "@nope.json"], { cwd: dir });
        assert.equal(missing.code, 2);
        assert.equal(
          missing.stderr.split("\n")[0],
          "jn: Cannot read --args @nope.json: no such file",
        );
        const folder = await runJnHere(["cat", "@demo/add", "--args", `@${dir}`]);
        assert.equal(folder.code, 2);
        assert.match(folder.stderr, /^jn: Cannot read --args @.*: it is not a regular file\n/);
        await Deno.writeTextFile(join(dir, "bad.json"), "[1, 2]");
        const bad = await runJnHere(["cat", "@demo/add", "--args", "@bad.json"], { cwd: dir });
        assert.equal(bad.code, 2);
        assert.match(bad.stderr, /Invalid --args "\[1, 2\]": expected a JSON object, got an array/);
      },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("put reads its records from stdin: --args - is a usage error there", async () => {
  const result = await runJnHere(["put", "@demo/echo", "--args", "-"], { stdin: '{"text":"a"}\n' });
  assert.equal(result.code, 2);
  assert.equal(result.stdout, "");
  assert.equal(
    result.stderr,
    "jn: --args - cannot read stdin: jn put reads the NDJSON records to call with there\n" +
      "hint: give --args @FILE, or the JSON itself\n",
  );
});

Deno.test("cat says that jn put reads NDJSON when piped records miss required arguments", async (t) => {
  await t.step("a real pipe: one hint line", async () => {
    const result = await runJn(["cat", "@demo/add"], { stdin: '{"a":2}\n' });
    assert.equal(result.code, 2);
    assert.equal(
      result.stderr,
      `jn: Invalid arguments for tool "add": a is required; b is required\n` +
        `hint: jn put reads NDJSON from stdin (… | jn put "@demo/add"); ` +
        "jn cat reads one object with --args -\n",
    );
  });
  await t.step("nothing piped (stdin closed): no hint", async () => {
    const result = await runJn(["cat", "@demo/add"]);
    assert.equal(result.code, 2);
    assert.equal(
      result.stderr,
      `jn: Invalid arguments for tool "add": a is required; b is required\n`,
    );
  });
});
