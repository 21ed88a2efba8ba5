/**
 * What a server names and counts reaches jn's own lines and records only as
 * jn documents them: a prompt name with a newline cannot break a one-line
 * hint (docs/output.md), and a completion's `total` that contradicts the
 * values sent is not repeated as a fact. (The `--detach` record:
 * tasks_test.ts.)
 */
import assert from "node:assert/strict";
import { FIXTURES, parseNdjson, runJnHere } from "../helpers.ts";
import { complete, open } from "../../mod.ts";

const ESCAPES = `mcp+node://${FIXTURES}/servers/escapes.mjs`;

/** The lines of `text`, without the last newline. */
const lines = (text: string) => text.replace(/\n$/, "").split("\n");

Deno.test("a prompt name with a newline keeps each hint on one line", async (t) => {
  await t.step("cat ?prompt=NAME of an unknown prompt", async () => {
    const { code, stderr } = await runJnHere(["cat", `${ESCAPES}?prompt=nothing-like-it`]);
    assert.equal(code, 2, stderr);
    assert.equal(lines(stderr).length, 2, stderr);
    assert.match(stderr, /^jn: Prompt "nothing-like-it" not found on server .*\n/);
    assert.match(stderr, /\nhint: its prompts: greet, two\\nlines$/m);
  });
  await t.step("cat ?prompt=NAME with an unknown argument", async () => {
    const { code, stderr } = await runJnHere([
      "cat",
      `${ESCAPES}?prompt=two%0Alines&zzzz=1`,
    ]);
    assert.equal(code, 2, stderr);
    assert.equal(lines(stderr).length, 2, stderr);
    assert.match(stderr, /its arguments are who\\nelse/);
  });
  await t.step("complete on an unknown prompt and an unknown argument", async () => {
    const prompt = await runJnHere(["complete", `${ESCAPES}?prompt=nothing-like-it`, "x"]);
    assert.equal(prompt.code, 2, prompt.stderr);
    assert.equal(lines(prompt.stderr).length, 2, prompt.stderr);
    assert.match(prompt.stderr, /\nhint: its prompts: greet, two\\nlines$/m);
    const argument = await runJnHere(["complete", `${ESCAPES}?prompt=two%0Alines`, "zzzz"]);
    assert.equal(argument.code, 2, argument.stderr);
    assert.equal(lines(argument.stderr).length, 2, argument.stderr);
    assert.match(argument.stderr, /\nhint: its arguments: who\\nelse$/m);
  });
});

Deno.test("complete: a total below the values sent is not repeated as the count", async (t) => {
  await t.step("the CLI's notice says only what is true", async () => {
    const { code, stdout, stderr } = await runJnHere([
      "complete",
      `${ESCAPES}?prompt=greet`,
      "who",
    ]);
    assert.equal(code, 0, stderr);
    assert.equal(parseNdjson(stdout).length, 8);
    assert.doesNotMatch(stderr, /in all/);
    assert.match(stderr, /^jn: the server has more values than these 8; /m);
  });
  await t.step("the library drops the contradicting total", async () => {
    await using conn = await open(`${ESCAPES}?prompt=greet`, { cwd: Deno.cwd(), env: {} });
    const result = await complete(conn, "who", "");
    assert.equal(result.values.length, 8);
    assert.equal(result.total, undefined);
    assert.equal(result.hasMore, true);
  });
});
