/**
 * A session is private: its directory is 0700 and its files (socket,
 * record, log) 0600; jn refuses a sessions directory that is not a real
 * directory of the user's own with no permission for others (and a call
 * then uses no session, saying why); another user cannot connect to a
 * session's socket; nothing secret reaches the session's argv, record or
 * log.
 *
 * @module
 */

import assert from "node:assert/strict";
import { FIXTURES } from "../helpers.ts";
import { COUNTER, output, sessionHome, sessionPid } from "./support.ts";

const SETPRIV = await new Deno.Command("setpriv", {
  args: ["--version"],
  stdout: "null",
  stderr: "null",
})
  .output().then((out) => out.success, () => false);

/** Whether the tests run as root (then another user's uid can be taken, and files given away). */
const ROOT = await new Deno.Command("id", { args: ["-u"], stdout: "piped", stderr: "null" })
  .output().then((out) => new TextDecoder().decode(out.stdout).trim() === "0", () => false);
if (ROOT && !SETPRIV) {
  // deno-lint-ignore no-console
  console.warn("SKIPPED the other-user connect test: it needs setpriv (util-linux)");
}
if (!ROOT) {
  // deno-lint-ignore no-console
  console.warn("SKIPPED the other-user session tests: they need root (to act as uid 65534)");
}

Deno.test("session: the directory is 0700, the socket, record and log 0600", async () => {
  await using home = await sessionHome();
  assert.equal((await home.jn(["session", "start", COUNTER])).code, 0);
  assert.equal((await Deno.stat(home.sessions)).mode! & 0o777, 0o700);
  const files = [...Deno.readDirSync(home.sessions)].map((entry) => entry.name);
  for (const suffix of ["sock", "json", "log", "lock"]) {
    const name = files.find((file) => file.endsWith(`.${suffix}`));
    assert.ok(name, `a .${suffix} file`);
    assert.equal((await Deno.lstat(`${home.sessions}/${name}`)).mode! & 0o777, 0o600, suffix);
  }
});

for (
  const [what, spoil] of [
    ["with a wider mode", (dir: string) => Deno.chmod(dir, 0o755)],
    ["that is a symlink", async (dir: string) => {
      await Deno.mkdir(`${dir}-real`, { mode: 0o700 });
      await Deno.symlink(`${dir}-real`, dir);
    }],
  ] as const
) {
  Deno.test(`session: a sessions directory ${what} is refused`, async () => {
    await using home = await sessionHome();
    await Deno.mkdir(`${home.home}/.local/jn`, { recursive: true });
    if (what === "with a wider mode") await Deno.mkdir(home.sessions, { mode: 0o700 });
    await spoil(home.sessions);
    const start = await home.jn(["session", "start", COUNTER]);
    assert.equal(start.code, 3, start.stderr);
    assert.match(
      start.stderr,
      /The sessions directory .* is not private: (its mode is 755|it is a symbolic link)/,
    );
    const call = await home.jn(["cat", "--json", `${COUNTER}?tool=count`]);
    assert.equal(output(call).count, 0);
    assert.match(call.stderr, /not using sessions: The sessions directory .* is not private/);
  });
}

Deno.test({
  name: "session: a sessions directory owned by another user is refused",
  ignore: !ROOT,
}, async () => {
  await using home = await sessionHome();
  await Deno.mkdir(home.sessions, { recursive: true, mode: 0o700 });
  await Deno.chown(home.sessions, 65534, 65534);
  const start = await home.jn(["session", "start", COUNTER]);
  assert.equal(start.code, 3, start.stderr);
  assert.match(start.stderr, /is not private: it belongs to another user \(uid 65534\)/);
});

Deno.test({
  name: "session: another user cannot connect to a session's socket",
  ignore: !ROOT || !SETPRIV,
}, async () => {
  await using home = await sessionHome();
  assert.equal((await home.jn(["session", "start", COUNTER])).code, 0);
  const socket = [...Deno.readDirSync(home.sessions)].find((entry) =>
    entry.name.endsWith(".sock")
  )!;
  const path = `${home.sessions}/${socket.name}`;
  // Even with the directory opened up, the socket's own mode keeps others out.
  for (const dirMode of [0o700, 0o755]) {
    await Deno.chmod(home.sessions, dirMode);
    await Deno.chmod(home.home, 0o755);
    await Deno.chmod(home.dir, 0o755);
    const tried = await new Deno.Command("setpriv", {
      args: [
        "--reuid=65534",
        "--regid=65534",
        "--clear-groups",
        "/usr/bin/perl",
        "-MIO::Socket::UNIX",
        "-e",
        `IO::Socket::UNIX->new(Peer => $ARGV[0]) or die "refused: $!\\n"; print "connected\\n"`,
        path,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const said = new TextDecoder().decode(tried.stdout) + new TextDecoder().decode(tried.stderr);
    assert.equal(tried.success, false, `mode ${dirMode.toString(8)}: ${said}`);
    assert.match(said, /refused: Permission denied/);
  }
});

Deno.test("session: nothing secret in the session's argv, record or log", async () => {
  await using home = await sessionHome();
  const secret = "s3cret-value-for-the-session-test";
  const profile = `${home.home}/.local/jn/profiles/mcp/sec`;
  await Deno.mkdir(profile, { recursive: true });
  await Deno.writeTextFile(
    `${profile}/_meta.json`,
    JSON.stringify({
      command: "node",
      args: [`${FIXTURES}/servers/counter.mjs`],
      transport: "stdio",
      env: { API_KEY: "${SESSION_SECRET}" },
    }),
  );
  const env = { SESSION_SECRET: secret };
  const start = await home.jn(["session", "start", "@sec", "--debug"], { env });
  assert.equal(start.code, 0, start.stderr);
  assert.equal(output(await home.jn(["cat", "--json", "@sec/increment"], { env })).count, 1);
  const pid = await sessionPid(home);
  const { stdout } = await new Deno.Command("ps", { args: ["-o", "args=", "-p", String(pid)] })
    .output();
  const argv = new TextDecoder().decode(stdout);
  assert.match(argv, /session _run/);
  assert.doesNotMatch(argv, new RegExp(secret));
  for (const entry of Deno.readDirSync(home.sessions)) {
    if (entry.name.endsWith(".sock")) continue;
    const text = await Deno.readTextFile(`${home.sessions}/${entry.name}`);
    assert.doesNotMatch(text, new RegExp(secret), entry.name);
  }
});
