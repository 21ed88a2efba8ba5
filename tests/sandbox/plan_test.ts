/**
 * The sandbox plan and the argv/profile text built from it, against a fake
 * file system (the planner sees the host only through callbacks).
 */

import assert from "node:assert/strict";
import { SandboxError } from "../../lib/errors.ts";
import type { StdioLaunch } from "../../lib/launch/spec.ts";
import { bwrapArgs, bwrapLaunch } from "../../lib/sandbox/bwrap.ts";
import {
  type HostView,
  installRoot,
  LINUX_SYSTEM,
  planSandbox,
  within,
} from "../../lib/sandbox/plan.ts";
import { sbplString, seatbeltLaunch, seatbeltProfile } from "../../lib/sandbox/seatbelt.ts";

const DIRS = [
  "/home",
  "/home/me",
  "/home/me/proj",
  "/home/me/proj/out",
  "/home/me/.nvm",
  "/root",
  "/run",
  "/run/systemd/resolve",
  "/tmp",
  "/mnt",
  "/srv/data",
  "/srv",
  "/usr/bin",
  "/home/me/.cache/deno",
];
const FILES = ["/home/me/proj/server.js", "/usr/bin/node", "/run/systemd/resolve/stub.conf"];

function host(overrides: Partial<HostView> = {}): HostView {
  return {
    os: "linux",
    cwd: "/home/me/proj",
    env: { HOME: "/home/me", PATH: "/usr/bin" },
    commandPath: "/usr/bin/node",
    stat: (path) => DIRS.includes(path) ? "dir" : FILES.includes(path) ? "file" : undefined,
    realPath: (path) => path === "/etc/resolv.conf" ? "/run/systemd/resolve/stub.conf" : path,
    ...overrides,
  };
}

const NODE: StdioLaunch = {
  transport: "stdio",
  command: "node",
  args: ["/home/me/proj/server.js", "--verbose"],
  env: {},
  label: "node ./server.js",
};
const NONE = { network: false, read: [], write: [] };

