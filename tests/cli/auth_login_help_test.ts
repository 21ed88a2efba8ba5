/**
 * `jn auth login` reaches a remote server's HTTP endpoint and its
 * authorization server only: its help lists the connection flags that
 * matter there, and the others (a process's, a sandbox's, a call's) are
 * unknown options, not silently ignored.
 */
import assert from "node:assert/strict";
import { runJn } from "../helpers.ts";

const IRRELEVANT = [
  "--env-passthrough",
  "--progress",
  "--log-level",
  "--ignore-schema",
  "--token-env",
  "--elicit",
  "--sampling-command",
  "--root",
  "--sandbox",
  "--sandbox-read",
  "--sandbox-write",
  "--sandbox-net",
  "--sandbox-host",
];

Deno.test("jn auth login --help lists only the connection flags login uses", async () => {
  const { code, stdout } = await runJn(["auth", "login", "--help"]);
  assert.equal(code, 0);
  for (const flag of ["--timeout", "--connect-timeout", "--protocol", "--header", "--allow-http"]) {
    assert.match(stdout, new RegExp(`^  ${flag} `, "m"), flag);
  }
  for (const flag of IRRELEVANT) {
    assert.doesNotMatch(stdout, new RegExp(`^  ${flag}\\b`, "m"), flag);
  }
});

Deno.test("jn auth login refuses a flag it would ignore", async () => {
  const { code, stderr } = await runJn([
    "auth",
    "login",
    "mcp+https://example.com/mcp",
    "--sandbox",
  ]);
  assert.equal(code, 2);
  assert.equal(stderr, `jn: Unknown option "--sandbox"\nhint: see 'jn help auth login'\n`);
});

Deno.test("jn auth login --client-secret warns that argv is public; --client-secret-env does not", async () => {
  const unreachable = "mcp+http://127.0.0.1:1/mcp";
  const given = ["auth", "login", unreachable, "--client-credentials", "--client-id", "svc"];
  const argv = await runJn([...given, "--client-secret", "s3cret-in-argv"]);
  assert.equal(argv.code, 4, argv.stderr);
  assert.match(
    argv.stderr,
    /^jn: warning: --client-secret puts the secret in the process list, where other users of this machine can read it \(ps\); prefer --client-secret-env VAR\n/,
  );
  assert.ok(!argv.stderr.includes("s3cret-in-argv"));
  const env = await runJn([...given, "--client-secret-env", "SECRET"], {
    env: { SECRET: "s3cret-in-env" },
  });
  assert.equal(env.code, 4, env.stderr);
  assert.doesNotMatch(env.stderr, /warning/);
});
