/**
 * A profile's `env` is the server's, and shapes nothing of jn's own,
 * unconfined launch (issue 23, HIGH), black-box with the probe server:
 *
 * - `PATH` naming a repository's `tools/` does not choose the `bwrap` jn runs;
 * - `LD_PRELOAD` (any loader variable) does not reach bwrap itself;
 * - `HOME` does not move what jn counts as broad: a script in the real
 *   `$HOME` does not expose `~/.ssh`;
 * - `DENO_DIR` does not make a credential directory "the Deno cache";
 * - the server still gets every variable of its `env`, and none of their
 *   values is on bwrap's command line (readable by every user in /proc).
 *
 * Needs bubblewrap (ignored, saying so, without it); the LD_PRELOAD case
 * also needs a C compiler (`cc`).
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { DENO_DIR, exists, runJn, tempDir } from "../helpers.ts";
import { requireBwrap } from "./bwrap_support.ts";
import { cat, probeAt, query } from "./probe.ts";

const NO_BWRAP = await requireBwrap("tests/sandbox/profile_env_attack_test.ts");
const NO_CC = NO_BWRAP || await noCompiler();
const KEY = "-----BEGIN OPENSSH PRIVATE KEY----- the key";

async function noCompiler(): Promise<boolean> {
  try {
    if ((await new Deno.Command("cc", { args: ["--version"], stdout: "null" }).output()).success) {
      return false;
    }
  } catch { /* not installed */ }
  // deno-lint-ignore no-console
  console.error(
    "SKIPPED the LD_PRELOAD case of tests/sandbox/profile_env_attack_test.ts: no C compiler " +
      "(cc) to build the preloaded library; to run it: sudo apt-get install gcc",
  );
  return true;
}

/** A HOME with `~/.ssh/id_ed25519`, a project, and a user profile directory. */
async function layout() {
  const root = await tempDir("jn-env-attack-");
  const home = join(root, "home");
  const project = join(root, "project");
  await Deno.mkdir(join(home, ".ssh"), { recursive: true });
  await Deno.mkdir(project, { recursive: true });
  await Deno.writeTextFile(join(home, ".ssh", "id_ed25519"), KEY);
  const env = { HOME: home, DENO_DIR };
  return {
    root,
    home,
    project,
    env,
    async profile(layer: "user" | "project", name: string, meta: Record<string, unknown>) {
      const base = layer === "user" ? join(home, ".local", "jn", "profiles", "mcp") : join(
        project,
        ".jn",
        "profiles",
        "mcp",
      );
      await Deno.mkdir(join(base, name), { recursive: true });
      await Deno.writeTextFile(join(base, name, "_meta.json"), JSON.stringify(meta, null, 2));
    },
    /** `jn cat @server?ARGS FLAGS…` in the project, with this HOME (and `env`). */
    call(server: string, args: Record<string, string>, flags: string[] = [], extra = {}) {
      return cat(`@${server}?${query(args)}`, flags, {
        env: { ...env, ...extra },
        cwd: project,
      });
    },
    dispose: () => Deno.remove(root, { recursive: true }),
  };
}

type Box = Awaited<ReturnType<typeof layout>>;

/** A test with a fresh layout, disposed after. */
function attack(name: string, ignore: boolean, fn: (box: Box) => Promise<void>) {
  Deno.test({
    name,
    ignore,
    fn: async () => {
      const box = await layout();
      try {
        await fn(box);
      } finally {
        await box.dispose();
      }
    },
  });
}

attack("a profile's PATH does not choose the bwrap jn runs", NO_BWRAP, async (box) => {
  const marker = join(box.root, "FAKE_BWRAP_RAN");
  const fake = join(box.project, "tools", "bwrap");
  await Deno.mkdir(join(box.project, "tools"));
  // Runs unconfined as the user, then hands over to the real bwrap: nothing looks wrong.
  await Deno.writeTextFile(
    fake,
    `#!/bin/sh\necho ran > '${marker}'\nexec /usr/bin/bwrap "$@"\n`,
  );
  await Deno.chmod(fake, 0o755);
  const script = await probeAt(join(box.project, "server", "probe.mjs"));
  await box.profile("project", "tooled", {
    command: "node",
    args: [script],
    env: { PATH: `tools:${join(box.project, "tools")}:/usr/bin:/bin` },
    sandbox: true,
  });
  const opts = { env: box.env, cwd: box.project };
  const trusted = await runJn(["profile", "trust", "@tooled"], opts);
  assert.equal(trusted.code, 0, trusted.stderr);
  const run = await box.call("tooled", { tool: "echo", text: "hi" });
  assert.equal(await exists(marker), false, "the repository's tools/bwrap ran unconfined");
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.record.text, "hi");
});

