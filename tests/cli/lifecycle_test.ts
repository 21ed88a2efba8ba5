/**
 * What happens around a call: the child's environment, process-tree
 * teardown on every exit path (success, error, timeout, crash, broken pipe,
 * SIGINT once or twice, SIGTERM, SIGHUP, SIGQUIT), a reader that goes away,
 * and the --debug protocol log.
 */

import assert from "node:assert/strict";
import {
  baseEnv,
  callLog,
  DENO_DIR,
  FIXTURES,
  jnArgs,
  MAIN,
  parseNdjson,
  ROOT,
  runJn,
} from "../helpers.ts";
import { DUPLICATE_MS } from "../../lib/cli/signals.ts";
import { permissionFlags } from "../../lib/sandbox/permissions.ts";
import {
  ALL_ROLES,
  collect,
  endTree,
  hostileUri,
  readTree,
  spawnJn,
  survivors,
  type Tree,
  treeFiles,
  waitForFile,
  waitGone,
} from "../session/tree_support.ts";

const FIXTURE = `mcp+node://${FIXTURES}/servers/fixture.mjs`;

type Rec = Record<string, unknown>;

Deno.test("the server sees only the safe environment", async (t) => {
  await t.step("caller secrets do not leak; HOME and PATH do", async () => {
    const result = await runJn(["cat", `${FIXTURE}?tool=env`], {
      env: { AWS_SECRET_ACCESS_KEY: "hunter2-secret", GITHUB_TOKEN: "ghp_leak" },
    });
    assert.equal(result.code, 0, result.stderr);
    const [record] = parseNdjson(result.stdout) as Rec[];
    const env = JSON.parse(record.text as string);
    assert.equal(env.AWS_SECRET_ACCESS_KEY, undefined);
    assert.equal(env.GITHUB_TOKEN, undefined);
    assert.doesNotMatch(record.text as string, /hunter2|ghp_leak/);
    assert.equal(env.PATH, baseEnv().PATH);
    assert.ok(env.HOME);
    // The marker that finds the server's processes at teardown (docs/remote.md).
    assert.match(env.JN_PROCESS_TREE, /^[0-9a-f-]{36}$/);
    const allowed = new Set([
      "HOME",
      "LOGNAME",
      "PATH",
      "SHELL",
      "TERM",
      "USER",
      "JN_PROCESS_TREE",
    ]);
    // node itself may add a few of its own (e.g. on some versions); ours are only the allowed ones.
    const unexpected = Object.keys(env).filter((k) => !allowed.has(k) && !/^(NODE_|__CF)/.test(k));
    assert.deepEqual(unexpected, []);
  });
});

Deno.test("teardown ends the server's whole process tree", async (t) => {
  await t.step("a grandchild started by the server does not survive jn", async () => {
    const result = await runJn(["cat", "--json", `${FIXTURE}?tool=spawn_grandchild&seconds=60`]);
    assert.equal(result.code, 0, result.stderr);
    const [{ pid }] = parseNdjson(result.stdout) as { pid: number }[];
    assert.ok(pid > 0);
    assert.ok(await waitGone(pid), `grandchild ${pid} survived jn`);
  });

  await t.step("a server that ignores SIGTERM is killed", async () => {
    const result = await runJn([
      "cat",
      "--json",
      `${FIXTURE}?command=--ignore-sigterm&tool=spawn_grandchild&ignore_sigterm=true`,
    ]);
    assert.equal(result.code, 0, result.stderr);
    const [{ pid }] = parseNdjson(result.stdout) as { pid: number }[];
    assert.ok(await waitGone(pid), `grandchild ${pid} survived jn`);
  });

  for (
    const [name, query, flags, code] of [
      ["a timeout", "tool=sleep&ms=60000", ["--timeout", "300ms"], 4],
      ["a failed call", "tool=rpc_error", [], 5],
      ["a server crash", "tool=exit&code=9", [], 4],
    ] as const
  ) {
    await t.step(`after ${name} the tree is gone too`, async () => {
      const dir = await Deno.makeTempDir();
      const pidFile = `${dir}/grandchild.pid`;
      const server = `mcp+python://${FIXTURES}/servers/with_grandchild.py?command=${
        encodeURIComponent(pidFile)
      }`;
      const result = await runJn(["cat", `${server}&${query}`, ...flags]);
      assert.equal(result.code, code, result.stderr);
      const pid = Number(await Deno.readTextFile(pidFile));
      assert.ok(pid > 0);
      assert.ok(await waitGone(pid), `grandchild ${pid} survived ${name}`);
      await Deno.remove(dir, { recursive: true });
    });
  }
});

