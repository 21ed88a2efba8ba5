import assert from "node:assert/strict";
import { parseNdjson, tempDir } from "../helpers.ts";
import { FAKE_BROWSER, runJnHereAt, type StartedServer, startFixture } from "./support.ts";

type Rec = Record<string, unknown>;

async function stats(server: StartedServer) {
  return await (await fetch(`${server.url}/_stats`)).json();
}

async function authFiles(home: string): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(`${home}/.local/jn/auth`)) files.push(entry.name);
  return files;
}

Deno.test("OAuth: browser sign-in, stored tokens, step-up and logout", async (t) => {
  const server = await startFixture("oauth_server.ts");
  const home = await tempDir();
  const mcp = `${server.url}/mcp`;
  const browser = { JN_BROWSER: FAKE_BROWSER };
  try {
    await t.step("without credentials a non-interactive run is exit 4 with a hint", async () => {
      const { code, stdout, stderr } = await runJnHereAt(home, ["cat", `mcp+${mcp}?tool=whoami`]);
      assert.equal(code, 4);
      assert.equal(stdout, "");
      assert.match(stderr, /requires authorization \(HTTP 401\)/);
      assert.match(stderr, new RegExp(`hint: sign in with 'jn auth login ${mcp}'`));
      assert.equal(
        (await stats(server)).registered,
        0,
        "no client registered behind the user's back",
      );
    });

    await t.step("jn auth login signs in: discovery, registration, PKCE, resource", async () => {
      const { code, stderr } = await runJnHereAt(home, ["auth", "login", mcp], { env: browser });
      assert.equal(code, 0, stderr);
      assert.match(stderr, /Open this URL in a browser/);
      assert.match(stderr, new RegExp(`signed in to ${mcp} \\(scopes: mcp\\)`));
      const counters = await stats(server);
      assert.equal(counters.registered, 1);
      assert.equal(counters.grants.authorization_code, 1);
      assert.deepEqual(counters.resources, [mcp]);
    });

    await t.step(
      "tokens live in a 0600 file under ~/.local/jn/auth and are never printed",
      async () => {
        const dir = `${home}/.local/jn/auth`;
        const [file] = await authFiles(home);
        assert.match(file, /^127\.0\.0\.1_\d+-[0-9a-f]{16}\.json$/);
        assert.equal((await Deno.stat(dir)).mode! & 0o777, 0o700);
        assert.equal((await Deno.stat(`${dir}/${file}`)).mode! & 0o777, 0o600);
        const token = JSON.parse(await Deno.readTextFile(`${dir}/${file}`)).tokens.access_token;
        const status = await runJnHereAt(home, ["auth", "status", mcp]);
        assert.equal(status.code, 0);
        assert.match(status.stdout, /scopes: {4}mcp/);
        assert.match(status.stdout, /expires: {3}in 60m/);
        const call = await runJnHereAt(home, ["cat", `mcp+${mcp}?tool=whoami`, "--debug"]);
        assert.equal(call.code, 0, call.stderr);
        for (const text of [status.stdout, status.stderr, call.stdout, call.stderr]) {
          assert.ok(!text.includes(token), "the access token is never printed");
        }
      },
    );

    await t.step("the stored token is used, over the 2026-07-28 era", async () => {
      const { code, stdout, stderr } = await runJnHereAt(home, [
        "cat",
        `mcp+${mcp}?tool=whoami`,
        "--debug",
      ]);
      assert.equal(code, 0, stderr);
      assert.match(stderr, /protocol 2026-07-28, modern, streamable-http/);
      assert.deepEqual(JSON.parse(String((parseNdjson(stdout)[0] as Rec).text)).scopes, ["mcp"]);
    });

    await t.step("...and over the 2025 era (--protocol legacy)", async () => {
      const { code, stderr } = await runJnHereAt(home, [
        "cat",
        `mcp+${mcp}?tool=echo&text=hi`,
        "--protocol",
        "legacy",
        "--debug",
      ]);
      assert.equal(code, 0, stderr);
      assert.match(stderr, /protocol 2025-\d\d-\d\d, legacy/);
    });

    await t.step(
      "403 insufficient_scope without a browser is exit 4 naming the scope",
      async () => {
        const { code, stderr } = await runJnHereAt(home, ["cat", `mcp+${mcp}?tool=admin`]);
        assert.equal(code, 4);
        assert.match(stderr, /needs more permissions \(scope "mcp admin"\)/);
      },
    );

    await t.step(
      "403 insufficient_scope with a browser steps up and retries the call",
      async () => {
        const { code, stdout, stderr } = await runJnHereAt(home, ["cat", `mcp+${mcp}?tool=admin`], {
          env: browser,
        });
        assert.equal(code, 0, stderr);
        assert.equal((parseNdjson(stdout)[0] as Rec).text, "admin ok");
        const counters = await stats(server);
        assert.equal(counters.registered, 1, "the registration is reused");
        assert.equal(counters.scopes.at(-1), "mcp admin");
      },
    );

    await t.step("auth status --format json summarises, without secrets", async () => {
      const { stdout } = await runJnHereAt(home, ["auth", "status", "--format", "json"]);
      const [summary] = JSON.parse(stdout);
      assert.equal(summary.serverUrl, mcp);
      assert.equal(summary.signedIn, true);
      assert.deepEqual(summary.scopes, ["mcp", "admin"]);
      assert.equal(summary.renewable, true);
      assert.doesNotMatch(stdout, /access_token|refresh_token|at-/);
    });

    await t.step("logout forgets the server", async () => {
      const { code, stderr } = await runJnHereAt(home, ["auth", "logout", mcp]);
      assert.equal(code, 0);
      assert.match(stderr, /signed out of/);
      assert.deepEqual(await authFiles(home), []);
      const after = await runJnHereAt(home, ["cat", `mcp+${mcp}?tool=whoami`]);
      assert.equal(after.code, 4);
    });
  } finally {
    await server.stop();
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("OAuth: expired tokens are refreshed; client credentials need no browser", async (t) => {
  const server = await startFixture("oauth_server.ts", [
    "--token-ttl",
    "1",
    "--client",
    "svc:s3cret",
  ]);
  const mcp = `${server.url}/mcp`;
  const homes = [await tempDir(), await tempDir()];
  const expire = () => new Promise((resolve) => setTimeout(resolve, 1100));
  try {
    await t.step("an expired access token is refreshed without a browser", async () => {
      const [home] = homes;
      const login = await runJnHereAt(home, ["auth", "login", mcp], {
        env: { JN_BROWSER: FAKE_BROWSER },
      });
      assert.equal(login.code, 0, login.stderr);
      await expire();
      const status = await runJnHereAt(home, ["auth", "status", mcp]);
      assert.match(status.stdout, /expires: {3}expired/);
      const { code, stderr } = await runJnHereAt(home, ["cat", `mcp+${mcp}?tool=whoami`]);
      assert.equal(code, 0, stderr);
      assert.ok((await stats(server)).grants.refresh_token >= 1);
    });

    await t.step(
      "client-credentials login stores the client and renews tokens itself",
      async () => {
        const home = homes[1];
        const login = await runJnHereAt(home, [
          "auth",
          "login",
          mcp,
          "--client-credentials",
          "--client-id",
          "svc",
          "--client-secret-env",
          "SVC_SECRET",
        ], { env: { SVC_SECRET: "s3cret" } });
        assert.equal(login.code, 0, login.stderr);
        assert.doesNotMatch(login.stderr, /browser|mcp-sdk/);
        await expire();
        const { code, stdout, stderr } = await runJnHereAt(home, ["cat", `mcp+${mcp}?tool=whoami`]);
        assert.equal(code, 0, stderr);
        assert.equal(JSON.parse(String((parseNdjson(stdout)[0] as Rec).text)).client, "svc");
        assert.ok((await stats(server)).grants.client_credentials >= 2);
      },
    );

    await t.step("a wrong client secret is exit 4 saying the authorization failed", async () => {
      const { code, stderr } = await runJnHereAt(homes[1], [
        "auth",
        "login",
        mcp,
        "--client-credentials",
        "--client-id",
        "svc",
        "--client-secret",
        "wrong",
      ]);
      assert.equal(code, 4);
      assert.match(stderr, /Authorization failed: invalid_client/);
    });

    await t.step("a token given with --token-env that the server refuses is exit 4", async () => {
      const { code, stderr } = await runJnHereAt(homes[0], [
        "cat",
        `mcp+${mcp}?tool=whoami`,
        "--token-env",
        "BAD",
      ], { env: { BAD: "not-a-token" } });
      assert.equal(code, 4);
      assert.match(stderr, /refused the credentials \(HTTP 401\)/);
    });
  } finally {
    await server.stop();
    for (const home of homes) await Deno.remove(home, { recursive: true });
  }
});
