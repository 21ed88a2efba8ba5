/**
 * Answers to a server's forms given as data — `--elicit-answers
 * JSON|@FILE|-`, a profile's `elicit_answers` (covered by trust), the
 * library's `elicitAnswers` — for runs without a terminal: validated against
 * each form (required fields, types, bounds, formats, enums), declined with
 * one line saying why when they do not fit.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { answerForm, open } from "../../mod.ts";
import { FIXTURES, parseNdjson, runJn, runJnHere } from "../helpers.ts";
import { sandbox } from "../profile/sandbox.ts";
import { serverEverything } from "./support.ts";

const ASKER_FILE = `${FIXTURES}/servers/asker.mjs`;
const ASKER = `mcp+node://${ASKER_FILE}`;

/** What the asker's tool got back from jn, and what jn said. */
async function ask(tool: string, flags: string[], stdin?: string) {
  const result = await runJnHere(["cat", `${ASKER}?tool=${tool}`, ...flags], { stdin });
  assert.equal(result.code, 0, result.stderr);
  const answer = JSON.parse(String((parseNdjson(result.stdout)[0] as { text: string }).text));
  return { answer, stderr: result.stderr };
}

Deno.test("--elicit-answers answers a form without a terminal", async (t) => {
  await t.step("accepted: the given fields, the schema's defaults for the rest", async () => {
    const { answer, stderr } = await ask("ask_form", ["--elicit-answers", '{"name": "Ada"}']);
    assert.deepEqual(answer.result, {
      action: "accept",
      content: { name: "Ada", age: 30, color: "red" },
    });
    assert.equal(
      stderr,
      `jn: answered the server's question "Who are you?" from the given answers (name, age, color)\n`,
    );
  });

  await t.step("typed values are checked; text is read as if typed", async () => {
    const { answer } = await ask("ask_form", [
      "--elicit-answers",
      '{"name": "Ada", "age": "41", "color": "green"}',
    ]);
    assert.deepEqual(answer.result.content, { name: "Ada", age: 41, color: "green" });
  });

  await t.step("what does not fit is declined, one line saying why", async () => {
    const { answer, stderr } = await ask("ask_form", [
      "--elicit-answers",
      '{"nmae": "Ada", "age": 3.5, "color": "blue"}',
    ]);
    assert.deepEqual(answer.result, { action: "decline" });
    assert.equal(
      stderr,
      `jn: declined the server's question "Who are you?": the answers do not fit its form: ` +
        `name is required (did you mean "nmae"?); age must be a whole number (got 3.5); ` +
        `color must be one of "red", "green" (got "blue")\n`,
    );
  });

  await t.step("an array answers each question in turn; past its end, declined", async () => {
    const { answer, stderr } = await ask("flood_elicit", [
      "--elicit-answers",
      '[{"ok": true}, {"ok": false}]',
      "-q",
    ]);
    assert.deepEqual(answer, { accept: 2, decline: 38 }); // 40 questions at once
    assert.equal(stderr, "");
  });

  await t.step("from a file (@FILE) and from stdin (-)", async () => {
    const dir = await Deno.makeTempDir();
    try {
      await Deno.writeTextFile(join(dir, "a.json"), '{"name": "Bo"}');
      const file = await runJnHere(
        ["cat", `${ASKER}?tool=ask_form`, "--elicit-answers", "@a.json"],
        { cwd: dir },
      );
      assert.match(file.stdout, /\\"name\\":\\"Bo\\"/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
    // A real process with a pipe, as an agent runs it (--elicit auto: stdin is no terminal).
    const piped = await runJn(["cat", `${ASKER}?tool=ask_form`, "--elicit-answers", "-"], {
      stdin: '{"name": "Cy", "color": "green"}',
    });
    assert.equal(piped.code, 0, piped.stderr);
    assert.match(
      piped.stdout,
      /\\"content\\":\{\\"name\\":\\"Cy\\",\\"age\\":30,\\"color\\":\\"green\\"\}/,
    );
  });

  await t.step(
    "not JSON, not an object, or beside --elicit prompt|decline: usage errors",
    async () => {
      const bad = await runJnHere(["cat", `${ASKER}?tool=ask_form`, "--elicit-answers", "{name"]);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /^jn: Invalid --elicit-answers: /);
      const list = await runJnHere(["cat", `${ASKER}?tool=ask_form`, "--elicit-answers", "[1]"]);
      assert.equal(list.code, 2);
      assert.match(list.stderr, /--elicit-answers must be a JSON object \(or an array of objects/);
      const both = await runJnHere([
        "cat",
        `${ASKER}?tool=ask_form`,
        "--elicit-answers",
        "{}",
        "--elicit",
        "decline",
      ]);
      assert.equal(both.code, 2);
      assert.match(both.stderr, /--elicit-answers and --elicit decline say different things/);
    },
  );

  await t.step("a URL request is not a form: still declined without a terminal", async () => {
    const { answer } = await ask("ask_url", ["--elicit-answers", "{}"]);
    assert.deepEqual(answer.result, { action: "decline" });
  });
});

Deno.test("a profile's elicit_answers answer its forms, once the profile is trusted", async () => {
  const box = await sandbox({ here: true });
  try {
    const meta = { command: "node", args: [ASKER_FILE], elicit_answers: { name: "Pro" } };
    await box.write(join(box.projectProfiles, "asker", "_meta.json"), JSON.stringify(meta));
    const untrusted = await box.run(["cat", "@asker/ask_form"]);
    assert.equal(untrusted.code, 3, untrusted.stderr);
    assert.equal(untrusted.stdout, "");
    const trusted = await box.run(["profile", "trust", "@asker"]);
    assert.equal(trusted.code, 0, trusted.stderr);
    const used = await box.run(["cat", "@asker/ask_form"]);
    assert.equal(used.code, 0, used.stderr);
    assert.match(used.stdout, /\\"name\\":\\"Pro\\"/);
    // --elicit-answers replaces them; --elicit decline sets them aside.
    const flag = await box.run(["cat", "@asker/ask_form", "--elicit-answers", '{"name": "Flag"}']);
    assert.match(flag.stdout, /\\"name\\":\\"Flag\\"/);
    const declined = await box.run(["cat", "@asker/ask_form", "--elicit", "decline"]);
    assert.match(declined.stdout, /\\"action\\":\\"decline\\"/);
    // A malformed field is a configuration error naming it.
    await box.write(
      join(box.user, "bad", "_meta.json"),
      JSON.stringify({ command: "node", args: [ASKER_FILE], elicit_answers: "Ada" }),
    );
    const bad = await box.run(["cat", "@bad/ask_form"]);
    assert.equal(bad.code, 3);
    assert.match(bad.stderr, /"elicit_answers" must be an object/);
  } finally {
    await box.dispose();
  }
});

Deno.test("the library: elicitAnswers in open(), answerForm() as a function", async () => {
  const notices: string[] = [];
  await using conn = await open(`${ASKER}?tool=ask_prefs`, {
    cwd: Deno.cwd(),
    env: Deno.env.toObject(),
    elicitAnswers: { level: 5, tags: ["b", "a"] },
    events: { onNotice: (message) => void notices.push(message) },
  });
  const { cat } = await import("../../mod.ts");
  const { records } = await cat(conn);
  const answer = JSON.parse(String((records[0] as { text: string }).text));
  assert.deepEqual(answer.result, {
    action: "accept",
    content: { verbose: false, level: 5, tags: ["b", "a"] },
  });
  assert.equal(notices.length, 1);
  const form = {
    mode: "form" as const,
    message: "Pick",
    requestedSchema: {
      type: "object",
      properties: { when: { type: "string", format: "date" } },
      required: ["when"],
    },
  };
  assert.deepEqual(answerForm(form, { when: "2026-01-02" }).response, {
    action: "accept",
    content: { when: "2026-01-02" },
  });
  assert.match(answerForm(form, { when: "soon" }).message, /when use YYYY-MM-DD \(got "soon"\)/);
});

const EVERYTHING = await serverEverything();

Deno.test({
  name: "--elicit-answers fills server-everything's form (required name, formats, enums)",
  ignore: EVERYTHING === undefined,
  async fn() {
    const source = `mcp+node://${EVERYTHING}?tool=trigger-elicitation-request`;
    const answers = JSON.stringify({
      name: "Ada Lovelace",
      email: "ada@example.com",
      birthdate: "1815-12-10",
      integer: 7,
      untitledMultipleSelectEnum: ["Piano", "Violin"],
      titledSingleSelectEnum: "hero-3",
    });
    const result = await runJnHere(["cat", source, "--elicit-answers", answers]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /User provided the requested information/);
    assert.match(result.stdout, /- Name: Ada Lovelace\\n- Email: ada@example\.com/);
    assert.match(result.stdout, /- Favorite Integer: 7/);
    const wrong = await runJnHere([
      "cat",
      source,
      "--elicit-answers",
      '{"name": "Ada", "email": "not-an-email"}',
    ]);
    assert.match(wrong.stdout, /User declined/);
    assert.match(wrong.stderr, /email not an email address \(got "not-an-email"\)/);
  },
});
