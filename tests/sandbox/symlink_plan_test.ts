/**
 * Symlinks never widen the sandbox (red team, issue #12): every path jn
 * gives a server is judged and bound by its real path, against a fake file
 * system. A `node_modules` above the package that links to `/` or `$HOME`,
 * a symlink a server planted in its own npx cache, a profile `cwd` or
 * declared path that leads to `$HOME`: none of them reaches the server. A
 * legitimate symlink (a monorepo's shared `node_modules`) still works: its
 * real path is bound and the link re-created in the sandbox.
 */

import assert from "node:assert/strict";
import { SandboxError } from "../../lib/errors.ts";
import type { StdioLaunch } from "../../lib/launch/spec.ts";
import { bwrapArgs } from "../../lib/sandbox/bwrap.ts";
import { adaptLauncher, jnCache } from "../../lib/sandbox/launcher_state.ts";
import { npxHash } from "../../lib/sandbox/npx_cache.ts";
import { planSandbox, type SandboxPlan, visibleIn } from "../../lib/sandbox/plan.ts";
import { fakeHost, type FakeTree } from "./fake_host.ts";

const NONE = { network: false, read: [], write: [] };
const SECRET = "/home/me/.ssh/id_ed25519";

function node(script: string, cwd?: string, ...args: string[]): StdioLaunch {
  return {
    transport: "stdio",
    command: "node",
    args: [script, ...args],
    env: {},
    label: "srv",
    cwd,
  };
}

/** Every host path the server could reach under `plan` through one of its binds. */
function reaches(plan: SandboxPlan, path: string): boolean {
  return [...plan.read, ...plan.write].some((root) => path === root || path.startsWith(`${root}/`));
}

/** The sources of bwrap's `--bind`/`--ro-bind` options. */
function bindSources(args: string[]): string[] {
  return args.flatMap((arg, index) => /^--(ro-)?bind$/.test(arg) ? [args[index + 1]] : []);
}

const refuses = (run: () => unknown, pattern: RegExp) =>
  assert.throws(run, (error) => {
    assert.ok(error instanceof SandboxError, String(error));
    assert.match(`${error.message}\nhint: ${error.hint}`, pattern);
    return true;
  });

Deno.test("a node_modules symlink above the package: judged by where it leads", async (t) => {
  const tree = (target: string): FakeTree => ({
    files: {
      [SECRET]: "KEY",
      "/home/me/repo/packages/srv/package.json": "{}",
      "/home/me/repo/packages/srv/server.mjs": "",
      "/home/me/shared/nm/zod/package.json": "{}",
    },
    dirs: ["/run/user/1000"],
    links: { "/home/me/repo/node_modules": target },
  });
  const script = "/home/me/repo/packages/srv/server.mjs";
  for (const [target, what] of [["/", "/"], ["/home/me", "$HOME"], ["/home/me/.ssh", "~/.ssh"]]) {
    await t.step(`node_modules -> ${what}: left out, with a notice`, () => {
      const plan = planSandbox(node(script), NONE, fakeHost(tree(target)));
      assert.deepEqual(plan.read, ["/home/me/repo/packages/srv"]);
      assert.deepEqual(plan.links, []);
      assert.equal(reaches(plan, SECRET), false);
      assert.equal(visibleIn(plan, `/home/me/repo/node_modules/.ssh/id_ed25519`), false);
      assert.ok(
        plan.notices.includes(
          `jn leaves out /home/me/repo/node_modules: it is a symlink to ${target}, ` +
            "which jn never gives on its own",
        ),
        plan.notices.join("\n"),
      );
      const sources = bindSources(bwrapArgs(plan));
      assert.equal(sources.includes("/home/me/repo/node_modules"), false);
      assert.equal(sources.includes(target), false);
    });
  }
  await t.step("a shared node_modules elsewhere: its real path bound, the link re-created", () => {
    const plan = planSandbox(node(script), NONE, fakeHost(tree("/home/me/shared/nm")));
    assert.deepEqual(plan.read.sort(), ["/home/me/repo/packages/srv", "/home/me/shared/nm"]);
    assert.deepEqual(plan.links, [
      { path: "/home/me/repo/node_modules", target: "/home/me/shared/nm" },
    ]);
    assert.ok(visibleIn(plan, "/home/me/repo/node_modules/zod/package.json"));
    const bwrap = bwrapArgs(plan).join(" ");
    assert.match(bwrap, /--ro-bind \/home\/me\/shared\/nm \/home\/me\/shared\/nm/);
    assert.match(bwrap, /--symlink \/home\/me\/shared\/nm \/home\/me\/repo\/node_modules/);
  });
});

