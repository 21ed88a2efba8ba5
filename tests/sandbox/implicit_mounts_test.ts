/**
 * What jn gives a sandboxed server without being asked (issue #12, "what a
 * confined server can reach"): the script and what its runtime resolves
 * from, never a broad directory and never another argument; and where the
 * server starts when the working directory is hidden. Against a fake file
 * system (the planner sees the host only through callbacks).
 */

import assert from "node:assert/strict";
import { SandboxError } from "../../lib/errors.ts";
import { isBroad } from "../../lib/sandbox/host_view.ts";
import type { StdioLaunch } from "../../lib/launch/spec.ts";
import { planSandbox, visibleIn } from "../../lib/sandbox/plan.ts";
import { findScript } from "../../lib/sandbox/runtime_mounts.ts";
import { fakeHost } from "./fake_host.ts";

const NONE = { network: false, read: [], write: [] };

function launch(command: string, args: string[], cwd?: string): StdioLaunch {
  return { transport: "stdio", command, args, env: {}, label: `${command} test`, cwd };
}

Deno.test("a script's mounts: its package, never a broad directory", async (t) => {
  await t.step("a script directly in $HOME: the file alone, not $HOME", () => {
    const host = fakeHost({ files: { "/home/me/server.js": "", "/home/me/.ssh/id": "k" } });
    const plan = planSandbox(launch("node", ["/home/me/server.js"]), NONE, host);
    assert.deepEqual(plan.read, ["/home/me/server.js"]);
    assert.equal(visibleIn(plan, "/home/me/.ssh/id"), false);
  });
  await t.step("a script in /tmp: the file alone", () => {
    const host = fakeHost({ files: { "/tmp/server.py": "" } });
    const plan = planSandbox(launch("python3", ["/tmp/server.py"]), NONE, host);
    assert.deepEqual(plan.read, ["/tmp/server.py"]);
  });
  await t.step("a script in a package: the package directory (nearest package.json)", () => {
    const host = fakeHost({
      files: { "/home/me/proj/package.json": "{}", "/home/me/proj/dist/index.js": "" },
    });
    const plan = planSandbox(launch("node", ["/home/me/proj/dist/index.js"]), NONE, host);
    assert.deepEqual(plan.read, ["/home/me/proj"]);
  });
  await t.step("a loose script: its own directory when that is not broad", () => {
    const host = fakeHost({ files: { "/home/me/tools/mcp/server.mjs": "" } });
    const plan = planSandbox(launch("node", ["/home/me/tools/mcp/server.mjs"]), NONE, host);
    assert.deepEqual(plan.read, ["/home/me/tools/mcp"]);
  });
  await t.step("Node: the node_modules tree the script's imports resolve from", () => {
    const pkg = "/home/me/app/node_modules/@scope/server/";
    const host = fakeHost({
      files: {
        "/home/me/app/package.json": "{}",
        [`${pkg}package.json`]: "{}",
        [`${pkg}dist/index.js`]: "",
        "/home/me/app/node_modules/zod/package.json": "{}",
        "/home/me/app/secrets.env": "TOKEN=1",
      },
    });
    const plan = planSandbox(launch("node", [`${pkg}dist/index.js`]), NONE, {
      ...host,
      cwd: "/home/me/app/node_modules",
    });
    assert.deepEqual(plan.read, ["/home/me/app/node_modules"]);
    assert.equal(visibleIn(plan, "/home/me/app/secrets.env"), false);
  });
  await t.step("Node: node_modules above the package (a workspace's hoisted tree)", () => {
    const host = fakeHost({
      files: {
        "/srv/mono/packages/server/package.json": "{}",
        "/srv/mono/packages/server/index.js": "",
        "/srv/mono/node_modules/sdk/package.json": "{}",
      },
    });
    const plan = planSandbox(launch("node", ["/srv/mono/packages/server/index.js"]), NONE, host);
    assert.deepEqual(plan.read.sort(), ["/srv/mono/node_modules", "/srv/mono/packages/server"]);
  });
  await t.step("Node: never a node_modules directly in a broad directory", () => {
    const host = fakeHost({
      files: { "/home/me/node_modules/x/index.js": "", "/home/me/srv/index.js": "" },
    });
    const plan = planSandbox(launch("node", ["/home/me/srv/index.js"]), NONE, host);
    assert.deepEqual(plan.read, ["/home/me/srv"]);
  });
  await t.step("Python: the project (pyproject.toml) and the user's site-packages", () => {
    const host = fakeHost({
      files: {
        "/home/me/tool/pyproject.toml": "",
        "/home/me/tool/src/tool/server.py": "",
        "/home/me/.local/lib/python3.11/site-packages/mcp/__init__.py": "",
      },
    });
    const plan = planSandbox(
      launch("python3", ["-u", "/home/me/tool/src/tool/server.py"]),
      NONE,
      host,
    );
    assert.deepEqual(plan.read, [
      "/home/me/tool",
      "/home/me/.local/lib/python3.11/site-packages",
    ]);
  });
  await t.step("Deno: the directory of its deno.json", () => {
    const host = fakeHost({
      files: { "/home/me/d/deno.json": "{}", "/home/me/d/src/main.ts": "" },
    });
    const plan = planSandbox(
      launch("deno", [
        "run",
        "--no-prompt",
        "--allow-read=/home/me/d/src",
        "/home/me/d/src/main.ts",
      ]),
      NONE,
      host,
    );
    assert.deepEqual(plan.read, ["/home/me/d"]);
  });
  await t.step("a launcher reached through a symlink: its installation, and the link to it", () => {
    const host = fakeHost({
      files: {
        "/home/me/.local/pipx/venvs/tool/bin/tool": "",
        "/home/me/.local/pipx/venvs/tool/pyvenv.cfg": "",
      },
      links: { "/home/me/.local/bin/tool": "/home/me/.local/pipx/venvs/tool/bin/tool" },
    });
    const plan = planSandbox(launch("tool", []), NONE, {
      ...host,
      cwd: "/usr",
      commandPath: "/home/me/.local/bin/tool",
    });
    assert.deepEqual(plan.read, ["/home/me/.local/pipx/venvs/tool"]);
    assert.deepEqual(plan.links, [
      { path: "/home/me/.local/bin/tool", target: "/home/me/.local/pipx/venvs/tool/bin/tool" },
    ]);
  });
});

