/**
 * Command forwarding (docs/session.md "How a command runs in a session"):
 * a command on a session's source runs in the session's process, the
 * calling `jn` loading neither the SDK nor any command; its stdout, stderr
 * and exit status are byte for byte those of the same command without a
 * session; Ctrl-C cancels its call (exit 130) and the session lives on; a
 * request for anything but the session's own source is refused; a `jn`
 * whose source only looks like the session's runs the command itself; and
 * the server's state is kept across separate `jn` processes.
 *
 * @module
 */

import assert from "node:assert/strict";
import { baseEnv, FIXTURES, jnArgs, loadedModules, ROOT } from "../helpers.ts";
import {
  FORWARD_MAGIC,
  FRAME,
  type Frame,
  FrameReader,
  textFrame,
} from "../../lib/client/session_frames.ts";
import { COUNTER, listed, output, type SessionHome, sessionHome, sessionPid } from "./support.ts";

Deno.test("forwarding: the session runs the command; the caller loads no SDK and no command", async () => {
  await using home = await sessionHome();
  assert.equal((await home.jn(["session", "start", COUNTER])).code, 0);
  const run = await loadedModules(["cat", "--json", `${COUNTER}?tool=increment`], {
    cwd: home.dir,
    env: { ...baseEnv(), HOME: home.home },
  });
  assert.equal(run.code, 0);
  assert.equal(JSON.parse(run.stdout).count, 1);
  const local = run.loaded.filter((url) => url.startsWith(`file://${ROOT}/`));
  assert.ok(local.some((url) => url.endsWith("/lib/cli/forward.ts")), local.join("\n"));
  assert.ok(!local.some((url) => url.endsWith("/lib/cli/main.ts")), local.join("\n"));
  assert.ok(!local.some((url) => url.includes("/lib/cli/commands/")), local.join("\n"));
  assert.ok(!run.loaded.some((url) => url.startsWith("npm:")), "no npm package");
  const debug = await home.jn(["--debug", "cat", "--json", `${COUNTER}?tool=count`]);
  const pid = await sessionPid(home);
  assert.match(
    debug.stderr,
    new RegExp(`^jn: debug: run by the session's process \\(pid ${pid}\\)`),
  );
});

Deno.test("forwarding: stdout, stderr and exit status are those of the command without a session (@demo)", async () => {
  await using home = await sessionHome();
  const commands: { args: string[]; stdin?: string }[] = [
    { args: ["cat", "@demo/add?a=2&b=40"] },
    { args: ["cat", "--json", "@demo/echo?text=hi&repeat=3"] },
    { args: ["head", "-n", "2", "@demo/list_items?count=9"] },
    { args: ["inspect", "@demo"] },
    { args: ["inspect", "@demo", "--format", "json"] },
    { args: ["inspect", "@demo?tool=types_demo"] },
    { args: ["put", "@demo/echo"], stdin: '{"text":"a"}\n{"text":"b","repeat":2}\n' },
    { args: ["complete", "@demo?prompt=summarize", "topic", "mc"] },
    { args: ["mcp", "tools", "@demo"] },
    // Failures: a tool's error, an unknown tool, an argument of the wrong type, a bad record.
    { args: ["cat", "@demo/fail?message=boom"] },
    { args: ["cat", "@demo/nope"] },
    { args: ["cat", "@demo/add?a=two&b=1"] },
    { args: ["put", "@demo/add"], stdin: '{"a":1,"b":2}\nnot json\n{"a":"x","b":1}\n' },
    { args: ["cat", "@demo?resource=demo://missing"] },
  ];
  const direct = [];
  for (const { args, stdin } of commands) direct.push(await home.jn(args, { stdin }));
  assert.equal((await home.jn(["session", "start", "@demo"])).code, 0);
  for (const [at, { args, stdin }] of commands.entries()) {
    const through = await home.jn(args, { stdin });
    const what = `jn ${args.join(" ")}`;
    assert.equal(through.code, direct[at].code, `${what}: ${through.stderr}`);
    assert.equal(through.stdout, direct[at].stdout, what);
    assert.equal(untimed(through.stderr), untimed(direct[at].stderr), what);
  }
  // They did run in the session: it counted their calls (tools, reads, prompts, completions:
  // 2 cat, head, put 2 + 1, complete, fail, the missing resource).
  await waitFor(async () => (await listed(home))[0].calls === 9);
});

