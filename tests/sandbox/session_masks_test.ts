/**
 * The sandbox plan hides the user's sessions folders under any grant
 * (lib/sandbox/session_masks.ts): a session's socket runs jn commands
 * outside the sandbox, and a read-only view of it is enough to connect. On
 * Linux a folder the plan would show is an empty read-only tmpfs (made
 * first when missing); on macOS both folders are denied last. Unit tests on
 * a fake host; tests/security/sandbox_sessions_test.ts runs the real thing.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { StdioLaunch } from "../../lib/launch/spec.ts";
import { sessionDirCandidates } from "../../lib/profile/paths.ts";
import { sessionDirOf } from "../../lib/client/session_dir.ts";
import { bwrapArgs } from "../../lib/sandbox/bwrap.ts";
import { type PlanOptions, planSandbox, visibleIn } from "../../lib/sandbox/plan.ts";
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

function plan(tree: FakeTree, read: string[], extra: Partial<SandboxPolicy> = {}, env = {}) {
  const host = fakeHost(
    { ...tree, files: { "/usr/lib/srv.js": "", ...tree.files } },
    { cwd: "/", env: { HOME: "/home/me", PATH: "/usr/bin", ...env } },
  );
  const policy = { network: false, read, write: [], ...extra };
  const options: PlanOptions = { explicit: [...read, ...(extra.write ?? [])] };
  return planSandbox(SERVER, policy, host, undefined, options);
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