Deno.test("planSandbox() hides the user's places and shows what the server was given", async (t) => {
  await t.step("system directories only, and the script's directory readable", () => {
    const plan = planSandbox(NODE, NONE, host());
    assert.deepEqual(plan.system, LINUX_SYSTEM);
    assert.ok(plan.system.includes("/usr") && plan.system.includes("/etc"));
    for (const hidden of ["/home", "/root", "/run", "/mnt", "/srv", "/var", "/tmp"]) {
      assert.equal(plan.system.some((dir) => within(hidden, dir)), false, hidden);
    }
    assert.deepEqual(plan.hide, []);
    assert.equal(plan.tmp, "/tmp");
    assert.deepEqual(plan.read, ["/home/me/proj"]);
    assert.deepEqual(plan.write, []);
    assert.equal(plan.network, false);
    // The script's directory is visible, and it is the caller's cwd.
    assert.equal(plan.chdir, "/home/me/proj");
  });
  await t.step("declared paths: write wins over read for the same path", () => {
    const plan = planSandbox(NODE, {
      network: false,
      read: ["/srv/data", "/home/me/proj/out"],
      write: ["/home/me/proj/out"],
    }, host());
    assert.deepEqual(plan.read, ["/srv/data", "/home/me/proj"]);
    assert.deepEqual(plan.write, ["/home/me/proj/out"]);
  });
  await t.step("a declared path that does not exist is a SandboxError", () => {
    assert.throws(
      () => planSandbox(NODE, { ...NONE, write: ["/nope"] }, host()),
      (error) =>
        error instanceof SandboxError && /the path "\/nope" does not exist/.test(error.message),
    );
  });
  await t.step("a hidden cwd the server does not use: it starts in /, with a notice", () => {
    const plan = planSandbox({ ...NODE, args: [] }, NONE, host());
    assert.equal(plan.chdir, "/");
    assert.deepEqual(plan.notices, [
      "the server starts in /: your working directory /home/me/proj is hidden in the sandbox " +
      "(--sandbox-read . shows it)",
    ]);
  });
  await t.step(
    "a launcher installed under the home directory is readable (its nvm version directory)",
    () => {
      const v20 = "/home/me/.nvm/versions/node/v20";
      const plan = planSandbox(
        { ...NODE, args: [] },
        NONE,
        host({
          commandPath: `${v20}/bin/node`,
          stat: (path) =>
            path === `${v20}/bin/node`
              ? "file"
              : path === `${v20}/lib/node_modules` || DIRS.includes(path)
              ? "dir"
              : undefined,
        }),
      );
      assert.deepEqual(plan.read, [v20]);
    },
  );
  await t.step("network brings back the resolver's file (alone) when it lives under /run", () => {
    const plan = planSandbox(NODE, { ...NONE, network: true }, host());
    assert.equal(plan.network, true);
    assert.ok(plan.read.includes("/run/systemd/resolve/stub.conf"));
    assert.equal(plan.read.includes("/run/systemd/resolve"), false);
  });
  await t.step("launcher mounts: read-only, writable (created when missing), scratch", () => {
    const plan = planSandbox({ ...NODE, command: "npx", args: [] }, NONE, host(), {
      read: ["/home/me/.npm/_npx/abc/node_modules"],
      write: ["/home/me/.cache/jn/sandbox/npx-1/npm", "/srv/data"],
      scratch: ["/home/me/.cache/deno"],
    });
    assert.deepEqual(plan.read, ["/home/me/.npm/_npx/abc/node_modules"]);
    assert.deepEqual(plan.write, ["/home/me/.cache/jn/sandbox/npx-1/npm", "/srv/data"]);
    assert.deepEqual(plan.create, ["/home/me/.cache/jn/sandbox/npx-1/npm"]);
    assert.deepEqual(plan.scratch, ["/home/me/.cache/deno"]);
  });
  await t.step("nothing of a launcher's host cache is writable by default", () => {
    for (const command of ["npx", "uvx", "deno"]) {
      const plan = planSandbox({ ...NODE, command, args: [] }, NONE, host());
      assert.deepEqual(plan.write, [], command);
    }
  });
});

Deno.test("installRoot() picks the smallest directory a launcher needs", () => {
  const layout = (files: string[], dirs: string[] = []) =>
    host({
      stat: (path) => files.includes(path) ? "file" : dirs.includes(path) ? "dir" : undefined,
      list: (path) =>
        dirs.filter((dir) => dir.startsWith(`${path}/`)).map((dir) => dir.slice(path.length + 1)),
    });
  // An nvm version directory (a Node installation), not all of ~/.nvm.
  const v20 = "/home/me/.nvm/versions/node/v20";
  assert.equal(
    installRoot(
      `${v20}/bin/node`,
      "/home/me",
      layout([`${v20}/bin/node`], [`${v20}/lib/node_modules`]),
    ),
    v20,
  );
  // A pyenv version directory (a Python installation).
  const py = "/home/me/.pyenv/versions/3.12.1";
  assert.equal(
    installRoot(
      `${py}/bin/python3`,
      "/home/me",
      layout([`${py}/lib/python3.12/os.py`], [`${py}/lib/python3.12`]),
    ),
    py,
  );
  // pyenv's shims run pyenv itself.
  assert.equal(
    installRoot(
      "/home/me/.pyenv/shims/python3",
      "/home/me",
      layout([], ["/home/me/.pyenv/libexec"]),
    ),
    "/home/me/.pyenv",
  );
  // cargo, go, deno, bun: the bin directory, never the directory holding credentials.toml & co.
  for (const top of [".cargo", "go", ".deno", ".bun"]) {
    assert.equal(
      installRoot(`/home/me/${top}/bin/tool`, "/home/me", layout([])),
      `/home/me/${top}/bin`,
    );
  }
  // ~/.local/bin holds every user binary: the launcher alone.
  assert.equal(installRoot("/home/me/.local/bin/uvx", "/home/me"), "/home/me/.local/bin/uvx");
  assert.equal(installRoot("/opt/tool/bin/tool", "/home/me"), "/opt/tool/bin");
  // Not in a bin directory: the binary alone.
  assert.equal(installRoot("/mnt/x/server", "/home/me"), "/mnt/x/server");
  assert.equal(installRoot("/mnt/server", "/home/me"), "/mnt/server");
  assert.equal(installRoot("/home/me/server", "/home/me"), "/home/me/server");
  // A virtualenv's interpreter: the virtualenv (the directory holding pyvenv.cfg).
  assert.equal(
    installRoot(
      "/home/me/proj/.venv/bin/python",
      "/home/me",
      layout(["/home/me/proj/.venv/pyvenv.cfg"]),
    ),
    "/home/me/proj/.venv",
  );
});

