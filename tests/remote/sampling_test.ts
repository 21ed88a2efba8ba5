/**
 * Sampling (`--sampling-command`, profile `sampling_command`, the library's
 * `sample` callback), black-box against the asker fixture (which sends
 * `sampling/createMessage` and returns jn's answer) and server-everything
 * (whose `trigger-sampling-request` exists only for clients that declare
 * sampling).
 */
import assert from "node:assert/strict";
import { open } from "../../mod.ts";
import { FIXTURES, parseNdjson, runJnHere, tempDir } from "../helpers.ts";
import { sandbox } from "../profile/sandbox.ts";
import { serverEverything } from "./support.ts";

const ASKER_FILE = `${FIXTURES}/servers/asker.mjs`;
const ASKER = `mcp+node://${ASKER_FILE}`;

/** Calls an asker tool; returns jn's exit code, stderr and what the server got back. */
async function ask(tool: string, flags: string[], options: { cwd?: string } = {}) {
  const { code, stdout, stderr } = await runJnHere(
    ["cat", `${ASKER}?tool=${tool}`, ...flags],
    options,
  );
  const text = (parseNdjson(stdout)[0] as { text?: string } | undefined)?.text;
  return { code, stderr, answer: text === undefined ? undefined : JSON.parse(text) };
}

