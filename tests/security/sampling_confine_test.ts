/**
 * A profile's `sampling_command` beside a sandboxed server that may write
 * somewhere of yours (lib/sandbox/sampling_view.ts, lib/client/sandbox.ts
 * `confinedSampling`): the command still answers, from the profile's
 * directory, with the user's files, home and network as they are, but sees
 * nothing the server may write — the repository of `"write": ["."]`, a
 * `./out`, a file — so it cannot load what the server planted there; the
 * caller's own `--sampling-command` runs as typed. The view's order (hidden,
 * kept, hidden again inside what is kept) is checked without bubblewrap.
 *
 * The runs need bubblewrap (ignored, saying so, without it).
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { exists, FIXTURES, parseNdjson } from "../helpers.ts";
import { hiddenFrom, samplingBwrapArgs, samplingView } from "../../lib/sandbox/sampling_view.ts";
import type { SandboxPlan } from "../../lib/sandbox/plan.ts";
import { sandbox } from "../profile/sandbox.ts";
import { requireBwrap } from "../sandbox/bwrap_support.ts";

const NO_BWRAP = await requireBwrap("tests/security/sampling_confine_test.ts");

const PLAN: SandboxPlan = {
  system: [],
  hide: [],
  tmp: "/tmp",
  read: [],
  write: [],
  create: [],
  scratch: [],
  network: false,
  chdir: "/",
  notices: [],
};

Deno.test("samplingView(): what the server may write is hidden, the profile kept, its own out hidden again", () => {
  const kinds: Record<string, "dir" | "file"> = {
    "/repo": "dir",
    "/repo/.jn/profiles/mcp/p/out": "dir",
    "/data/result.json": "file",
  };
  const stat = (path: string) => kinds[path];
  assert.equal(samplingView(PLAN, stat), undefined, "a server that writes nothing of yours");
  assert.equal(samplingView(undefined, stat), undefined, "no sandbox");
  assert.equal(samplingView({ ...PLAN, write: ["/gone"] }, stat), undefined, "not there");
  const view = samplingView({
    ...PLAN,
    write: ["/repo/.jn/profiles/mcp/p/out", "/data/result.json", "/repo"],
    protect: ["/repo/.jn/profiles/mcp/p"],
  }, stat)!;
  assert.deepEqual(view.hidden, ["/repo", "/data/result.json", "/repo/.jn/profiles/mcp/p/out"]);
  assert.deepEqual(samplingBwrapArgs(view, "/repo/.jn/profiles/mcp/p"), [
    "--die-with-parent",
    "--unshare-pid",
    "--bind",
    "/",
    "/",
    "--dev-bind",
    "/dev",
    "/dev",
    "--proc",
    "/proc",
    "--tmpfs",
    "/repo",
    "--ro-bind",
    "/dev/null",
    "/data/result.json",
    "--ro-bind",
    "/repo/.jn/profiles/mcp/p",
    "/repo/.jn/profiles/mcp/p",
    "--tmpfs",
    "/repo/.jn/profiles/mcp/p/out",
    "--chdir",
    "/repo/.jn/profiles/mcp/p",
    "--",
  ]);
  assert.equal(hiddenFrom(view, "/repo/.jn/profiles/mcp/p"), false);
  assert.equal(hiddenFrom(view, "/repo/.jn/profiles/mcp/p/out/x"), true);
  assert.equal(hiddenFrom(view, "/repo/src"), true);
  // The profile's directory declared writable itself is not kept: the command cannot start there.
  const own = samplingView({ ...PLAN, write: ["/repo"] }, stat)!;
  assert.equal(hiddenFrom(own, "/repo/.jn/profiles/mcp/p"), true);
});

/**
 * A trusted project profile running asker.mjs with `sandbox` and a sampling
 * command (a `deno` server with `deno_permissions` instead, given `deno`).
 */