Deno.test("within() compares whole path components", () => {
  assert.equal(within("/home/me", "/home"), true);
  assert.equal(within("/home", "/home"), true);
  assert.equal(within("/homer", "/home"), false);
  assert.equal(within("/x", "/"), true);
});

Deno.test("bwrapLaunch() confines the server's argv", async (t) => {
  const plan = planSandbox(
    NODE,
    { network: false, read: [], write: ["/home/me/proj/out"] },
    host(),
  );
  const launch = bwrapLaunch(NODE, plan, { bwrap: "/usr/bin/bwrap" });
  await t.step("the server's own argv follows --, unchanged", () => {
    assert.equal(launch.command, "/usr/bin/bwrap");
    const dashes = launch.args.indexOf("--");
    assert.deepEqual(launch.args.slice(dashes + 1), [
      "node",
      "/home/me/proj/server.js",
      "--verbose",
    ]);
    assert.equal(launch.label, NODE.label);
  });
  await t.step("namespaces, capabilities and the process tree", () => {
    const args = launch.args.slice(0, launch.args.indexOf("--"));
    for (const flag of ["--die-with-parent", "--new-session", "--unshare-all"]) {
      assert.ok(args.includes(flag), flag);
    }
    assert.equal(args.includes("--share-net"), false);
    assert.deepEqual(args.slice(args.indexOf("--cap-drop"), args.indexOf("--cap-drop") + 2), [
      "--cap-drop",
      "ALL",
    ]);
  });
  await t.step("mounts: system read-only, private /tmp, binds outer-first, root read-only", () => {
    // deno-fmt-ignore
    assert.deepEqual(bwrapArgs({ ...plan, system: ["/usr", "/etc"], scratch: ["/home/me/.npm"] }).slice(5), [
      "--ro-bind-try", "/usr", "/usr",
      "--ro-bind-try", "/etc", "/etc",
      "--dev", "/dev",
      "--proc", "/proc",
      "--tmpfs", "/tmp",
      "--ro-bind", "/home/me/proj", "/home/me/proj",
      "--bind", "/home/me/proj/out", "/home/me/proj/out",
      "--tmpfs", "/home/me/.npm",
      "--remount-ro", "/",
      "--chdir", "/home/me/proj",
    ]);
  });
  await t.step("network shares the host's namespace back", () => {
    assert.ok(bwrapArgs({ ...plan, network: true }).includes("--share-net"));
  });
});