Deno.test("forwarding: Ctrl-C cancels the command's call (exit 130); the session lives on", async () => {
  await using home = await sessionHome();
  assert.equal((await home.jn(["session", "start", COUNTER])).code, 0);
  const pid = await sessionPid(home);
  const child = spawnJn(home, ["cat", `${COUNTER}?tool=slow&ms=20000`]);
  // The call is in flight once the session counts it.
  await waitFor(async () => ((await listed(home))[0]?.calls as number) >= 1);
  const started = performance.now();
  child.kill("SIGINT");
  const result = await child.output();
  assert.ok(performance.now() - started < 5000, "it stopped at once");
  assert.equal(result.code, 130, new TextDecoder().decode(result.stderr));
  assert.equal(new TextDecoder().decode(result.stdout), "");
  assert.equal(new TextDecoder().decode(result.stderr), "jn: interrupted\n");
  const cancelled = async () =>
    JSON.parse((await home.jn(["cat", `${COUNTER}?tool=cancelled`])).stdout).text;
  await waitFor(async () => (await cancelled()) === "1");
  assert.equal(await sessionPid(home), pid);
  assert.equal(output(await home.jn(["cat", "--json", `${COUNTER}?tool=increment`])).count, 1);
});

Deno.test("forwarding: the session refuses anything but a command on its own source", async () => {
  await using home = await sessionHome();
  assert.equal((await home.jn(["session", "start", COUNTER])).code, 0);
  const pid = await sessionPid(home);
  const [{ socket }] = await records(home);
  const env = { ...baseEnv(), HOME: home.home };
  const ask = (argv: string[]) => forwardOnce(socket, { argv, cwd: home.dir, env });
  for (
    const argv of [
      ["profile", "list"],
      ["session", "stop", "--all"],
      ["cat", "@demo/add?a=1&b=2"],
      ["cat", "--sandbox", `${COUNTER}?tool=increment`],
      ["serve", COUNTER],
      ["--version"],
    ]
  ) {
    const answer = await ask(argv);
    assert.equal(answer?.kind, FRAME.decline, argv.join(" "));
  }
  // What is not a request of jn's is dropped, and the session serves on.
  const conn = await Deno.connect({ transport: "unix", path: socket });
  await conn.write(new Uint8Array([...FORWARD_MAGIC, 0x7a, 0, 0, 0, 1, 0]));
  assert.equal(await conn.read(new Uint8Array(16)), null);
  conn.close();
  assert.equal(await sessionPid(home), pid);
  assert.equal(output(await home.jn(["cat", "--json", `${COUNTER}?tool=count`])).count, 0);
  // Its own source, with the same options: taken.
  assert.equal((await ask(["cat", `${COUNTER}?tool=count`]))?.kind, FRAME.accept);
});

Deno.test("forwarding: a jn whose source only looks like the session's runs the command itself", async () => {
  await using home = await sessionHome();
  for (const dir of ["a", "b"]) {
    await Deno.mkdir(`${home.dir}/${dir}`);
    await Deno.copyFile(`${FIXTURES}/servers/counter.mjs`, `${home.dir}/${dir}/counter.mjs`);
  }
  const source = "mcp+node://./counter.mjs";
  const a = { cwd: `${home.dir}/a` };
  const b = { cwd: `${home.dir}/b` };
  assert.equal((await home.jn(["session", "start", source], a)).code, 0);
  const inA = output(await home.jn(["cat", "--json", `${source}?tool=increment`], a));
  const inB = await home.jn(["cat", "--json", `${source}?tool=increment`], b);
  assert.equal(inB.stderr, "");
  assert.equal(output(inB).count, 1);
  assert.notEqual(output(inB).pid, inA.pid, "a server of its own");
  assert.equal(output(await home.jn(["cat", "--json", `${source}?tool=increment`], b)).count, 1);
  assert.equal(output(await home.jn(["cat", "--json", `${source}?tool=increment`], a)).count, 2);
  const debug = await home.jn(["--debug", "cat", `${source}?tool=count`], b);
  assert.match(
    debug.stderr,
    /^jn: debug: not run in the session of mcp\+node:\/\/\.\/counter\.mjs: /m,
  );
});

