/**
 * The release binary: `deno task compile` builds each target from jn's
 * bundle (scripts/bundle.ts) with jn's permission set; where the Deno runtime
 * download is unreachable it says so and stops. Since a binary cannot be
 * built here, the same entry point (the bundle's main.js) runs with the same
 * flags through `deno run`: `--version`, a call through it and its demo
 * server. (jn starting itself, `@demo`, runs `Deno.execPath()` in a binary;
 * through `deno run` it would run main.ts, so it is not tried here.)
 */

import assert from "node:assert/strict";
import config from "../../deno.json" with { type: "json" };
import { permissionFlags } from "../../lib/sandbox/permissions.ts";
import { buildBundle, bundledCommandModules } from "../../scripts/bundle.ts";
import { binaryName, compileArgs, TARGETS } from "../../scripts/compile_args.ts";
import { JsonRpcPeer } from "../fixtures/json_rpc_peer.ts";
import { baseEnv, FIXTURES, ROOT, tempDir } from "../helpers.ts";

const HOST_TARGET = "x86_64-unknown-linux-gnu";

Deno.test("compileArgs() builds every release target with jn's permission set", async (t) => {
  await t.step("five targets: Linux and macOS on x86_64 and aarch64, Windows on x86_64", () => {
    assert.deepEqual(TARGETS.map(binaryName), [
      "jn-x86_64-unknown-linux-gnu",
      "jn-aarch64-unknown-linux-gnu",
      "jn-x86_64-apple-darwin",
      "jn-aarch64-apple-darwin",
      "jn-x86_64-pc-windows-msvc.exe",
    ]);
  });
  await t.step("each compiles the bundle's main.js with exactly permissionFlags()", () => {
    for (const target of TARGETS) {
      const args = compileArgs(target, {
        bundle: "/tmp/b",
        out: "/src/dist",
        flags: permissionFlags(),
      });
      assert.deepEqual(args.slice(0, 6), [
        "compile",
        "--target",
        target,
        "--output",
        `/src/dist/${binaryName(target)}`,
        // npm packages are inlined in the bundle: no import map, no lock file.
        "--no-config",
      ]);
      const includes = bundledCommandModules().flatMap((m) => ["--include", `/tmp/b/${m}`]);
      assert.deepEqual(args.slice(6, 6 + permissionFlags().length), permissionFlags());
      // main.js imports each command's module through a computed specifier: every one of the
      // command table's modules must be included explicitly.
      assert.deepEqual(args.slice(6 + permissionFlags().length), [...includes, "/tmp/b/main.js"]);
      assert.ok(includes.includes("/tmp/b/lib/cli/commands/cat.js"), includes.join(" "));
    }
  });
});

Deno.test("the compiled entry point and flags, run through deno run", async (t) => {
  const bundle = await tempDir("jn-bundle-");
  const compile = compileArgs(HOST_TARGET, { bundle, out: "/dist", flags: permissionFlags() });
  // What `deno compile` is given after `--output FILE`, run instead of compiled (without the
  // `--include`s: `deno run` follows main.js's computed imports by itself).
  const given = compile.slice(compile.indexOf("--output") + 2);
  const run = [
    "run",
    ...given.filter((arg, i) => arg !== "--include" && given[i - 1] !== "--include"),
  ];
  const runBundle = (args: string[]) =>
    new Deno.Command(Deno.execPath(), {
      args: [...run, ...args],
      env: baseEnv(),
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
  await buildBundle(bundle);
  try {
    await t.step("jn --version prints the version of deno.json", async () => {
      const output = await runBundle(["--version"]);
      assert.equal(new TextDecoder().decode(output.stderr), "");
      assert.equal(new TextDecoder().decode(output.stdout), `${config.version}\n`);
      assert.equal(output.code, 0);
    });
    await t.step("jn cat calls a server's tool (the CLI, the SDK, a launcher)", async () => {
      const output = await runBundle([
        "cat",
        `mcp+node://${FIXTURES}/servers/fixture.mjs?tool=echo&text=hello`,
      ]);
      assert.equal(new TextDecoder().decode(output.stderr), "");
      assert.equal(output.code, 0);
      const [record] = new TextDecoder().decode(output.stdout).trim().split("\n").map((line) =>
        JSON.parse(line)
      );
      assert.equal(record.type, "tool_result");
      assert.match(record.text, /hello/);
    });
    await t.step("jn mcp demo-server answers a tool call", async () => {
      const peer = new JsonRpcPeer(Deno.execPath(), [...run, "mcp", "demo-server"], {
        env: baseEnv(),
        clearEnv: true,
      });
      try {
        const init = await peer.initialize();
        assert.deepEqual(init.serverInfo, { name: "jn-demo", version: config.version });
        const answer = await peer.callTool("echo", { text: "from the binary's flags" });
        const result = answer.result as { content: { text: string }[] };
        assert.match(result.content[0].text, /from the binary's flags/);
      } finally {
        await peer.close();
      }
    });
  } finally {
    await Deno.remove(bundle, { recursive: true });
  }
});

Deno.test("deno task compile builds or says why it cannot", async (t) => {
  const out = await tempDir("jn-dist-");
  const compile = (args: string[], env: Record<string, string> = {}) =>
    new Deno.Command(Deno.execPath(), {
      args: ["task", "--config", `${ROOT}/deno.json`, "compile", ...args],
      cwd: ROOT,
      env: { ...baseEnv(), ...env },
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
  try {
    await t.step("one target: a binary with its checksum, or a clear denort message", async () => {
      const output = await compile(["--target", HOST_TARGET, "--out", out]);
      const stderr = new TextDecoder().decode(output.stderr);
      if (output.success) {
        const binary = await Deno.readFile(`${out}/${binaryName(HOST_TARGET)}`);
        const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", binary));
        const hex = [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
        assert.equal(
          await Deno.readTextFile(`${out}/SHA256SUMS`),
          `${hex}  ${binaryName(HOST_TARGET)}\n`,
        );
      } else {
        // Machines without access to dl.deno.land (like jn's development machines).
        assert.equal(output.code, 1);
        assert.match(
          stderr,
          /jn: Cannot compile for x86_64-unknown-linux-gnu: deno compile needs the Deno runtime \(denort\) for it and could not download it from dl\.deno\.land \(.+\)\nhint: set DENORT_BIN to a denort binary for x86_64-unknown-linux-gnu/,
        );
      }
    });
    await t.step("DENORT_BIN must exist", async () => {
      const output = await compile(["--out", out], { DENORT_BIN: `${out}/no-such-denort` });
      assert.equal(output.code, 1);
      assert.match(new TextDecoder().decode(output.stderr), /jn: DENORT_BIN ".*" does not exist/);
    });
    await t.step("DENORT_BIN is one runtime: two targets are refused", async () => {
      const output = await compile(
        ["--target", HOST_TARGET, "--target", "x86_64-apple-darwin"],
        { DENORT_BIN: Deno.execPath() },
      );
      assert.equal(output.code, 1);
      assert.match(
        new TextDecoder().decode(output.stderr),
        /jn: DENORT_BIN is the runtime of one target: give one --target, not 2/,
      );
    });
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});
