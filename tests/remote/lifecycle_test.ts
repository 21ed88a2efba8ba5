import assert from "node:assert/strict";
import { permissionFlags } from "../../lib/sandbox/permissions.ts";
import { baseEnv, callLog, FIXTURES, MAIN, parseNdjson, ROOT, runJnHere } from "../helpers.ts";
import { startFixture } from "./support.ts";

const FIXTURE = `mcp+node://${FIXTURES}/servers/fixture.mjs`;

/**
 * Starts jn, waits until its --debug log shows the tools/call going out and
 * the server says it has the call (`reached`), then sends SIGINT.
 */
async function interruptDuringCall(args: string[], reached: () => Promise<void>) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...permissionFlags(), MAIN, ...args, "--debug"],
    cwd: ROOT,
    env: baseEnv(),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let stderr = "";
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  const killer = setTimeout(() => child.kill("SIGKILL"), 20_000);
  let sent = false;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    stderr += value;
    if (!sent && /→ \{"method":"tools\/call"/.test(stderr)) {
      sent = true;
      await reached();
      child.kill("SIGINT");
    }
  }
  const [status, stdout] = await Promise.all([child.status, new Response(child.stdout).text()]);
  clearTimeout(killer);
  return { code: status.code, stdout, stderr, sent };
}

/** Processes whose command line contains `marker` (`ps`, not /proc: the test runs without --allow-all). */
async function processesWith(marker: string): Promise<string[]> {
  const { stdout } = await new Deno.Command("ps", { args: ["-eo", "pid=,args="], stdout: "piped" })
    .output();
  return new TextDecoder().decode(stdout).split("\n").filter((line) => line.includes(marker));
}

Deno.test({
  name: "Ctrl-C during a call sends notifications/cancelled, exits 130 and leaves no server",
  ignore: Deno.build.os === "windows",
  async fn() {
    const marker = `jn-sigint-${crypto.randomUUID()}`;
    const log = await callLog();
    const { code, stdout, stderr, sent } = await interruptDuringCall([
      "cat",
      `${FIXTURE}?tool=sleep&ms=30000&command=--stderr-banner&command=${marker}` +
      `&command=--call-log&command=${log.path}`,
    ], () => log.called("sleep")).finally(() => log.dispose());
    assert.ok(sent, `the call never went out:\n${stderr}`);
    assert.equal(code, 130, stderr);
    assert.equal(stdout, "");
    assert.match(stderr, /fixture: cancelled request \d+/);
    assert.match(stderr, /jn: interrupted/);
    assert.deepEqual(await processesWith(marker), []);
  },
});

Deno.test("Ctrl-C during a remote call cancels it on the server", async () => {
  const server = await startFixture("http_server.ts");
  try {
    const { code, sent } = await interruptDuringCall(
      ["cat", `mcp+${server.url}/mcp?tool=sleep&ms=30000`],
      () => server.stderrMatches(/http fixture: tools\/call \S+ sleep/),
    );
    assert.ok(sent);
    assert.equal(code, 130);
    assert.match(server.stderr(), /http fixture: cancelled request \d+/);
  } finally {
    await server.stop();
  }
});

// The timeout and log tests run jn in-process: not the process, its handling is tested.
Deno.test("progress notifications over stdio reset the request timeout", async () => {
  const steady = await runJnHere([
    "cat",
    `${FIXTURE}?tool=progress&steps=5&delay_ms=250`,
    "--timeout",
    "600ms",
  ]);
  assert.equal(steady.code, 0, steady.stderr);
  const silent = await runJnHere(["cat", `${FIXTURE}?tool=sleep&ms=1300`, "--timeout", "600ms"]);
  assert.equal(silent.code, 4);
  assert.match(silent.stderr, /Timed out after 600ms waiting for tools\/call "sleep"/);
});

Deno.test("server log messages go to stderr with the server's name, filtered by --log-level", async (t) => {
  await t.step("an info message is shown by default, prefixed with the server name", async () => {
    const { code, stdout, stderr } = await runJnHere([
      "cat",
      `${FIXTURE}?tool=log&level=info&message=hello%20logs`,
    ]);
    assert.equal(code, 0);
    assert.equal((parseNdjson(stdout)[0] as { text: string }).text, "logged");
    assert.match(stderr, /^\[node [^\]]*fixture\.mjs\] info fixture: hello logs$/m);
  });

  await t.step("--log-level warning hides it and is sent as logging/setLevel", async () => {
    const { code, stderr } = await runJnHere([
      "cat",
      `${FIXTURE}?tool=log&level=info&message=hello%20logs`,
      "--log-level",
      "warning",
      "--debug",
    ]);
    assert.equal(code, 0);
    assert.match(stderr, /→ \{"method":"logging\/setLevel","params":\{"level":"warning"\}/);
    assert.doesNotMatch(stderr, /info fixture: hello logs/);
  });
});