Deno.test("a server's own npx cache is hostile: nothing in it leads out of the install", async (t) => {
  const caller = { HOME: "/home/me", PATH: "/usr/bin" };
  const spec = "evil-mcp-pkg@1.0.0";
  const own = `${await jnCache({ callerEnv: caller, host: { os: "linux" } }, "npx", [spec])}/npm`;
  const install = `${own}/_npx/${await npxHash([spec])}`;
  const files = {
    [SECRET]: "KEY",
    "/home/me/work/secret-project/notes.txt": "secret",
    [`${install}/package.json`]: JSON.stringify({ _npx: { packages: [spec] } }),
    [`${install}/node_modules/evil-mcp-pkg/package.json`]: JSON.stringify({
      name: "evil-mcp-pkg",
      version: "1.0.0",
      bin: "server.mjs",
    }),
    [`${install}/node_modules/evil-mcp-pkg/server.mjs`]: "#!/usr/bin/env node\n",
  };
  const plan = async (links: Record<string, string>) => {
    const host = fakeHost({ files, links }, { cwd: "/" });
    const launch: StdioLaunch = {
      transport: "stdio",
      command: "npx",
      args: ["--prefix", "/dev/null", "-y", spec],
      env: {},
      label: "npx evil",
    };
    const adapted = await adaptLauncher(launch, { network: false, callerEnv: caller, host });
    return planSandbox(adapted.launch, NONE, {
      ...host,
      commandPath: links[`${install}/node_modules/.bin/node`]
        ? `${install}/node_modules/.bin/node`
        : undefined,
    }, adapted.mounts);
  };
  await t.step("a planted <cache>/_npx/node_modules -> $HOME is not bound", async () => {
    const boxed = await plan({ [`${own}/_npx/node_modules`]: "/home/me" });
    assert.deepEqual(boxed.read, [`${install}/node_modules`]);
    assert.equal(reaches(boxed, SECRET), false);
  });
  await t.step(
    "nor one -> a narrow host directory (nothing above the install is given)",
    async () => {
      const boxed = await plan({ [`${own}/_npx/node_modules`]: "/home/me/work/secret-project" });
      assert.deepEqual(boxed.read, [`${install}/node_modules`]);
      assert.equal(reaches(boxed, "/home/me/work/secret-project/notes.txt"), false);
    },
  );
  await t.step("a package's nested node_modules -> $HOME stays out", async () => {
    const boxed = await plan({
      [`${install}/node_modules/evil-mcp-pkg/node_modules`]: "/home/me/work",
    });
    assert.deepEqual(boxed.read, [`${install}/node_modules`]);
    assert.equal(reaches(boxed, "/home/me/work/secret-project/notes.txt"), false);
  });
  await t.step("a planted .bin/node -> a key: not an installation to bind", async () => {
    const boxed = await plan({ [`${install}/node_modules/.bin/node`]: SECRET });
    assert.equal(reaches(boxed, SECRET), false);
    assert.deepEqual(boxed.read, [`${install}/node_modules`]);
  });
  await t.step("an install whose node_modules is itself a symlink is not used", async () => {
    const elsewhere = "/home/me/work/secret-project";
    const host = fakeHost({
      files: { ...files, [`${elsewhere}/evil-mcp-pkg/package.json`]: "{}" },
      links: { [`${install}/node_modules`]: elsewhere },
    });
    await assert.rejects(
      () =>
        adaptLauncher(
          { transport: "stdio", command: "npx", args: ["-y", spec], env: {}, label: "npx evil" },
          { network: false, callerEnv: caller, host },
        ),
      SandboxError,
    );
  });
});