Deno.test("--sampling-command answers sampling/createMessage", async (t) => {
  const dir = await tempDir();
  try {
    await t.step("the capability is declared only with a command", async () => {
      const { answer } = await ask("capabilities", ["--sampling-command", "true"]);
      assert.deepEqual(answer.sampling, {});
    });

    await t.step("the request's params go to stdin as JSON, stdout is the answer", async () => {
      const { code, answer, stderr } = await ask("ask_sample", [
        "--sampling-command",
        `cat > request.json; printf 'Hi there\\n'`,
      ], { cwd: dir });
      assert.equal(code, 0, stderr);
      assert.deepEqual(answer.result, {
        role: "assistant",
        content: { type: "text", text: "Hi there" },
        model: "jn-sampling-command",
        stopReason: "endTurn",
      });
      const request = JSON.parse(await Deno.readTextFile(`${dir}/request.json`));
      assert.deepEqual(request, {
        messages: [{ role: "user", content: { type: "text", text: "Say hi" } }],
        maxTokens: 10,
      });
    });

    await t.step("a non-zero exit refuses the request, on both sides", async () => {
      const { code, answer, stderr } = await ask("ask_sample", ["--sampling-command", "exit 7"]);
      assert.equal(code, 0, stderr);
      assert.equal(answer.error.code, -1);
      assert.match(answer.error.message, /refused: the sampling command exited with status 7/);
      assert.match(stderr, /jn: declined a sampling request: .*status 7/);
    });

    await t.step("an empty command is a usage error", async () => {
      const { code, stderr } = await runJnHere([
        "cat",
        `${ASKER}?tool=ask_sample`,
        "--sampling-command",
        " ",
      ]);
      assert.equal(code, 2);
      assert.match(stderr, /Invalid --sampling-command: it is empty/);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a profile's sampling_command, and trust of a project profile", async (t) => {
  const box = await sandbox({ here: true });
  const meta = JSON.stringify({
    command: "node",
    args: [ASKER_FILE],
    sampling_command: "echo from-profile",
  });
  try {
    await t.step("a user profile's sampling_command answers", async () => {
      await box.write(`${box.user}/asker/_meta.json`, meta);
      const { code, stdout, stderr } = await box.run(["cat", "@asker?tool=ask_sample"]);
      assert.equal(code, 0, stderr);
      const answer = JSON.parse((parseNdjson(stdout)[0] as { text: string }).text);
      assert.equal(answer.result.content.text, "from-profile");
      const flag = await box.run([
        "cat",
        "@asker?tool=ask_sample",
        "--sampling-command",
        "echo from-flag",
      ]);
      assert.match(flag.stdout, /from-flag/, "the flag wins over the profile");
    });

    await t.step("a project profile's command does not run before trust", async () => {
      const marker = `${box.root}/ran`;
      await box.write(
        `${box.projectProfiles}/proj/_meta.json`,
        JSON.stringify({
          command: "node",
          args: [ASKER_FILE],
          sampling_command: `touch ${marker}; echo x`,
        }),
      );
      const refused = await box.run(["cat", "@proj?tool=ask_sample"]);
      assert.equal(refused.code, 3);
      assert.match(refused.stderr, /not trusted/);
      const trust = await box.run(["profile", "trust", "@proj"]);
      assert.equal(trust.code, 0, trust.stderr);
      assert.match(trust.stderr, /samples: {3}sh -c "touch /);
      await assert.rejects(Deno.stat(marker));
      const trusted = await box.run(["cat", "@proj?tool=ask_sample"]);
      assert.equal(trusted.code, 0, trusted.stderr);
      await Deno.stat(marker);
    });

    await t.step("a sampling_command that is not a string is a profile error", async () => {
      await box.write(
        `${box.user}/bad/_meta.json`,
        JSON.stringify({ command: "node", sampling_command: 1 }),
      );
      const { code, stderr } = await box.run(["cat", "@bad?tool=x"]);
      assert.equal(code, 3);
      assert.match(stderr, /"sampling_command" must be a string/);
    });
  } finally {
    await box.dispose();
  }
});

Deno.test("open({ sample }) answers sampling in a program", async () => {
  const conn = await open(`${ASKER}?tool=ask_sample`, {
    cwd: Deno.cwd(),
    env: {},
    sample: (request) =>
      Promise.resolve({
        role: "assistant",
        content: { type: "text", text: `seen ${request.messages.length} message` },
        model: "test-model",
      }),
  });
  try {
    const result = await conn.session.callTool("ask_sample", {});
    const answer = JSON.parse(String(result.content[0].text));
    assert.equal(answer.result.content.text, "seen 1 message");
    assert.equal(answer.result.model, "test-model");
  } finally {
    await conn.close();
  }
});

Deno.test("sampling in both eras: input_required (2026-07-28) and the request (2025)", async (t) => {
  const source = `mcp+deno://${FIXTURES}/servers/sampler.ts?tool=ask&question=hi`;
  for (const [protocol, era] of [["auto", "modern"], ["legacy", "legacy"]]) {
    await t.step(`${era}: the command's answer reaches the server`, async () => {
      const { code, stdout, stderr } = await runJnHere([
        "cat",
        source,
        "--protocol",
        protocol,
        "--sampling-command",
        "echo yes",
      ]);
      assert.equal(code, 0, stderr);
      const text = String((parseNdjson(stdout)[0] as { text: string }).text);
      assert.ok(text.startsWith(`${era}: `), text);
      const answer = JSON.parse(text.slice(era.length + 2));
      assert.deepEqual(answer.content, { type: "text", text: "yes" });
      assert.equal(answer.model, "jn-sampling-command");
    });
  }
  await t.step("modern, without a command: the refusal says how to answer", async () => {
    const { code, stderr } = await runJnHere(["cat", source]);
    assert.equal(code, 5);
    assert.match(stderr, /sampling\/createMessage/);
    assert.match(stderr, /hint: the server needs an LLM: answer with --sampling-command CMD/);
  });
});

const EVERYTHING = await serverEverything();

Deno.test({
  name: "server-everything's trigger-sampling-request gets the command's answer",
  ignore: EVERYTHING === undefined,
  async fn() {
    const source = `mcp+node://${EVERYTHING}?tool=trigger-sampling-request`;
    const { code, stdout, stderr } = await runJnHere([
      "cat",
      source,
      "--arg",
      "prompt=ping",
      "--sampling-command",
      `grep -q 'context: ping' && echo pong`,
    ], { timeoutMs: 30_000 });
    assert.equal(code, 0, stderr);
    const text = String((parseNdjson(stdout)[0] as { text: string }).text);
    assert.match(text, /"text": "pong"/);
    assert.match(text, /"model": "jn-sampling-command"/);
    const hidden = await runJnHere(["cat", source, "--arg", "prompt=ping"], { timeoutMs: 30_000 });
    assert.equal(hidden.code, 2);
    assert.match(hidden.stderr, /not found on server/);
    assert.match(hidden.stderr, /\(some servers list more with --sampling-command\)/);
  },
});