async function sampled(
  sandboxField: unknown,
  samplingCommand: string,
  extra: string[] = [],
  deno?: Record<string, unknown>,
  env?: Record<string, string>,
) {
  const box = await sandbox();
  try {
    const dir = join(box.projectProfiles, "samp");
    await box.write(join(box.project, "README"), "the repository's own file\n");
    await box.write(join(box.project, "out", "planted.txt"), "what the server wrote\n");
    await box.write(join(dir, "answer.txt"), "from the profile\n");
    await box.write(
      join(dir, "_meta.json"),
      JSON.stringify({
        ...deno
          ? {
            command: "deno",
            args: ["run", `${FIXTURES}/servers/asker.mjs`],
            deno_permissions: deno,
          }
          : { command: "node", args: [`${FIXTURES}/servers/asker.mjs`], sandbox: sandboxField },
        sampling_command: samplingCommand,
      }),
    );
    const trust = await box.run(["profile", "trust", "@samp"]);
    assert.equal(trust.code, 0, trust.stderr);
    const run = await box.run(["cat", "@samp?tool=ask_sample", ...extra], { env });
    const [record] = parseNdjson(run.stdout) as { text?: string }[];
    const answer = record?.text ? JSON.parse(record.text) : undefined;
    return { run, answer };
  } finally {
    await box.dispose();
  }
}

/** Run in the profile's directory: its own file, the repository's README, a write to HOME. */
const SHOW = "cat answer.txt; cat ../../../../README 2>&1 | head -1; " +
  'echo state > "$HOME/.sampler-state" && echo home-writable';