Deno.test("a profile's cwd or sandbox path is judged by where it leads", async (t) => {
  const host = fakeHost({
    files: {
      [SECRET]: "KEY",
      "/srv/app/server.js": "",
      "/srv/datasets/a.csv": "",
      "/home/me/repo/README": "",
    },
    links: {
      "/home/me/repo/data": "/home/me",
      "/home/me/repo/keys": "/home/me/.ssh",
      "/home/me/repo/sets": "/srv/datasets",
    },
  }, { cwd: "/home/me/repo" });
  const script = "/srv/app/server.js";
  await t.step("a cwd that is a symlink to $HOME: exit 6, naming where it leads", () => {
    refuses(
      () => planSandbox(node(script, "/home/me/repo/data"), NONE, host),
      /its working directory "\/home\/me\/repo\/data" is a symlink to "\/home\/me"\nhint: jn does not follow a symlink to a broad or credential directory: if you mean it, --sandbox-read \/home\/me gives it/,
    );
  });
  await t.step("a cwd that is a symlink to ~/.ssh: exit 6 too", () => {
    refuses(() => planSandbox(node(script, "/home/me/repo/keys"), NONE, host), /symlink to/);
  });
  await t.step("a cwd that is a symlink to a narrow directory: its real path", () => {
    const plan = planSandbox(node(script, "/home/me/repo/sets", "."), NONE, host);
    assert.equal(plan.chdir, "/srv/datasets");
    assert.ok(plan.read.includes("/srv/datasets"));
  });
  for (const path of ["/home/me/repo/data", "/home/me/repo/keys", "/home/me/repo/data/.ssh"]) {
    await t.step(`a profile's read path ${path} (a symlink): refused`, () => {
      refuses(
        () => planSandbox(node(script), { ...NONE, read: [path] }, host),
        /is a symlink to "\/home\/me(\/\.ssh)?"\nhint: jn does not follow a symlink to a broad or credential directory: if you mean it, give --sandbox-read \/home\/me/,
      );
    });
  }
  await t.step("typed on the command line, a symlink is still no way to $HOME", () => {
    refuses(
      () =>
        planSandbox(node(script), { ...NONE, write: ["/home/me/repo/data"] }, host, undefined, {
          explicit: ["/home/me/repo/data"],
        }),
      /is a symlink to "\/home\/me"\nhint: .*give --sandbox-write \/home\/me$/,
    );
  });
  await t.step("a profile's path that is $HOME or / itself: only the command line gives it", () => {
    for (const path of ["/home/me", "/home", "/"]) {
      refuses(
        () => planSandbox(node(script), { ...NONE, read: [path] }, host),
        new RegExp(
          `its profile gives the server "${path}".*\\nhint: jn gives that only when you ask on the command line: --sandbox-read ${path}$`,
        ),
      );
    }
    const plan = planSandbox(node(script), { ...NONE, read: ["/home/me"] }, host, undefined, {
      explicit: ["/home/me"],
    });
    assert.ok(plan.read.includes("/home/me"));
  });
  await t.step("a declared symlink to a narrow directory: its real path, and the link", () => {
    const plan = planSandbox(node(script), { ...NONE, read: ["/home/me/repo/sets"] }, host);
    assert.ok(plan.read.includes("/srv/datasets"));
    assert.deepEqual(plan.links, [{ path: "/home/me/repo/sets", target: "/srv/datasets" }]);
    assert.ok(visibleIn(plan, "/home/me/repo/sets/a.csv"));
  });
});

