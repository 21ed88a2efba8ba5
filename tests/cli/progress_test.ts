import assert from "node:assert/strict";
import type { Io } from "../../lib/cli/io.ts";
import { ProgressReporter } from "../../lib/cli/progress.ts";
import { resolveTarget, targetShortName } from "../../mod.ts";
import { FIXTURES, runJnHere } from "../helpers.ts";

/** An Io whose stderr is collected (a terminal or not). */
function fakeIo(tty: boolean): { io: Io; stderr: () => string } {
  let text = "";
  const writer = {
    write: (bytes: Uint8Array) => {
      text += new TextDecoder().decode(bytes);
      return Promise.resolve(bytes.length);
    },
  };
  const io: Io = {
    stdout: writer,
    stderr: writer,
    stdin: new ReadableStream(),
    env: { NO_COLOR: "1" },
    cwd: "/",
    tty: { stdin: false, stdout: false, stderr: tty },
  };
  return { io, stderr: () => text };
}

Deno.test("a task's status is shown like progress, server text made visible", async (t) => {
  await t.step("--progress: one line per status", async () => {
    const { io, stderr } = fakeIo(false);
    const progress = new ProgressReporter(io, "@s tool", { lines: true, quiet: false });
    progress.note("task 1 working: step\x1b[2J 1");
    await progress.done();
    assert.equal(stderr(), "@s tool: task 1 working: step\\x1b[2J 1\n");
  });

  await t.step("terminal: redrawn, kept on its own line before a question", async () => {
    const { io, stderr } = fakeIo(true);
    const progress = new ProgressReporter(io, "@s tool", { lines: false, quiet: false });
    progress.note("task 1 working");
    progress.note("task 1 input_required: which?", { keep: true });
    await progress.done();
    assert.equal(
      stderr(),
      "\r\x1b[2K@s tool task 1 working\r\x1b[2K@s tool task 1 input_required: which?\n",
    );
  });

  await t.step("neither terminal nor --progress, or --quiet: nothing", async () => {
    const { io, stderr } = fakeIo(false);
    new ProgressReporter(io, "x", { lines: false, quiet: false }).note("task 1 working");
    const quiet = fakeIo(true);
    new ProgressReporter(quiet.io, "x", { lines: false, quiet: true }).note("task 1 working");
    await Promise.resolve();
    assert.equal(stderr() + quiet.stderr(), "");
  });
});

Deno.test("progress lines name the server by its short name, not its command line", async () => {
  const server = `mcp+node://${FIXTURES}/servers/fixture.mjs`;
  const { code, stderr } = await runJnHere([
    "cat",
    `${server}?tool=progress&steps=2`,
    "--progress",
  ]);
  assert.equal(code, 0, stderr);
  const lines = stderr.split("\n").filter((line) => line.includes("progress 1/2"));
  assert.equal(lines.length, 1, stderr);
  assert.match(lines[0], /^fixture\.mjs progress: progress 1\/2/);
  assert.doesNotMatch(stderr, /node \//);
});

Deno.test("a naked URI's short name: package without scope or version, script, host", async () => {
  const short = async (source: string) =>
    targetShortName(await resolveTarget(source, { cwd: "/tmp", env: {} }));
  assert.equal(
    await short("mcp+npx://@modelcontextprotocol/server-everything@2026.8.31"),
    "server-everything",
  );
  assert.equal(await short("mcp+uvx://biomcp-python/biomcp?command=run"), "biomcp");
  assert.equal(await short("mcp+python://./dir/server.py"), "server.py");
  assert.equal(await short("mcp+https://example.com:8443/mcp"), "example.com:8443");
  assert.equal(await short("@demo/add"), "@demo");
});