attack(
  "a profile's LD_PRELOAD does not load into bwrap (only into the confined server)",
  NO_CC,
  async (box) => {
    const marker = join(box.root, "PRELOAD_RAN");
    const source = join(box.root, "preload.c");
    const library = join(box.root, "preload.so");
    await Deno.writeTextFile(
      source,
      `#include <fcntl.h>\n#include <unistd.h>\n` +
        `__attribute__((constructor)) static void pwn(void) {\n` +
        `  int fd = open("${marker}", O_WRONLY | O_CREAT | O_APPEND, 0644);\n` +
        `  if (fd >= 0) { write(fd, "ran\\n", 4); close(fd); }\n}\n`,
    );
    const built = await new Deno.Command("cc", {
      args: ["-shared", "-fPIC", "-o", library, source],
      stderr: "piped",
    }).output();
    assert.ok(built.success, new TextDecoder().decode(built.stderr));
    const script = await probeAt(join(box.project, "server", "probe.mjs"));
    await box.profile("user", "preloaded", {
      command: "node",
      args: [script],
      env: { LD_PRELOAD: library },
      sandbox: true,
    });
    const run = await box.call("preloaded", { tool: "env" });
    assert.equal(
      await exists(marker),
      false,
      "the library's constructor ran outside the sandbox",
    );
    assert.equal(run.code, 0, run.stderr);
    // The server's own variable still reaches it (where the library is not visible).
    assert.equal(JSON.parse(run.record.text).LD_PRELOAD, library);
  },
);

attack(
  "a profile's HOME does not move what jn counts as broad: ~/.ssh stays hidden",
  NO_BWRAP,
  async (box) => {
    const script = await probeAt(join(box.home, "server.mjs"));
    await box.profile("user", "rehomed", {
      command: "node",
      args: [script],
      env: { HOME: "/srv/elsewhere" },
      sandbox: true,
    });
    const key = join(box.home, ".ssh", "id_ed25519");
    const run = await box.call("rehomed", { tool: "read_file", path: key });
    assert.equal(run.stdout.includes("PRIVATE KEY"), false, "the server read ~/.ssh");
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.record.text, /ENOENT/);
    const home = await box.call("rehomed", { tool: "env" });
    assert.equal(JSON.parse(home.record.text).HOME, "/srv/elsewhere", "the server's HOME");
  },
);

attack(
  "a profile's DENO_DIR does not make ~/.ssh the Deno cache of a sandboxed deno server",
  NO_BWRAP,
  async (box) => {
    const script = await probeAt(join(box.project, "server", "probe.mjs"));
    await box.profile("user", "denoish", {
      command: "deno",
      args: ["run", script],
      deno_permissions: { read: true, env: true },
      env: { DENO_DIR: join(box.home, ".ssh") },
      sandbox: true,
    });
    const key = join(box.home, ".ssh", "id_ed25519");
    const run = await box.call("denoish", { tool: "read_file", path: key });
    assert.equal(run.stdout.includes("PRIVATE KEY"), false, "the server read ~/.ssh");
    assert.equal(run.stderr.includes("PRIVATE KEY"), false, run.stderr);
    // The server runs (its own DENO_DIR is not there inside): the key is simply not.
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.record.text, /ENOENT/);
  },
);

attack(
  "a sandboxed server gets its variables exactly, and none is on bwrap's command line",
  NO_BWRAP,
  async (box) => {
    const script = await probeAt(join(box.project, "server", "probe.mjs"));
    const odd = "a value with spaces, 'quotes', = signs\nand a newline";
    await box.profile("user", "vars", {
      command: "node",
      args: [script],
      env: { TOKEN: "${JN_TEST_TOKEN}", ODD: odd, PATH: "/usr/bin:/bin" },
      sandbox: true,
    });
    const run = await box.call("vars", { tool: "env" }, ["--debug"], {
      JN_TEST_TOKEN: "tok-s3cr3t",
    });
    assert.equal(run.code, 0, run.stderr);
    const seen = JSON.parse(run.record.text);
    assert.equal(seen.TOKEN, "tok-s3cr3t");
    assert.equal(seen.ODD, odd);
    assert.equal(seen.PATH, "/usr/bin:/bin");
    assert.equal(seen.HOME, box.home);
    const line = run.stderr.split("\n").find((l) => l.includes("debug: sandboxed:")) ?? "";
    assert.match(line, /bwrap /);
    assert.equal(line.includes("TOKEN"), false, line);
    assert.equal(line.includes("spaces"), false, line);
  },
);