/**
 * Runs `run` against the hostile fixture started with `--tree`, then checks
 * that the server and its grandchildren — one in its process group, one in
 * a session of its own (setsid), one with a session and an empty
 * environment, and a double-forked daemon — are all gone.
 */
async function withTree(
  run: (pidFile: string, switches: string[]) => Promise<void>,
  options: { switches?: string[]; roles?: (keyof Tree)[] } = {},
): Promise<void> {
  const { dir, pidFile } = await treeFiles();
  try {
    await run(pidFile, ["--tree", pidFile, ...options.switches ?? []]);
    const tree = await readTree(pidFile);
    assert.deepEqual(await survivors(tree, options.roles ?? ALL_ROLES), [], "orphans survived jn");
  } finally {
    await endTree(pidFile);
    await Deno.remove(dir, { recursive: true });
  }
}

/** Starts `jn cat` on the hostile `hang` tool, waits for the call to reach it, returns jn. */
async function hangingCall(pidFile: string, switches: string[]): Promise<Deno.ChildProcess> {
  const child = spawnJn(["cat", hostileUri("hang", { switches })]);
  await waitForFile(`${pidFile}.call`);
  return child;
}

Deno.test("no exit path leaves a server process alive", async (t) => {
  await t.step("success", () =>
    withTree(async (_, switches) => {
      const result = await runJn(["cat", hostileUri("echo", { switches, args: { text: "hi" } })]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stderr, "");
    }));

  await t.step("a JSON-RPC error (exit 5)", () =>
    withTree(async (_, switches) => {
      const result = await runJn(["cat", hostileUri("rpc_error", { switches })]);
      assert.equal(result.code, 5, result.stderr);
      assert.match(result.stderr, /^jn: The server answered tools\/call "rpc_error" with error/);
    }));

  await t.step("a timeout (exit 4)", () =>
    withTree(async (_, switches) => {
      const result = await runJn(["cat", hostileUri("hang", { switches }), "--timeout", "300ms"]);
      assert.equal(result.code, 4, result.stderr);
      assert.match(result.stderr, /^jn: Timed out after 300ms waiting for tools\/call "hang"\n/);
    }));

  await t.step("a reader that goes away (exit 0)", () =>
    withTree(async (_, switches) => {
      const script =
        `"${Deno.execPath()}" run --config "${ROOT}/deno.json" ${permissionFlags().join(" ")} ` +
        `"${MAIN}" cat '${hostileUri("huge", { switches, args: { bytes: "4000000" } })}' ` +
        `| head -c 10 >/dev/null; echo "jn=\${PIPESTATUS[0]}"`;
      const output = await new Deno.Command("bash", {
        args: ["-c", script],
        env: { ...baseEnv(), DENO_DIR },
        clearEnv: true,
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stderr = new TextDecoder().decode(output.stderr);
      assert.equal(new TextDecoder().decode(output.stdout).trim(), "jn=0", stderr);
      assert.equal(stderr, "");
    }));

  // A process that both left the server's session and dropped its environment is
  // found only while its parent lives: after a crash it is out of reach (docs/remote.md).
  await t.step("a server that dies mid-call (exit 4)", () =>
    withTree(async (_, switches) => {
      const result = await runJn(["cat", hostileUri("exit_mid", { switches })]);
      assert.equal(result.code, 4, result.stderr);
      assert.match(result.stderr, /^jn: The server "[^"]+" exited with code 1 during tools\/call/);
    }, { roles: ["server", "grandchild", "setsid", "daemon"] }));

  for (
    const [signal, code] of [
      ["SIGINT", 130],
      ["SIGTERM", 130],
      ["SIGHUP", 130],
      ["SIGQUIT", 130],
    ] as const
  ) {
    await t.step(`${signal} (exit ${code})`, () =>
      withTree(async (pidFile, switches) => {
        const child = await hangingCall(pidFile, switches);
        child.kill(signal);
        const result = await collect(child);
        assert.equal(result.code, code, result.stderr);
        assert.equal(result.stdout, "");
        assert.equal(result.stderr, "jn: interrupted\n");
      }));
  }

  await t.step(
    "a second Ctrl-C during the teardown of a server that ignores SIGTERM",
    () =>
      withTree(async (pidFile, switches) => {
        const child = await hangingCall(pidFile, switches);
        const first = performance.now();
        child.kill("SIGINT");
        // The server got notifications/cancelled: jn is in its graceful teardown.
        await waitForFile(`${pidFile}.cancelled`);
        // A repeat within DUPLICATE_MS is the same Ctrl-C delivered twice (lib/cli/signals.ts).
        const wait = DUPLICATE_MS + 50 - (performance.now() - first);
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        child.kill("SIGINT");
        const result = await collect(child);
        assert.equal(result.code, 130, result.stderr);
        assert.equal(result.stdout, "");
        // The second Ctrl-C exits at once, without the graceful path's last line.
        assert.doesNotMatch(result.stderr, /interrupted/);
      }, { switches: ["--stubborn"] }),
  );

  // The terminal signals the whole group and `deno task` forwards the SIGINT to jn again, a
  // few ms later: that must not count as a second Ctrl-C (which skips the cancellation).
  await t.step(
    "Ctrl-C under `deno task` sends notifications/cancelled first",
    () =>
      withTree(async (pidFile, switches) => {
        const output = await new Deno.Command("python3", {
          args: [
            `${ROOT}/tests/cli/group_sigint.py`,
            `${pidFile}.call`,
            "--",
            Deno.execPath(),
            "task",
            "-q",
            "jn",
            "cat",
            hostileUri("hang", { switches }),
          ],
          cwd: ROOT,
          env: { ...baseEnv(), DENO_DIR },
          clearEnv: true,
          stdout: "piped",
          stderr: "inherit",
        }).output();
        const run = JSON.parse(new TextDecoder().decode(output.stdout));
        assert.equal(run.code, 130, run.stderr);
        assert.equal(run.stderr, "jn: interrupted\n");
        await Deno.stat(`${pidFile}.cancelled`);
      }),
  );
});

Deno.test("a reader that goes away ends jn quietly with exit 0", async () => {
  // 4 MB of output into `head -c 10`: jn's writes fail with EPIPE.
  const script =
    `"${Deno.execPath()}" run --config "${ROOT}/deno.json" ${permissionFlags().join(" ")} ` +
    `"${MAIN}" cat "${FIXTURE}?tool=big&bytes=4000000" | head -c 10 >/dev/null; ` +
    `echo "jn=\${PIPESTATUS[0]}"`;
  const output = await new Deno.Command("bash", {
    args: ["-c", script],
    env: { ...baseEnv(), DENO_DIR },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(output.stdout);
  const stderr = new TextDecoder().decode(output.stderr);
  assert.equal(stdout.trim(), "jn=0", stderr);
  assert.equal(stderr, "");
});

Deno.test("Ctrl-C cancels the call, ends the server and exits 130", async () => {
  const log = await callLog();
  const child = new Deno.Command(Deno.execPath(), {
    args: jnArgs([
      "cat",
      `${FIXTURE}?tool=sleep&ms=30000&command=--call-log&command=${log.path}`,
    ]),
    env: baseEnv(),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  // The event: the call reached the server (it logged it). Then the server's pid, from ps.
  await Promise.race([log.called("sleep"), child.status.then(() => assert.fail("jn exited"))]);
  await log.dispose();
  const ps = new TextDecoder().decode(
    (await new Deno.Command("ps", { args: ["-eo", "pid,ppid,args"], stdout: "piped" }).output())
      .stdout,
  );
  const line = ps.split("\n").find((l) =>
    l.includes("fixture.mjs") && l.trim().split(/\s+/)[1] === String(child.pid)
  );
  const serverPid = line && Number(line.trim().split(/\s+/)[0]);
  assert.ok(serverPid, "the server is not a child of jn");
  child.kill("SIGINT");
  const output = await child.output();
  const stderr = new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 130, stderr);
  assert.equal(new TextDecoder().decode(output.stdout), "");
  assert.match(stderr, /^jn: interrupted\n$/);
  assert.ok(await waitGone(serverPid), "the server survived Ctrl-C");
});

Deno.test("--debug logs the protocol exchange on stderr", async () => {
  const result = await runJn(["--debug", "cat", `${FIXTURE}?tool=echo&text=traced`]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    result.stderr,
    /→ \{"jsonrpc":"2\.0","id":"server-discover-probe-1","method":"server\/discover"/,
  );
  assert.match(
    result.stderr,
    /→ \{"method":"tools\/call","params":\{"name":"echo","arguments":\{"text":"traced"\}/,
  );
  assert.match(result.stderr, /← \{"jsonrpc":"2\.0","id":\d+,"result":\{"content":\[/);
  assert.match(
    result.stderr,
    /jn: debug: connected to jn-fixture 1\.0\.0 \(protocol 2025-11-25, legacy, stdio\)/,
  );
  assert.equal(parseNdjson(result.stdout).length, 1);
});