Deno.test("forwarding: state is kept across jn processes; a prompt reaches the caller's terminal", async () => {
  await using home = await sessionHome();
  assert.equal((await home.jn(["session", "start", COUNTER])).code, 0);
  for (const count of [1, 2, 3]) {
    assert.equal(
      output(await home.jn(["cat", "--json", `${COUNTER}?tool=increment`])).count,
      count,
    );
  }
  const put = await home.jn(["put", `${COUNTER}?tool=increment`], { stdin: '{"by":10}\n{}\n' });
  assert.equal(put.code, 0, put.stderr);
  assert.equal(output(await home.jn(["cat", "--json", `${COUNTER}?tool=count`])).count, 14);
  // On a terminal, the server's question is asked on the caller's, as without a session.
  const prompted = async (...flags: string[]) => {
    const answers = [["name*", "Ada"], ["Send", "y"]];
    const run = await new Deno.Command("python3", {
      args: [
        `${ROOT}/tests/remote/pty_run.py`,
        JSON.stringify(answers),
        "--",
        Deno.execPath(),
        ...jnArgs(["cat", "--json", ...flags, `${COUNTER}?tool=ask_name`]),
      ],
      cwd: home.dir,
      env: { ...baseEnv(), HOME: home.home },
      clearEnv: true,
      stdout: "piped",
    }).output();
    return JSON.parse(new TextDecoder().decode(run.stdout));
  };
  const through = await prompted();
  assert.equal(through.code, 0, through.output);
  assert.match(through.output, /\{"result":\{"action":"accept","content":\{"name":"Ada"\}\}\}/);
  assert.deepEqual(through, await prompted("--no-session"));
});

/** put's summary without its timing (`in 0.05s (43 calls/s)`), which differs from run to run. */
function untimed(stderr: string): string {
  return stderr.replace(/ in [\d.]+m?s \([\d.]+ calls\/s\)/g, " in …");
}

/** `jn ARGS…` of a session home, as a child to signal. */
function spawnJn(home: SessionHome, args: string[]): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: jnArgs(args),
    cwd: home.dir,
    env: { ...baseEnv(), HOME: home.home },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/** The records of a home's running sessions, as they are on disk. */
async function records(home: SessionHome): Promise<{ socket: string }[]> {
  const found = [];
  for await (const entry of Deno.readDir(home.sessions)) {
    if (entry.name.endsWith(".json")) {
      found.push(JSON.parse(await Deno.readTextFile(`${home.sessions}/${entry.name}`)));
    }
  }
  return found;
}

/** Sends one forwarding request and reads the session's first answer. */
async function forwardOnce(
  socket: string,
  hello: { argv: string[]; cwd: string; env: Record<string, string> },
): Promise<Frame | undefined> {
  const conn = await Deno.connect({ transport: "unix", path: socket });
  try {
    const tty = { stdin: false, stdout: false, stderr: false };
    const request = textFrame(FRAME.hello, JSON.stringify({ ...hello, tty }));
    await conn.write(new Uint8Array([...FORWARD_MAGIC, ...request]));
    const reader = new FrameReader();
    const buffer = new Uint8Array(4096);
    for (;;) {
      const ready = reader.next();
      if (ready) return ready;
      const read = await conn.read(buffer);
      if (read === null) return undefined;
      reader.push(buffer.subarray(0, read));
    }
  } finally {
    conn.close();
  }
}

async function waitFor(ready: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await ready().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`not so after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
