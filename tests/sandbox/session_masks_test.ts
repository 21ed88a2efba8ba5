/**
 * The sandbox plan hides the user's sessions folders under any grant
 * (lib/sandbox/session_masks.ts): a session's socket runs jn commands
 * outside the sandbox, and a read-only view of it is enough to connect. On
 * Linux a folder the plan would show is an empty read-only tmpfs (made
 * first when missing); on macOS every one is denied last. Every place this
 * user's sessions may be, whatever the environment of the jn that launches
 * the server: `/run/user/UID/jn` without `XDG_RUNTIME_DIR`, the sessions
 * folder of the home `/etc/passwd` gives under another HOME. Unit tests on a
 * fake host; tests/security/sandbox_sessions_test.ts runs the real thing.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { StdioLaunch } from "../../lib/launch/spec.ts";
import { SandboxError } from "../../lib/errors.ts";
import { passwdHome } from "../../lib/profile/own_user.ts";
import { everySessionPlace, sessionDirCandidates } from "../../lib/profile/paths.ts";
import { sessionDirOf } from "../../lib/client/session_dir.ts";
import { bwrapArgs } from "../../lib/sandbox/bwrap.ts";
import { type HostView, type PlanOptions, planSandbox, visibleIn } from "../../lib/sandbox/plan.ts";
import type { SandboxPolicy } from "../../lib/sandbox/policy.ts";
import { seatbeltProfile } from "../../lib/sandbox/seatbelt.ts";
import { fakeHost, type FakeTree } from "./fake_host.ts";

const SERVER: StdioLaunch = {
  transport: "stdio",
  command: "node",
  args: ["/usr/lib/srv.js"],
  env: {},
  label: "srv",
};
const HOME_SESSIONS = "/home/me/.local/jn/sessions";
const RUNTIME_SESSIONS = "/run/user/1000/jn";
const RUNTIME_ENV = { HOME: "/home/me", PATH: "/usr/bin", XDG_RUNTIME_DIR: "/run/user/1000" };

function plan(
  tree: FakeTree,
  read: string[],
  extra: Partial<SandboxPolicy> = {},
  env = {},
  host: Partial<HostView> = {},
) {
  const fake = fakeHost(
    { ...tree, files: { "/usr/lib/srv.js": "", ...tree.files } },
    { cwd: "/", env: { HOME: "/home/me", PATH: "/usr/bin", ...env }, ...host },
  );
  const policy = { network: false, read, write: [], ...extra };
  const options: PlanOptions = { explicit: [...read, ...(extra.write ?? [])] };
  return planSandbox(SERVER, policy, fake, undefined, options);
}

const masked = (paths: string[]) => paths.map((path) => ({ path, kind: "dir" }));

Deno.test("sessions folders: the candidates are the folder sessions use, then the other", () => {
  for (
    const env of [
      { HOME: "/home/me" } as Record<string, string>,
      RUNTIME_ENV,
      { HOME: "/home/me", XDG_RUNTIME_DIR: "relative/dir" },
      { XDG_RUNTIME_DIR: "/run/user/1000" },
    ]
  ) {
    assert.equal(sessionDirCandidates(env)[0], sessionDirOf(env), JSON.stringify(env));
  }
  assert.deepEqual(sessionDirCandidates(RUNTIME_ENV), [RUNTIME_SESSIONS, HOME_SESSIONS]);
  assert.deepEqual(sessionDirCandidates({}), []);
});

Deno.test("sessions folders: hidden under a grant of the home directory (Linux)", async (t) => {
  const tree = { files: { [`${HOME_SESSIONS}/k.sock`]: null, "/home/me/notes.txt": "" } };
  await t.step("--sandbox-read ~: an empty read-only tmpfs over the folder", () => {
    const home = plan(tree, ["/home/me"]);
    assert.deepEqual(home.mask, masked([HOME_SESSIONS]));
    assert.equal(visibleIn(home, `${HOME_SESSIONS}/k.sock`), false);
    assert.equal(visibleIn(home, "/home/me/notes.txt"), true);
    const args = bwrapArgs(home).join(" ");
    const mask = `--tmpfs ${HOME_SESSIONS} --remount-ro ${HOME_SESSIONS}`;
    assert.ok(args.includes(mask), args);
    assert.ok(args.indexOf(mask) > args.indexOf("--ro-bind /home/me /home/me"), args);
  });
  await t.step("a grant naming the folder itself, even writable: hidden all the same", () => {
    for (
      const granted of [
        plan(tree, [HOME_SESSIONS]),
        plan(tree, [], { write: ["/home/me/.local"] }),
        plan(tree, [`${HOME_SESSIONS}/k.sock`]),
      ]
    ) {
      assert.equal(visibleIn(granted, `${HOME_SESSIONS}/k.sock`), false);
    }
  });
  await t.step("without a grant nothing is masked: the folder is not there at all", () => {
    const none = plan(tree, []);
    assert.deepEqual(none.mask, []);
    assert.equal(visibleIn(none, `${HOME_SESSIONS}/k.sock`), false);
  });
});

Deno.test("sessions folders: the runtime directory's, and the other one too (Linux)", () => {
  const tree = { dirs: [RUNTIME_SESSIONS, HOME_SESSIONS] };
  const runtime = plan(tree, ["/run/user/1000"], {}, RUNTIME_ENV);
  assert.deepEqual(runtime.mask, masked([RUNTIME_SESSIONS]));
  assert.equal(visibleIn(runtime, `${RUNTIME_SESSIONS}/k.sock`), false);
  assert.equal(visibleIn(runtime, "/run/user/1000/bus"), true);
  // A jn without a runtime directory keeps its sessions in ~/.local/jn/sessions.
  const both = plan(tree, ["/run/user/1000", "/home/me"], {}, RUNTIME_ENV);
  assert.deepEqual(both.mask, masked([RUNTIME_SESSIONS, HOME_SESSIONS]));
});

Deno.test("sessions folders: a missing one the plan would show is made first (Linux)", () => {
  const missing = plan({ dirs: ["/home/me/.local"] }, ["/home/me"]);
  assert.deepEqual(missing.mask, masked([HOME_SESSIONS]));
  assert.deepEqual(missing.create, [HOME_SESSIONS]);
  const hidden = plan({ dirs: ["/home/me/.local/share"] }, ["/home/me/.local/share"]);
  assert.deepEqual(hidden.create, [], "not shown: nothing made");
});

Deno.test("sessions folders: hidden at their real path (a symlinked home)", () => {
  const tree = { dirs: ["/data/me/.local/jn/sessions"], links: { "/home/me": "/data/me" } };
  const linked = plan(tree, ["/data/me"]);
  assert.deepEqual(linked.mask, masked(["/data/me/.local/jn/sessions"]));
  assert.equal(visibleIn(linked, "/data/me/.local/jn/sessions/k.sock"), false);
});

Deno.test("sessions folders: denied last on macOS, reading and connecting", () => {
  const host = fakeHost({ files: { "/usr/lib/srv.js": "" }, dirs: ["/Users/me/.local"] }, {
    os: "darwin",
    cwd: "/",
    env: { HOME: "/Users/me", XDG_RUNTIME_DIR: "/Users/me/run" },
    user: { uid: 501 },
  });
  const granted = planSandbox(
    SERVER,
    { network: true, read: ["/Users/me"], write: [] },
    host,
    undefined,
    { explicit: ["/Users/me"] },
  );
  assert.deepEqual(granted.mask, masked(["/Users/me/run/jn", "/Users/me/.local/jn/sessions"]));
  const text = seatbeltProfile(granted, "/private/var/folders/x/T/jn-sandbox-1");
  const deny = '(deny file-read* file-write*\n  (subpath "/Users/me/run/jn")\n' +
    '  (subpath "/Users/me/.local/jn/sessions"))\n' +
    '(deny network-outbound\n  (remote unix-socket (subpath "/Users/me/run/jn"))\n' +
    '  (remote unix-socket (subpath "/Users/me/.local/jn/sessions")))\n';
  assert.ok(text.endsWith(deny), text);
  assert.ok(text.indexOf('(allow file-read*\n  (subpath "/Users/me")') < text.indexOf(deny));
  assert.ok(text.indexOf("(allow network*)") < text.indexOf(deny));
});

const dirs = (places: { dir: string }[]) => places.map((place) => place.dir);

Deno.test("sessions folders: every place, whatever the launching environment", () => {
  const me = { uid: 1000, home: "/home/me" };
  // No XDG_RUNTIME_DIR (cron, env -i, an MCP host that scrubs it): /run/user/UID/jn all the same.
  assert.deepEqual(dirs(everySessionPlace({ HOME: "/home/me" }, me, "linux")), [
    HOME_SESSIONS,
    RUNTIME_SESSIONS,
  ]);
  assert.deepEqual(dirs(everySessionPlace({}, me, "linux")), [RUNTIME_SESSIONS, HOME_SESSIONS]);
  // Another HOME: the home /etc/passwd gives is masked too.
  assert.deepEqual(dirs(everySessionPlace({ HOME: "/tmp/agent" }, me, "linux")), [
    "/tmp/agent/.local/jn/sessions",
    RUNTIME_SESSIONS,
    HOME_SESSIONS,
  ]);
  // The environment's own places first, each place once.
  assert.deepEqual(dirs(everySessionPlace(RUNTIME_ENV, me, "linux")), [
    RUNTIME_SESSIONS,
    HOME_SESSIONS,
  ]);
  // Not told who runs jn: what the environment names; macOS has no /run/user.
  assert.deepEqual(dirs(everySessionPlace({ HOME: "/home/me" }, {}, "linux")), [HOME_SESSIONS]);
  assert.deepEqual(dirs(everySessionPlace({}, { uid: 501, home: "/Users/me" }, "darwin")), [
    "/Users/me/.local/jn/sessions",
  ]);
  assert.deepEqual(everySessionPlace({ HOME: "/home/me" }, me, "linux")[1], {
    dir: RUNTIME_SESSIONS,
    root: "/run/user/1000",
  });
});

Deno.test("sessions folders: the home of /etc/passwd, read as the system writes it", () => {
  const passwd = "root:x:0:0:root:/root:/bin/bash\n" +
    "svc:x:999:999::relative:/usr/sbin/nologin\n" +
    "me:x:1000:1000:Me,,,:/home/me:/bin/zsh\n";
  assert.equal(passwdHome(passwd, 1000), "/home/me");
  assert.equal(passwdHome(passwd, 0), "/root");
  assert.equal(passwdHome(passwd, 999), undefined, "not absolute");
  assert.equal(passwdHome(passwd, 4242), undefined);
});

Deno.test("sessions folders: /run/user/UID/jn hidden from a jn without XDG_RUNTIME_DIR (Linux)", async (t) => {
  const tree = { files: { [`${RUNTIME_SESSIONS}/k.sock`]: null, "/run/user/1000/bus": null } };
  for (const grant of ["/run/user/1000", "/run", "/"]) {
    await t.step(`--sandbox-read ${grant}`, () => {
      const granted = plan(tree, [grant]);
      assert.ok(granted.mask!.some((mask) => mask.path === RUNTIME_SESSIONS), grant);
      assert.equal(visibleIn(granted, `${RUNTIME_SESSIONS}/k.sock`), false);
      assert.equal(visibleIn(granted, "/run/user/1000/bus"), true);
    });
  }
  await t.step("missing in a runtime directory that exists: made first", () => {
    const missing = plan({ dirs: ["/run/user/1000"] }, ["/run"]);
    assert.deepEqual(missing.mask, masked([RUNTIME_SESSIONS]));
    assert.deepEqual(missing.create, [RUNTIME_SESSIONS]);
  });
  await t.step("no runtime directory at all: nothing there, nothing made", () => {
    const none = plan({ dirs: ["/run/lock"] }, ["/run"]);
    assert.deepEqual(none.mask, []);
    assert.deepEqual(none.create, []);
  });
});

Deno.test("sessions folders: the passwd home's hidden from a jn with another HOME (Linux)", () => {
  const tree = { files: { [`${HOME_SESSIONS}/k.sock`]: null, "/home/me/notes.txt": "" } };
  for (const grant of ["/home/me", "/home", "/"]) {
    const granted = plan(tree, [grant], {}, { HOME: "/tmp/agent" });
    assert.ok(granted.mask!.some((mask) => mask.path === HOME_SESSIONS), grant);
    assert.equal(visibleIn(granted, `${HOME_SESSIONS}/k.sock`), false);
    assert.equal(visibleIn(granted, "/home/me/notes.txt"), true);
  }
});

Deno.test("sessions folders: a launch that cannot tell its uid is refused when /run/user shows", () => {
  const unknown = { user: {} };
  for (const grant of ["/run/user/1000", "/run", "/"]) {
    assert.throws(
      () => plan({ dirs: ["/run/user/1000/jn"] }, [grant], {}, {}, unknown),
      (error: Error) =>
        error instanceof SandboxError && /cannot tell which user runs it/.test(error.message),
      grant,
    );
  }
  // Nothing of /run/user shown: nothing to hide there.
  const home = plan({ dirs: [HOME_SESSIONS] }, ["/home/me"], {}, {}, unknown);
  assert.deepEqual(home.mask, masked([HOME_SESSIONS]));
});

Deno.test("sessions folders: macOS denies the passwd home's too", () => {
  const host = fakeHost({ files: { "/usr/lib/srv.js": "" }, dirs: ["/Users/me"] }, {
    os: "darwin",
    cwd: "/",
    env: { HOME: "/tmp/agent" },
    user: { uid: 501, home: "/Users/me" },
  });
  const granted = planSandbox(SERVER, { network: false, read: ["/Users"], write: [] }, host, {
    read: [],
    write: [],
    scratch: [],
  }, { explicit: ["/Users"] });
  assert.deepEqual(
    granted.mask,
    masked(["/tmp/agent/.local/jn/sessions", "/Users/me/.local/jn/sessions"]),
  );
});