Deno.test("a launcher's installation: a runtime's directory or its bin, never credentials", async (t) => {
  await t.step("cargo install: ~/.cargo/bin, not ~/.cargo (credentials.toml)", () => {
    const host = fakeHost({
      files: { "/home/me/.cargo/bin/mcp-probe": "", "/home/me/.cargo/credentials.toml": "token" },
    }, { cwd: "/", commandPath: "/home/me/.cargo/bin/mcp-probe" });
    const plan = planSandbox(
      { transport: "stdio", command: "mcp-probe", args: [], env: {}, label: "p" },
      NONE,
      host,
    );
    assert.deepEqual(plan.read, ["/home/me/.cargo/bin"]);
    assert.equal(visibleIn(plan, "/home/me/.cargo/credentials.toml"), false);
  });
  for (const top of ["go", ".deno", ".bun"]) {
    await t.step(`~/${top}/bin/x: the bin directory`, () => {
      const host = fakeHost({ files: { [`/home/me/${top}/bin/x`]: "" } }, {
        cwd: "/",
        commandPath: `/home/me/${top}/bin/x`,
      });
      const plan = planSandbox(
        { transport: "stdio", command: "x", args: [], env: {}, label: "x" },
        NONE,
        host,
      );
      assert.deepEqual(plan.read, [`/home/me/${top}/bin`]);
    });
  }
});

Deno.test("with network, the resolver's file alone: never all of /run", () => {
  const host = fakeHost({
    files: { "/run/resolv.conf": "nameserver 127.0.0.1", "/run/docker.sock": null },
    dirs: ["/run/user/1000"],
    links: { "/etc/resolv.conf": "/run/resolv.conf" },
  }, { cwd: "/" });
  const plan = planSandbox(node("/usr/lib/srv.js"), { ...NONE, network: true }, host);
  assert.deepEqual(plan.read, ["/run/resolv.conf"]);
  assert.equal(visibleIn(plan, "/run/docker.sock"), false);
  assert.equal(visibleIn(plan, "/run/user/1000"), false);
});

Deno.test("root-only secrets of /etc are masked", async (t) => {
  const host = fakeHost({
    files: {
      "/etc/shadow": "root:x",
      "/etc/gshadow": "root:x",
      "/etc/passwd": "root:x:0:0",
      "/etc/ssh/ssh_host_ed25519_key": "KEY",
      "/etc/ssh/ssh_host_ed25519_key.pub": "PUB",
      "/etc/ssh/ssh_config": "",
      "/etc/sudoers.d/README": "",
      "/usr/lib/srv.js": "",
    },
  }, { cwd: "/" });
  const plan = planSandbox(node("/usr/lib/srv.js"), NONE, host);
  await t.step("files behind /dev/null, directories behind an empty read-only tmpfs", () => {
    const args = bwrapArgs(plan).join(" ");
    for (const file of ["/etc/shadow", "/etc/gshadow", "/etc/ssh/ssh_host_ed25519_key"]) {
      assert.ok(args.includes(`--ro-bind /dev/null ${file}`), file);
      assert.equal(visibleIn(plan, file), false, file);
    }
    assert.ok(args.includes("--tmpfs /etc/sudoers.d --remount-ro /etc/sudoers.d"));
    // After the system binds, before the root is made read-only.
    assert.ok(args.indexOf("--ro-bind /dev/null /etc/shadow") > args.indexOf("--ro-bind-try /etc"));
  });
  await t.step("what is not secret stays visible", () => {
    for (
      const file of ["/etc/passwd", "/etc/ssh/ssh_config", "/etc/ssh/ssh_host_ed25519_key.pub"]
    ) {
      assert.equal(visibleIn(plan, file), true, file);
      assert.equal(bwrapArgs(plan).includes(file), false, file);
    }
  });
});
