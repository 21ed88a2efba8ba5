/**
 * The server's variables are the server's (issue 23): the launch jn builds
 * around a sandboxed server starts the sandbox tool in jn's own environment
 * and hands the server its variables inside (bwrap: `--setenv` on
 * descriptor 3, never in the argv; sandbox-exec: the loader's variables
 * through `/usr/bin/env` inside), jn never finds a program through a
 * relative PATH entry, and the one list of code-loading variables says what
 * it flags. Pure where it can be; the unsandboxed lookup starts nothing.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { LaunchError, SandboxError } from "../../lib/errors.ts";
import type { StdioLaunch } from "../../lib/launch/spec.ts";
import { bwrapLaunch, setenvArgs } from "../../lib/sandbox/bwrap.ts";
import { codeLoadingVariables, hasRelativeEntry } from "../../lib/sandbox/code_loading_env.ts";
import { findExecutable, helperProgram } from "../../lib/sandbox/host.ts";
import type { SandboxPlan } from "../../lib/sandbox/plan.ts";
import { prepareLaunch, prepareLaunchWithPlan } from "../../lib/sandbox/prepare.ts";
import { seatbeltLaunch } from "../../lib/sandbox/seatbelt.ts";
import { tempDir } from "../helpers.ts";

const PLAN: SandboxPlan = {
  system: ["/usr"],
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
const SERVER: StdioLaunch = {
  transport: "stdio",
  command: "/usr/bin/node",
  args: ["/srv/s.js"],
  env: { TOKEN: "s3cr3t", LD_PRELOAD: "/x.so" },
  envPassthrough: ["GITHUB_TOKEN"],
  label: "@s",
};

Deno.test("bwrapLaunch(): bwrap in jn's environment, the server's variables on descriptor 3", () => {
  const serverEnv = { PATH: "tools:/usr/bin", TOKEN: "s3cr3t", LD_PRELOAD: "/x.so" };
  const launch = bwrapLaunch(SERVER, PLAN, {
    bwrap: "/usr/bin/bwrap",
    helperEnv: { PATH: "/usr/bin:/bin" },
    serverEnv,
  });
  assert.equal(launch.command, "/usr/bin/bwrap");
  assert.deepEqual(launch.args.slice(0, 2), ["--args", "3"]);
  assert.deepEqual(launch.env, { PATH: "/usr/bin:/bin" });
  assert.equal(launch.envPassthrough, undefined, "passed through inside, not to bwrap");
  for (const value of Object.values(serverEnv)) {
    assert.equal(launch.args.includes(value), false, `${value} is in bwrap's argv`);
  }
  assert.deepEqual(launch.pipedArgs, [
    "--unsetenv",
    "DENO_EXTRA_STDIO_FDS",
    "--setenv",
    "PATH",
    "tools:/usr/bin",
    "--setenv",
    "TOKEN",
    "s3cr3t",
    "--setenv",
    "LD_PRELOAD",
    "/x.so",
  ]);
});

Deno.test("setenvArgs() refuses a NUL byte (it would add bwrap options) and a name with =", () => {
  const cases: Record<string, string>[] = [
    { A: "x\0--bind\0/\0/" },
    { "A\0--bind": "x" },
    { "A=B": "x" },
    { "": "x" },
  ];
  for (const env of cases) {
    assert.throws(() => setenvArgs(env, "@s"), SandboxError, JSON.stringify(env));
  }
});

Deno.test("seatbeltLaunch(): loader variables reach the server through env inside, others stay off the argv", () => {
  const launch = seatbeltLaunch(SERVER, { ...PLAN, system: [] }, {
    sandboxExec: "/usr/bin/sandbox-exec",
    tmpDir: "/t",
    serverEnv: { TOKEN: "s3cr3t", LD_PRELOAD: "/x.so", DYLD_INSERT_LIBRARIES: "/y.dylib" },
  });
  assert.deepEqual(launch.args.slice(2), [
    "/usr/bin/env",
    "LD_PRELOAD=/x.so",
    "DYLD_INSERT_LIBRARIES=/y.dylib",
    "/usr/bin/node",
    "/srv/s.js",
  ]);
  assert.deepEqual(launch.env, { TOKEN: "s3cr3t", TMPDIR: "/t" });
  assert.equal(launch.envPassthrough, undefined);
});

Deno.test("codeLoadingVariables() flags what loads code, with a reason, and nothing else", () => {
  const env = {
    LD_PRELOAD: "./x.so",
    DYLD_INSERT_LIBRARIES: "/y",
    NODE_OPTIONS: "--require ./a.cjs",
    NPM_CONFIG_NODE_OPTIONS: "--require ./a.cjs",
    PYTHONPATH: ".",
    BASH_ENV: "./rc",
    "BASH_FUNC_ls%%": "() { evil; }",
    PATH: "tools:/usr/bin",
    API_TOKEN: "t",
    NODE_ENV: "production",
    LANG: "C.UTF-8",
  };
  const flagged = codeLoadingVariables(env);
  assert.deepEqual(flagged.map((v) => v.name), [
    "LD_PRELOAD",
    "DYLD_INSERT_LIBRARIES",
    "NODE_OPTIONS",
    "NPM_CONFIG_NODE_OPTIONS",
    "PYTHONPATH",
    "BASH_ENV",
    "BASH_FUNC_ls%%",
    "PATH",
  ]);
  assert.ok(flagged.every((v) => v.reason.length > 0));
  assert.deepEqual(flagged.filter((v) => v.loader).map((v) => v.name), [
    "LD_PRELOAD",
    "DYLD_INSERT_LIBRARIES",
  ]);
  assert.deepEqual(codeLoadingVariables({ PATH: "/opt/x/bin:/usr/bin" }), [], "absolute PATH");
  assert.equal(codeLoadingVariables({ PATH: "/usr/bin::/bin" }).length, 1, "an empty entry");
});

Deno.test("codeLoadingVariables(): npm's settings in any spelling, launchers' caches, git's programs, a local PATH", () => {
  const flagged = (env: Record<string, string>, local?: string[]) =>
    codeLoadingVariables(env, { local }).map((v) => v.name);
  const npm = [
    "npm_config_node-options",
    "NPM_CONFIG_NODE-OPTIONS",
    "Npm_Config_UserConfig",
    "npm_config_globalconfig",
    "npm_config_cache",
    "npm_config_prefix",
    "npm_config_script-shell",
    "NPM_CONFIG_SCRIPT_SHELL",
  ];
  const env = Object.fromEntries(npm.map((name) => [name, "./x"]));
  assert.deepEqual(flagged(env), npm);
  // What only chooses the package (like args) is shown, not flagged.
  assert.deepEqual(flagged({ npm_config_registry: "https://r", UV_INDEX_URL: "https://i" }), []);
  const others = [
    "PREFIX",
    "UV_CACHE_DIR",
    "UV_TOOL_DIR",
    "UV_PYTHON",
    "UV_PYTHON_INSTALL_DIR",
    "XDG_CACHE_HOME",
    "DENO_DIR",
    "JN_HOME",
    "GIT_SSH_COMMAND",
    "GIT_EXEC_PATH",
    "git_ssh_command",
  ];
  assert.deepEqual(flagged(Object.fromEntries(others.map((name) => [name, "./x"]))), others);
  assert.deepEqual(flagged({ PATH: "${PWD}/tools:/usr/bin" }), ["PATH"], "a variable");
  assert.deepEqual(flagged({ PATH: "/usr/../srv/p/tools:/usr/bin" }), ["PATH"], "a .. step");
  assert.deepEqual(flagged({ PATH: "/srv/p/tools:/usr/bin" }, ["/srv/p"]), ["PATH"], "local");
  assert.deepEqual(flagged({ PATH: "/srv/px/tools:/usr/bin" }, ["/srv/p"]), [], "a sibling");
});

Deno.test("jn never finds a program through a relative PATH entry", async (t) => {
  const dir = await tempDir("jn-relpath-");
  try {
    await Deno.mkdir(join(dir, "tools"));
    await Deno.writeTextFile(join(dir, "tools", "node"), "#!/bin/sh\necho planted\n");
    await Deno.chmod(join(dir, "tools", "node"), 0o755);
    await t.step("findExecutable() and helperProgram() use absolute entries only", () => {
      assert.equal(hasRelativeEntry("tools:/usr/bin"), true);
      assert.equal(hasRelativeEntry("/usr/bin:/bin"), false);
      assert.equal(findExecutable("node", "tools:."), undefined);
      assert.equal(findExecutable("node", `${dir}/tools`), `${dir}/tools/node`);
      const bwrap = helperProgram("bwrap", { PATH: "tools:/nonexistent" });
      assert.deepEqual(bwrap, { command: "bwrap", env: { PATH: "/nonexistent" } });
    });
    const launch = (env: Record<string, string>, command = "node"): StdioLaunch => ({
      transport: "stdio",
      command,
      args: [],
      env,
      label: "@p",
    });
    await t.step("unsandboxed, a relative entry: the command by its absolute path", async () => {
      const prepared = await prepareLaunch(launch({ PATH: `tools:${dir}/tools` }), {
        cwd: dir,
        callerEnv: { PATH: "/usr/bin:/bin" },
      });
      assert.equal(prepared.transport === "stdio" && prepared.command, `${dir}/tools/node`);
      // The launcher's own lookups (npx's `#!/usr/bin/env node`) see no relative entry either.
      assert.equal(prepared.transport === "stdio" && prepared.env.PATH, `${dir}/tools`);
    });
    await t.step("unsandboxed, found only through a relative entry: refused", async () => {
      await assert.rejects(
        prepareLaunch(launch({ PATH: "tools" }), { cwd: dir, callerEnv: { PATH: "/usr/bin" } }),
        (error) =>
          error instanceof LaunchError &&
          error.message ===
            'Cannot start server "@p": node is not in a directory of its PATH that jn keeps',
      );
    });
    await t.step("unsandboxed, a project profile's PATH inside the current directory", async () => {
      const { launch: prepared, notices } = await prepareLaunchWithPlan(
        launch({ PATH: `${dir}/tools:${dir}/x/../tools:/usr/bin:/bin` }),
        { cwd: dir, callerEnv: {}, local: [dir] },
      );
      assert.equal(prepared.transport === "stdio" && prepared.env.PATH, "/usr/bin:/bin");
      assert.match(notices?.join("\n") ?? "", /leaves out ".*\/tools", ".*\/x\/\.\.\/tools"/);
      // The working directory by another name: /proc/self/cwd is whatever directory runs it.
      const proc = await prepareLaunch(launch({ PATH: "/proc/self/cwd/tools:/usr/bin" }), {
        cwd: dir,
        callerEnv: {},
        local: [dir],
      });
      assert.equal(proc.transport === "stdio" && proc.env.PATH, "/usr/bin");
      // A symlink elsewhere that leads inside is inside.
      const link = await tempDir("jn-relpath-link-");
      try {
        await Deno.symlink(join(dir, "tools"), join(link, "bin"));
        const linked = await prepareLaunch(launch({ PATH: `${link}/bin:/usr/bin` }), {
          cwd: dir,
          callerEnv: {},
          local: [dir],
        });
        assert.equal(linked.transport === "stdio" && linked.env.PATH, "/usr/bin");
      } finally {
        await Deno.remove(link, { recursive: true });
      }
    });
    await t.step(
      "the caller's own PATH keeps its absolute entries, in the current directory too",
      async () => {
        const { launch: prepared, notices } = await prepareLaunchWithPlan(launch({}), {
          cwd: dir,
          callerEnv: { PATH: `.:${dir}/tools:/usr/bin` },
          local: [dir],
        });
        assert.equal(prepared.transport === "stdio" && prepared.env.PATH, `${dir}/tools:/usr/bin`);
        assert.deepEqual(notices, []);
      },
    );
    await t.step("an absolute PATH is left to the OS, as before", async () => {
      const prepared = await prepareLaunch(launch({ PATH: "/usr/bin:/bin" }), {
        cwd: dir,
        callerEnv: {},
      });
      assert.equal(prepared.transport === "stdio" && prepared.command, "node");
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
