/**
 * The error path of URL elicitation: a tool call refused with JSON-RPC error
 * -32042 shows the URL(s) to open on stderr the way the request path does
 * (control characters made visible), names them in the error (exit 5, so
 * `--quiet` still shows them), and on a terminal retries the call once the
 * user says they are done. Against the asker fixture (`need_url`) and
 * server-everything (`trigger-url-elicitation` with `errorPath=true`).
 */
import assert from "node:assert/strict";
import { permissionFlags } from "../../lib/sandbox/permissions.ts";
import { FIXTURES, MAIN, ROOT, runJnHere } from "../helpers.ts";
import { serverEverything } from "./support.ts";

const NEED_URL = `mcp+node://${FIXTURES}/servers/asker.mjs?tool=need_url`;

Deno.test("a -32042 refusal without a terminal names the URL, made visible", async (t) => {
  await t.step("the URL as the request path shows it, then the error naming it", async () => {
    const { code, stdout, stderr } = await runJnHere(["cat", NEED_URL]);
    assert.equal(code, 5);
    assert.equal(stdout, "");
    assert.match(
      stderr,
      /^jn: [^\n]+ asks you to open https:\/\/example\.com\/consent\?step=1\n {4}Grant access\\x1b\]0;title\\x07\n/,
    );
    // No "declined" line in between: the error says what to do.
    assert.match(
      stderr,
      /\\x07\njn: The server "[^"]+" needs you to open https:\/\/example\.com\/consent\?step=1 before tools\/call "need_url" can run\nhint: open it in a browser, finish there, then run the command again\n$/,
    );
    assert.ok(!stderr.includes("\x1b"), "no raw escape reaches the terminal");
  });

  await t.step("--quiet keeps the error, and with it the URL", async () => {
    const { code, stderr } = await runJnHere(["--quiet", "cat", NEED_URL]);
    assert.equal(code, 5);
    assert.match(
      stderr,
      /^jn: The server "[^"]+" needs you to open https:\/\/example\.com\/consent/,
    );
  });
});

Deno.test({
  name: "on a terminal the call is retried once the user has opened the URL",
  ignore: Deno.build.os === "windows",
  async fn() {
    const output = await new Deno.Command("python3", {
      args: [
        `${ROOT}/tests/remote/pty_run.py`,
        JSON.stringify([["continue?", "y"]]),
        "--",
        Deno.execPath(),
        "run",
        ...permissionFlags(),
        MAIN,
        "cat",
        NEED_URL,
      ],
      cwd: ROOT,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const run = JSON.parse(new TextDecoder().decode(output.stdout));
    assert.equal(run.code, 0, run.output);
    assert.match(run.output, /asks you to open https:\/\/example\.com\/consent/);
    const record = run.output.split(/\r?\n/).find((line: string) => line.startsWith("{"));
    assert.deepEqual(JSON.parse(JSON.parse(record).text), { done: "after the retry", calls: 2 });
  },
});

const EVERYTHING = await serverEverything();

Deno.test({
  name: "server-everything's trigger-url-elicitation error path shows its URL",
  ignore: EVERYTHING === undefined,
  async fn() {
    const { code, stderr } = await runJnHere([
      "cat",
      `mcp+node://${EVERYTHING}?tool=trigger-url-elicitation`,
      "--arg",
      "url=https://example.com/x",
      "--arg",
      "errorPath=true",
    ], { timeoutMs: 30_000 });
    assert.equal(code, 5);
    assert.match(stderr, /asks you to open https:\/\/modelcontextprotocol\.io\n/);
    assert.match(stderr, /needs you to open https:\/\/modelcontextprotocol\.io before tools\/call/);
  },
});