Deno.test("seatbeltProfile() writes the same rules for macOS (text only: not run here)", async (t) => {
  const MAC_NODE = { ...NODE, args: ["/Users/me/proj/server.js", "--verbose"] };
  const plan = planSandbox(MAC_NODE, { network: false, read: [], write: ["/Users/me/out"] }, {
    ...host({ os: "darwin", env: { HOME: "/Users/me" }, cwd: "/Users/me/proj" }),
    stat: (path) =>
      ["/Users", "/Users/me", "/Users/me/out", "/Users/me/proj", "/private/tmp"].includes(path)
        ? "dir"
        : path === "/Users/me/proj/server.js"
        ? "file"
        : undefined,
  });
  const text = seatbeltProfile(plan, "/private/var/folders/x/T/jn-sandbox-1");
  await t.step("deny by default, read the system, hide the user's places", () => {
    assert.match(text, /^\(version 1\)\n\(deny default\)\n/);
    assert.ok(text.includes(
      '(allow file-read*)\n(deny file-read*\n  (subpath "/Users")\n  (subpath "/Volumes")\n' +
        '  (subpath "/private/tmp")\n  (subpath "/private/var/folders")\n' +
        '  (subpath "/private/var/tmp"))\n(allow file-read-metadata)\n',
    ));
  });
  await t.step(
    "readable again: the script's directory, the write paths, the private TMPDIR",
    () => {
      assert.match(
        text,
        /\(allow file-read\*\n {2}\(subpath "\/Users\/me\/proj"\)\n {2}\(subpath "\/Users\/me\/out"\)\n {2}\(subpath "\/private\/var\/folders\/x\/T\/jn-sandbox-1"\)\)/,
      );
    },
  );
  await t.step("writable: the write paths and TMPDIR only; no network rule", () => {
    assert.match(
      text,
      /\(allow file-write\*\n {2}\(subpath "\/Users\/me\/out"\)\n {2}\(subpath "\/private\/var\/folders\/x\/T\/jn-sandbox-1"\)\)/,
    );
    assert.doesNotMatch(text, /\(allow network/);
    assert.match(seatbeltProfile({ ...plan, network: true }, "/t"), /\(allow network\*\)/);
  });
  await t.step("the launch runs sandbox-exec -p PROFILE with TMPDIR set", () => {
    const launch = seatbeltLaunch(MAC_NODE, plan, {
      sandboxExec: "/usr/bin/sandbox-exec",
      tmpDir: "/t",
    });
    assert.equal(launch.command, "/usr/bin/sandbox-exec");
    assert.equal(launch.args[0], "-p");
    assert.deepEqual(launch.args.slice(2), ["node", "/Users/me/proj/server.js", "--verbose"]);
    assert.equal(launch.env.TMPDIR, "/t");
  });
  await t.step("string literals escape quotes and backslashes", () => {
    assert.equal(sbplString('/a "b"\\c'), '"/a \\"b\\"\\\\c"');
  });
});

Deno.test("planSandbox() keeps the profile's directory read-only inside a writable path, and never shows it otherwise", async (t) => {
  const profile = "/home/me/proj/out";
  await t.step("under a writable path: bound read-only after it", () => {
    const plan = planSandbox(NODE, { network: false, read: [], write: ["/home/me/proj"] }, host(), {
      read: [],
      write: [],
      scratch: [],
    }, { readOnly: [profile] });
    assert.deepEqual(plan.protect, [profile]);
    const args = bwrapArgs(plan);
    const writable = args.indexOf("/home/me/proj", args.indexOf("--bind"));
    const readOnly = args.lastIndexOf(profile);
    assert.ok(writable > 0 && readOnly > writable, args.join(" "));
    assert.equal(args[readOnly - 2], "--ro-bind");
    assert.match(
      seatbeltProfile(plan, "/t"),
      /\(deny file-write\*\n {2}\(subpath "\/home\/me\/proj\/out"\)\)/,
    );
  });
  await t.step("hidden, or declared writable itself: left as it is", () => {
    const hidden = planSandbox(NODE, NONE, host(), undefined, { readOnly: [profile] });
    assert.equal(hidden.protect, undefined);
    assert.equal(hidden.read.includes(profile), false, "the read-only bind must not show it");
    const declared = planSandbox(
      NODE,
      { network: false, read: [], write: [profile] },
      host(),
      undefined,
      {
        readOnly: [profile],
      },
    );
    assert.equal(declared.protect, undefined);
    assert.deepEqual(declared.write, [profile]);
  });
});
