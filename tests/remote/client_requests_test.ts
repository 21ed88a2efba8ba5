import assert from "node:assert/strict";
import { permissionFlags } from "../../lib/sandbox/permissions.ts";
import { FIXTURES, MAIN, parseNdjson, ROOT, runJnHere, tempDir } from "../helpers.ts";

const ASKER = `mcp+node://${FIXTURES}/servers/asker.mjs`;

/** Calls an asker tool and returns what the server got back from jn. */
async function ask(tool: string, ...flags: string[]) {
  const { code, stdout, stderr } = await runJnHere(["cat", `${ASKER}?tool=${tool}`, ...flags]);
  assert.equal(code, 0, stderr);
  const answer = JSON.parse(String((parseNdjson(stdout)[0] as { text: string }).text));
  return { answer, stderr };
}

Deno.test("what jn answers when the server asks", async (t) => {
  await t.step("it advertises elicitation, and neither roots nor sampling by default", async () => {
    const { answer } = await ask("capabilities");
    assert.deepEqual(answer, { elicitation: { form: {}, url: {} } });
  });

  await t.step("sampling is declined with a clear message, on both sides", async () => {
    const { answer, stderr } = await ask("ask_sample");
    assert.equal(answer.error.code, -32601);
    assert.match(answer.error.message, /no sampling command/);
    assert.match(
      stderr,
      /jn: the server asked for an LLM completion \(sampling\/createMessage\); declined: no sampling command is set \(--sampling-command CMD/,
    );
  });

  await t.step("--root advertises roots and lists exactly those directories", async () => {
    const dir = await tempDir();
    try {
      const { answer } = await ask("ask_roots", "--root", dir);
      assert.deepEqual(answer.result.roots, [{ uri: `file://${dir}`, name: dir.split("/").pop() }]);
      const none = await ask("ask_roots");
      assert.equal(none.answer.error.code, -32601);
    } finally {
      await Deno.remove(dir);
    }
  });

  await t.step("--root that is not a directory is a usage error", async () => {
    const { code, stderr } = await runJnHere(["cat", `${ASKER}?tool=ask_roots`, "--root", "nope/"]);
    assert.equal(code, 2);
    assert.match(stderr, /Invalid --root "nope\/": not a directory/);
  });

  await t.step("without a terminal a form is declined, saying how to accept defaults", async () => {
    const { answer, stderr } = await ask("ask_form");
    assert.deepEqual(answer.result, { action: "decline" });
    assert.match(stderr, /asked: Who are you\?/);
    assert.match(stderr, /--elicit accept-defaults/);
  });

  await t.step("--elicit accept-defaults sends the schema's defaults", async () => {
    const { answer } = await ask("ask_prefs", "--elicit", "accept-defaults");
    assert.deepEqual(answer.result, {
      action: "accept",
      content: { verbose: false, level: 3, tags: ["a"] },
    });
  });

  await t.step(
    "--elicit accept-defaults declines when a required field has no default",
    async () => {
      const { answer, stderr } = await ask("ask_form", "--elicit", "accept-defaults");
      assert.deepEqual(answer.result, { action: "decline" });
      assert.match(stderr, /declined: no default for name/);
    },
  );

  await t.step("URL mode prints the URL and declines without a terminal", async () => {
    const { answer, stderr } = await ask("ask_url");
    assert.deepEqual(answer.result, { action: "decline" });
    assert.match(stderr, /asks you to open https:\/\/example\.com\/authorize/);
    assert.match(
      stderr,
      /\njn: declined \(not a terminal, so jn cannot ask whether you opened it\): open the URL yourself, then run the command again\n/,
    );
  });

  await t.step("URL mode with --elicit decline says that is why", async () => {
    const { answer, stderr } = await ask("ask_url", "--elicit", "decline");
    assert.deepEqual(answer.result, { action: "decline" });
    assert.match(stderr, /\njn: declined \(--elicit decline\): open the URL yourself/);
  });

  await t.step("an unknown --elicit mode is a usage error", async () => {
    const { code, stderr } = await runJnHere(["cat", `${ASKER}?tool=ask_form`, "--elicit", "yes"]);
    assert.equal(code, 2);
    assert.match(stderr, /Invalid --elicit "yes"/);
  });
});

Deno.test({
  name: "on a terminal jn prompts for each field and validates the answers",
  ignore: Deno.build.os === "windows",
  async fn() {
    const answers = [
      ["Name*", "A"], // too short: asked again
      ["Name*", "Ada"],
      ["Age", "abc"], // not a number: asked again
      ["Age", "41"],
      ["Colour", "2"],
      ["Send", "y"],
    ];
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
        `${ASKER}?tool=ask_form`,
      ],
      cwd: ROOT,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const run = JSON.parse(new TextDecoder().decode(output.stdout));
    assert.equal(run.code, 0, run.output);
    assert.match(run.output, /must be at least 2 characters/);
    assert.match(run.output, /not a number/);
    assert.match(run.output, /1\) red\r?\n\s+2\) green/);
    const record = run.output.split(/\r?\n/).find((line: string) => line.startsWith("{"));
    const answer = JSON.parse(JSON.parse(record).text);
    assert.deepEqual(answer.result, {
      action: "accept",
      content: { name: "Ada", age: 41, color: "green" },
    });
  },
});