Deno.test({
  name:
    "a profile's sampling command beside a server that writes the repository: it answers, without the repository",
  ignore: NO_BWRAP,
  fn: async () => {
    const { run, answer } = await sampled({ write: ["."] }, SHOW);
    assert.equal(run.code, 0, run.stderr);
    const text = answer?.result?.content?.text ?? "";
    assert.match(text, /^from the profile\n/, run.stderr);
    assert.doesNotMatch(text, /the repository's own file/);
    assert.match(text, /home-writable/);
    assert.match(
      run.stderr,
      /sampling command runs with what the sandboxed server may write hidden/,
    );
  },
});

Deno.test({
  name:
    "a profile's sampling command beside a server that writes ./out: the repository is there, out is not",
  ignore: NO_BWRAP,
  fn: async () => {
    const { run, answer } = await sampled(
      { write: ["./out"] },
      "cat ../../../../README; cat ../../../../out/planted.txt 2>/dev/null || echo hidden",
    );
    assert.equal(run.code, 0, run.stderr);
    const text = answer?.result?.content?.text ?? "";
    assert.equal(text, "the repository's own file\nhidden", JSON.stringify(answer));
    assert.match(run.stderr, /hidden from it: .*\/out \(/);
  },
});

Deno.test({
  name: "a server that writes nothing of yours: the sampling command runs as before, no notice",
  ignore: NO_BWRAP,
  fn: async () => {
    const { run, answer } = await sampled(true, "cat ../../../../README");
    assert.equal(run.code, 0, run.stderr);
    assert.equal(answer?.result?.content?.text, "the repository's own file");
    assert.doesNotMatch(run.stderr, /hidden from it/);
  },
});

Deno.test({
  name:
    "the profile's directory writable by its server: its sampling command is refused, saying why",
  ignore: NO_BWRAP,
  fn: async () => {
    const { run, answer } = await sampled({ write: ["./.jn/profiles/mcp/samp"] }, "cat answer.txt");
    assert.equal(answer?.error?.code, -1, run.stdout);
    assert.match(
      run.stderr,
      /declined a sampling request: the profile's sampling_command runs beside a sandboxed server that may write .*samp, its own directory included: give --sampling-command yourself/,
    );
  },
});

Deno.test({
  name:
    "the caller's own --sampling-command runs as typed, beside a server that writes the repository",
  ignore: NO_BWRAP,
  fn: async () => {
    const marker = await Deno.makeTempFile();
    await Deno.remove(marker);
    try {
      const { run, answer } = await sampled(
        { write: ["."] },
        "cat answer.txt",
        ["--sampling-command", `cat README; echo > ${marker}`],
      );
      assert.equal(run.code, 0, run.stderr);
      assert.equal(answer?.result?.content?.text, "the repository's own file");
      assert.equal(await exists(marker), true);
      assert.doesNotMatch(run.stderr, /hidden from it/);
    } finally {
      await Deno.remove(marker).catch(() => {});
    }
  },
});

/** Host pids of processes whose command line is `argv` (a zombie does not count; `ps`, not /proc). */
async function running(argv: string): Promise<number[]> {
  const { stdout } = await new Deno.Command("ps", {
    args: ["-eo", "pid=,stat=,args="],
    stdout: "piped",
    stderr: "null",
  }).output();
  return new TextDecoder().decode(stdout).split("\n").flatMap((line) => {
    const [, pid, stat, args] = /^\s*(\d+)\s+(\S+)\s+(.*)$/.exec(line) ?? [];
    return pid && !stat.startsWith("Z") && args.trim() === argv ? [Number(pid)] : [];
  });
}

/** `running(argv)` once it is empty, or what still runs after 2 s. */
async function gone(argv: string): Promise<number[]> {
  let left = await running(argv);
  for (let i = 0; i < 40 && left.length > 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    left = await running(argv);
  }
  return left;
}

Deno.test({
  name: "a confined sampling command leaves nothing running: a job it left, and when jn gives up",
  ignore: NO_BWRAP,
  fn: async () => {
    // Numbers no other process of the machine uses, to find the jobs from outside their pid namespace.
    const left = `sleep ${3000 + Math.floor(Math.random() * 900)}`;
    const waiting = `sleep ${4000 + Math.floor(Math.random() * 900)}`;
    try {
      // setsid: out of the command's process group, not out of its pid namespace.
      const answered = await sampled({ write: ["./out"] }, `setsid ${left} & echo answer`);
      assert.equal(answered.answer?.result?.content?.text, "answer", answered.run.stderr);
      assert.deepEqual(await gone(left), [], "the confined command's job outlived it");
      const timedOut = await sampled({ write: ["./out"] }, `${waiting} & wait`, [
        "--timeout",
        "1s",
      ]);
      assert.equal(timedOut.run.code, 4, timedOut.run.stderr);
      assert.deepEqual(await gone(waiting), [], "the confined command outlived jn's timeout");
    } finally {
      for (const pid of [...await running(left), ...await running(waiting)]) {
        try {
          Deno.kill(pid, "SIGKILL");
        } catch { /* gone */ }
      }
    }
  },
});

Deno.test({
  name:
    "a Deno server confined by its permissions: its writable paths are hidden from the sampling command too",
  ignore: NO_BWRAP,
  fn: async (t) => {
    await t.step("--allow-write=./out: the repository is there, out is not", async () => {
      const { run, answer } = await sampled(
        undefined,
        "cat ../../../../README; cat ../../../../out/planted.txt 2>/dev/null || echo hidden",
        [],
        { write: ["./out"] },
      );
      assert.equal(run.code, 0, run.stderr);
      assert.equal(answer?.result?.content?.text, "the repository's own file\nhidden", run.stderr);
    });
    await t.step("--allow-write=.: it may write the profile's directory; refused", async () => {
      const { run, answer } = await sampled(undefined, "cat answer.txt", [], { write: ["."] });
      assert.equal(answer?.error?.code, -1, run.stdout);
      assert.match(run.stderr, /its own directory included/);
    });
    await t.step(
      "a bare --allow-write: not confined, nothing to keep from it: as before",
      async () => {
        const { run, answer } = await sampled(undefined, "cat ../../../../out/planted.txt", [], {
          write: true,
          read: true,
        });
        assert.equal(answer?.result?.content?.text, "what the server wrote", run.stderr);
      },
    );
  },
});

Deno.test("without bubblewrap, a profile's sampling command beside a Deno server that writes ./out is refused, saying why", async () => {
  // A PATH with deno and nothing else: no bwrap to hide ./out with.
  const bin = await Deno.makeTempDir({ prefix: "jn-nobwrap-" });
  try {
    await Deno.symlink(Deno.execPath(), join(bin, "deno"));
    const { run, answer } = await sampled(undefined, "cat answer.txt", [], { write: ["./out"] }, {
      PATH: bin,
    });
    assert.equal(answer?.error?.code, -1, run.stderr);
    assert.match(
      run.stderr,
      /declined a sampling request: the profile's sampling_command runs beside a sandboxed server that may write .*\/out, and jn hides those from it with bubblewrap: Cannot sandbox "the sampling command": bubblewrap \(bwrap\) is not installed \(install bubblewrap/,
    );
  } finally {
    await Deno.remove(bin, { recursive: true });
  }
});