Deno.test("other arguments naming host paths are not given, with a notice", async (t) => {
  const host = fakeHost({
    files: { "/srv/app/server.js": "", "/run/docker.sock": null, "/srv/data/x.csv": "" },
    dirs: ["/home/me"],
  });
  const plan = planSandbox(
    launch("node", ["/srv/app/server.js", "/", "/home/me", "/run/docker.sock", "/srv/data"]),
    NONE,
    { ...host, cwd: "/srv/app" },
  );
  await t.step("only the script's directory is visible", () => {
    assert.deepEqual(plan.read, ["/srv/app"]);
    for (const path of ["/home/me", "/run/docker.sock", "/srv/data/x.csv"]) {
      assert.equal(visibleIn(plan, path), false, path);
    }
  });
  await t.step("each hidden argument gets a notice naming the flag that grants it", () => {
    assert.deepEqual(plan.notices, [
      'the sandbox hides "/", an argument of the server: grant it with --sandbox-read / (or --sandbox-write /)',
      'the sandbox hides "/home/me", an argument of the server: grant it with --sandbox-read /home/me (or --sandbox-write /home/me)',
      'the sandbox hides "/run/docker.sock" (a socket or device), an argument of the server: grant it with --sandbox-read /run/docker.sock (or --sandbox-write /run/docker.sock)',
      'the sandbox hides "/srv/data", an argument of the server: grant it with --sandbox-read /srv/data (or --sandbox-write /srv/data)',
    ]);
  });
  await t.step("a declared path is given and needs no notice", () => {
    const granted = planSandbox(
      launch("node", ["/srv/app/server.js", "/srv/data"]),
      { ...NONE, read: ["/srv/data"] },
      { ...host, cwd: "/srv/app" },
    );
    assert.deepEqual(granted.notices, []);
    assert.ok(visibleIn(granted, "/srv/data/x.csv"));
  });
});

