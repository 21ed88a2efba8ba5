/**
 * `jn serve --http` as a user starts it: the bearer token comes from the
 * environment (`--http-token-env VAR`) and is never on a command line (jn's
 * or its servers'), in a server's environment, on stderr or in the audit
 * file; a non-loopback address without a token is refused before anything
 * starts; Host and Origin are checked (DNS rebinding) with `--allow-host`
 * and `--allow-origin` widening them; jn itself is a client of it
 * (`jn cat --token-env`); SIGTERM ends it with exit 0.
 *
 * @module
 */

import assert from "node:assert/strict";
import { runJn } from "../helpers.ts";
import { fixtureUri, httpHost, INITIALIZE, post, rawPost, startHttp } from "./support.ts";

const TOKEN = "jn-serve-test-token-4f1c9a";

/** The command lines and environments of `pid` and its descendants (`ps`). */
async function processTexts(pid: number): Promise<string[]> {
  const { stdout } = await new Deno.Command("ps", {
    args: ["-e", "-o", "pid=,ppid="],
    stdout: "piped",
  }).output();
  const children = new Map<number, number[]>();
  for (const line of new TextDecoder().decode(stdout).trim().split("\n")) {
    const [child, parent] = line.trim().split(/\s+/).map(Number);
    children.set(parent, [...(children.get(parent) ?? []), child]);
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]) ?? []));
  const texts: string[] = [];
  for (const each of tree) {
    // `e`: the environment after the command line (a process of this user only).
    const out = await new Deno.Command("ps", {
      args: ["eww", "-o", "args=", "-p", String(each)],
      stdout: "piped",
    }).output();
    texts.push(`${each}: ${new TextDecoder().decode(out.stdout).trim()}`);
  }
  return texts;
}

Deno.test("jn serve --http-token-env: the token from the environment, never argv, logs or the servers", async () => {
  const dir = await Deno.makeTempDir();
  const audit = `${dir}/audit.ndjson`;
  const served = await startHttp(
    ["--http-token-env", "JN_SERVE_TOKEN", "--audit", audit, "--debug", "@demo"],
    { JN_SERVE_TOKEN: TOKEN },
  );
  try {
    const none = await post(served.url, INITIALIZE);
    assert.equal(none.status, 401);
    await none.body?.cancel();
    const host = await httpHost(served.url, {}, { authorization: `Bearer ${TOKEN}` });
    try {
      const sum = await host.client.callTool({ name: "add", arguments: { a: 2, b: 40 } });
      assert.deepEqual(sum.structuredContent, { sum: 42 });
      // The server runs now: jn, its servers, their command lines and environments.
      const texts = await processTexts(served.pid);
      assert.ok(texts.length >= 2, texts.join("\n"));
      const [jn, ...servers] = texts;
      assert.ok(!jn.split(" JN_SERVE_TOKEN=")[0].includes(TOKEN), `jn's argv:\n${jn}`);
      for (const text of servers) assert.ok(!text.includes(TOKEN), `a server sees it:\n${text}`);
    } finally {
      await host.close();
    }
    // jn itself as a client of jn serve, the token from its environment too.
    const cat = await runJn(
      ["cat", "--json", "--token-env", "JN_SERVE_TOKEN", `mcp+${served.url}?tool=add&a=1&b=2`],
      { env: { JN_SERVE_TOKEN: TOKEN } },
    );
    assert.equal(cat.code, 0, cat.stderr);
    assert.deepEqual(JSON.parse(cat.stdout), { sum: 3 });
    assert.equal(await served.stop("SIGTERM"), 0, served.stderr());
    assert.equal(served.stdout(), "", "stdout carries nothing over HTTP");
    assert.ok(!served.stderr().includes(TOKEN), "stderr shows no token");
    const logged = await Deno.readTextFile(audit);
    assert.equal(logged.trim().split("\n").length, 2, logged);
    assert.ok(!logged.includes(TOKEN), "the audit file shows no token");
  } finally {
    await served.stop("SIGKILL").catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("jn serve --http on a non-loopback address without a token is refused, nothing started", async () => {
  const result = await runJn(["serve", "--http", "0.0.0.0:0", "@demo"]);
  assert.equal(result.code, 2);
  assert.equal(result.stdout, "");
  assert.match(
    result.stderr,
    /^jn: Serving on "0\.0\.0\.0" needs a bearer token: anyone who reaches it could call your servers\nhint: give a token \(jn serve reads it from --http-token-env VAR\), or bind 127\.0\.0\.1\n$/m,
  );
  const unset = await runJn(["serve", "--http", "0.0.0.0:0", "--http-token-env", "NOPE", "@demo"]);
  assert.equal(unset.code, 2);
  assert.match(unset.stderr, /^jn: --http-token-env NOPE: the variable is not set\nhint: export/m);
  const stray = await runJn(["serve", "--http-token-env", "X", "@demo"]);
  assert.equal(stray.code, 2);
  assert.match(stray.stderr, /^jn: A flag of HTTP without --http\n/m);
});

Deno.test("jn serve --http: Host and Origin are checked; --allow-host and --allow-origin widen them", async () => {
  const served = await startHttp([
    "--allow-host",
    "jn.internal",
    "--allow-origin",
    "app.example",
    fixtureUri("fixture.mjs"),
  ]);
  try {
    const port = new URL(served.url).port;
    const status = async (headers: Record<string, string>) => {
      const response = await post(served.url, INITIALIZE, headers);
      await response.body?.cancel();
      return response.status;
    };
    // fetch sets Host from the URL: an allowed name resolves to loopback only through a raw request.
    const byHost = async (host: string) => (await rawPost(served.url, INITIALIZE, { host })).status;
    assert.equal(await byHost(`attacker.example:${port}`), 403);
    assert.equal(await byHost(`jn.internal:${port}`), 200);
    assert.equal(await status({ origin: "https://evil.example" }), 403);
    assert.equal(await status({ origin: "https://app.example" }), 200);
    assert.equal(await status({ origin: `http://localhost:${port}` }), 200);
  } finally {
    assert.equal(await served.stop("SIGHUP"), 0, served.stderr());
  }
});
