/**
 * Every exit code of SPEC §6, each produced by a real run of jn against real
 * servers (the internal error through an injected Io), with the one-line
 * message it must print.
 */

import assert from "node:assert/strict";
import { main } from "../../lib/cli/main.ts";
import type { Io } from "../../lib/cli/io.ts";
import { FIXTURES, parseNdjson, runJn } from "../helpers.ts";

const FIXTURE = `mcp+node://${FIXTURES}/servers/fixture.mjs`;

Deno.test("exit codes follow SPEC §6", async (t) => {
  await t.step("0: a successful call prints records and nothing on stderr", async () => {
    const result = await runJn(["cat", `${FIXTURE}?tool=echo&text=hi`]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, "");
    assert.deepEqual(parseNdjson(result.stdout), [{
      type: "tool_result",
      tool: "echo",
      content_type: "text",
      text: '{"text":"hi"}',
    }]);
  });

  await t.step("1: a tool answering isError keeps its records and exits 1", async () => {
    const result = await runJn(["cat", `${FIXTURE}?tool=fail&message=broken`]);
    assert.equal(result.code, 1);
    const records = parseNdjson(result.stdout) as Record<string, unknown>[];
    assert.equal(records.length, 1);
    assert.equal(records[0].isError, true);
    assert.equal(records[0].text, "broken");
    assert.equal(result.stderr, 'jn: Tool "fail" answered with an error: broken\n');
  });

  await t.step("2: a malformed URI shows a caret under the bad spot", async () => {
    const result = await runJn(["cat", "mcp+uvz://pkg?tool=x"]);
    assert.equal(result.code, 2);
    assert.equal(result.stdout, "");
    const lines = result.stderr.split("\n");
    assert.match(
      lines[0],
      /^jn: Cannot parse URI "mcp\+uvz:\/\/pkg\?tool=x": unknown launcher "uvz"/,
    );
    assert.equal(lines[1], "  mcp+uvz://pkg?tool=x");
    assert.equal(lines[2], "      ^");
  });

  await t.step("2: an unknown flag is a usage error", async () => {
    const result = await runJn(["cat", "--no-such-flag", `${FIXTURE}?tool=echo`]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^jn: Unknown option "--no-such-flag"/);
  });

  await t.step("3: a missing profile is a configuration error", async () => {
    const home = await Deno.makeTempDir();
    const result = await runJn(["cat", "@no-such-profile/tool"], {
      env: { HOME: home },
      cwd: home,
    });
    assert.equal(result.code, 3);
    assert.match(result.stderr, /^jn: Profile "@no-such-profile" not found/);
    await Deno.remove(home, { recursive: true });
  });

  await t.step("4: a launcher missing from PATH", async () => {
    const result = await runJn(["cat", "mcp+uvx://some-package?tool=x"], {
      env: { PATH: `${FIXTURES}/empty-path-dir` },
    });
    assert.equal(result.code, 4);
    assert.equal(
      result.stderr,
      'jn: Cannot start server "uvx some-package": uvx not found on PATH\n' +
        "hint: install uv (https://docs.astral.sh/uv/)\n",
    );
  });

  await t.step("4: a server that exits before the handshake, with its stderr", async () => {
    const result = await runJn(["cat", `${FIXTURE}?command=--exit-before-handshake&tool=echo`]);
    assert.equal(result.code, 4);
    assert.match(result.stderr, /exited with code 3 before the MCP handshake completed/);
    assert.match(
      result.stderr,
      /server stderr \(last lines\):\n {2}fixture: exiting before the handshake/,
    );
  });

  await t.step("4: a timeout names the request", async () => {
    const result = await runJn(["cat", `${FIXTURE}?tool=sleep&ms=5000`, "--timeout", "300ms"]);
    assert.equal(result.code, 4);
    assert.match(result.stderr, /^jn: Timed out after 300ms waiting for tools\/call "sleep"\n/);
  });

  await t.step("5: a JSON-RPC error from the server", async () => {
    const result = await runJn(["cat", `${FIXTURE}?tool=rpc_error&message=nope`]);
    assert.equal(result.code, 5);
    assert.match(
      result.stderr,
      /^jn: The server answered tools\/call "rpc_error" with error -32000: nope\n/,
    );
  });

  await t.step("5: a malformed tools/call result", async () => {
    const server = `mcp+node://${FIXTURES}/servers/malformed_result.mjs`;
    const notArray = await runJn(["cat", `${server}?tool=bad_content`]);
    assert.equal(notArray.code, 5);
    assert.equal(notArray.stdout, "");
    assert.match(
      notArray.stderr,
      /malformed answer to tools\/call "bad_content": .*content is not an array/,
    );
    const untyped = await runJn(["cat", `${server}?tool=untyped_item`]);
    assert.equal(untyped.code, 5);
    assert.match(untyped.stderr, /a content item has no type/);
  });

  await t.step("5: a server writing text instead of JSON-RPC", async () => {
    const result = await runJn([
      "cat",
      `${FIXTURE}?command=--garbage-instead&tool=echo`,
      "--connect-timeout",
      "1s",
    ]);
    assert.equal(result.code, 5);
    assert.match(
      result.stderr,
      /wrote text that is not JSON-RPC to stdout instead of answering initialize/,
    );
  });

  await t.step("6: a permission jn was not given", async () => {
    const result = await runJn(["cat", `mcp+python://${FIXTURES}/servers/fixture.py?tool=echo`], {
      permissions: ["--allow-read", "--allow-env", "--allow-run=node", "--no-prompt"],
    });
    assert.equal(result.code, 6);
    assert.match(result.stderr, /jn was started without --allow-run=python3\n/);
    assert.match(result.stderr, /hint: add --allow-run=python3 to jn's permissions/);
  });

  await t.step("70: an internal error is one line without --debug, a stack with it", async () => {
    const plain = await runWithBrokenStdout(["completions", "bash"]);
    assert.equal(plain.code, 70);
    assert.equal(
      plain.stderr,
      "jn: internal error: a deliberate bug: stdout.write broke\n" +
        "hint: rerun with --debug for the stack trace\n",
    );
    const debug = await runWithBrokenStdout(["--debug", "completions", "bash"]);
    assert.equal(debug.code, 70);
    assert.match(debug.stderr, /TypeError: a deliberate bug: stdout.write broke\n\s+at /);
  });
});

/**
 * Runs the CLI in this process with an `Io` whose stdout throws a TypeError
 * (a bug, not an environment error such as a closed pipe or a full disk).
 */
async function runWithBrokenStdout(args: string[]): Promise<{ code: number; stderr: string }> {
  const chunks: Uint8Array[] = [];
  const io: Io = {
    stdout: {
      write: () => Promise.reject(new TypeError("a deliberate bug: stdout.write broke")),
    },
    stderr: {
      write: (bytes) => {
        chunks.push(bytes.slice());
        return Promise.resolve(bytes.length);
      },
    },
    stdin: new ReadableStream({ start: (controller) => controller.close() }),
    env: { NO_COLOR: "1" },
    cwd: Deno.cwd(),
    tty: { stdin: false, stdout: false, stderr: false },
  };
  const code = await main(args, io);
  return { code, stderr: new TextDecoder().decode(new Uint8Array(chunks.flatMap((c) => [...c]))) };
}