Deno.test("a hidden working directory is an error when the server uses it", async (t) => {
  const host = fakeHost({
    files: { "/srv/app/server.js": "", "/home/me/proj/data/a.txt": "" },
  });
  const fails = (l: StdioLaunch, pattern: RegExp) =>
    assert.throws(
      () => planSandbox(l, NONE, host),
      (error) => error instanceof SandboxError && pattern.test(error.message + "\n" + error.hint),
    );
  await t.step('an argument "." is an error with a hint', () => {
    fails(
      launch("node", ["/srv/app/server.js", "."]),
      /its argument "\." is a path in the working directory \/home\/me\/proj, which the sandbox hides\nshow the directory with --sandbox-read \./,
    );
  });
  await t.step("a relative path that exists there is an error too", () => {
    fails(launch("npx", ["-y", "pkg", "data/a.txt"]), /its argument "data\/a\.txt"/);
    fails(launch("uvx", ["tool", "../x"]), /its argument "\.\.\/x"/);
  });
  await t.step("a relative script is an error", () => {
    fails(launch("node", ["server.js"]), /its argument "server\.js"/);
  });
  await t.step("with the directory declared, the server starts there", () => {
    const plan = planSandbox(launch("node", ["/srv/app/server.js", "."]), {
      ...NONE,
      read: ["/home/me/proj"],
    }, host);
    assert.equal(plan.chdir, "/home/me/proj");
    assert.deepEqual(plan.notices, []);
  });
  await t.step("a profile's cwd is given when it is not broad", () => {
    const plan = planSandbox(launch("node", ["/srv/app/server.js", "."], "/home/me/proj"), NONE, {
      ...host,
      cwd: "/elsewhere",
    });
    assert.equal(plan.chdir, "/home/me/proj");
    assert.ok(plan.read.includes("/home/me/proj"));
  });
  await t.step("a profile's cwd that does not exist is an error saying so", () => {
    fails(launch("node", ["/srv/app/server.js"], "/srv/nope"), /"\/srv\/nope" does not exist/);
  });
  await t.step("a profile's broad cwd is an error naming --sandbox-read", () => {
    fails(
      launch("node", ["/srv/app/server.js"], "/home/me"),
      /its working directory "\/home\/me" is hidden in the sandbox\njn does not give a directory this broad on its own: --sandbox-read \/home\/me gives it/,
    );
  });
});

Deno.test("findScript() finds the script an interpreter runs", () => {
  const at = (command: string, args: string[]) => {
    const found = findScript(launch(command, args), "/w");
    return found && { runtime: found.runtime, index: found.index, path: found.path };
  };
  assert.deepEqual(at("node", ["--require", "/x/hook.js", "/x/s.js", "--flag"]), {
    runtime: "node",
    index: 2,
    path: "/x/s.js",
  });
  assert.deepEqual(at("python3.12", ["-u", "s.py"]), {
    runtime: "python",
    index: 1,
    path: "/w/s.py",
  });
  assert.deepEqual(at("deno", ["run", "--config", "d.json", "-A", "m.ts"]), {
    runtime: "deno",
    index: 4,
    path: "/w/m.ts",
  });
  assert.equal(at("python3", ["-m", "pkg.server"]), undefined);
  assert.equal(at("node", ["-e", "1"]), undefined);
  assert.equal(at("deno", ["run", "jsr:@x/y"]), undefined);
  assert.equal(at("npx", ["-y", "pkg"]), undefined);
});

Deno.test("isBroad() names what jn never gives without being asked", () => {
  for (
    const path of [
      "/",
      "/home",
      "/tmp",
      "/root",
      "/srv",
      "/home/me",
      "/home/me/.cache",
      "/run/user/1000",
      "/var/tmp",
    ]
  ) {
    assert.equal(isBroad(path, "/home/me"), true, path);
  }
  for (const path of ["/home/me/proj", "/srv/app", "/home/me/.nvm", "/opt/tool"]) {
    assert.equal(isBroad(path, "/home/me"), false, path);
  }
});
