import assert from "node:assert/strict";
import { formatSummary, summarize } from "../../lib/auth/describe.ts";
import { AuthStore, canonicalServerUrl, tokenExpired } from "../../lib/auth/token_store.ts";
import { tempDir } from "../helpers.ts";

Deno.test("AuthStore keeps one private file per server URL", async (t) => {
  const dir = `${await tempDir()}/auth`;
  const store = new AuthStore(dir);
  try {
    await t.step("records round-trip; the query and fragment do not change the key", async () => {
      await store.save({ serverUrl: "https://h.example/mcp", grant: "authorization_code" });
      const loaded = await store.load("https://h.example/mcp?x=1#y");
      assert.equal(loaded?.serverUrl, "https://h.example/mcp");
      assert.equal(canonicalServerUrl("https://H.example/mcp?x=1"), "https://h.example/mcp");
    });
    await t.step("the directory is 0700 and the file 0600", async () => {
      const path = await store.pathFor("https://h.example/mcp");
      assert.match(path, /\/h\.example_443-[0-9a-f]{16}\.json$/);
      assert.equal((await Deno.stat(dir)).mode! & 0o777, 0o700);
      assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
    });
    await t.step("different paths on one host are different servers", async () => {
      assert.notEqual(
        await store.pathFor("https://h.example/a"),
        await store.pathFor("https://h.example/b"),
      );
    });
    await t.step("remove() says whether there was something to remove", async () => {
      assert.equal(await store.remove("https://h.example/mcp"), true);
      assert.equal(await store.remove("https://h.example/mcp"), false);
      assert.deepEqual(await store.list(), []);
    });
  } finally {
    await Deno.remove(dir.replace(/\/auth$/, ""), { recursive: true });
  }
});

Deno.test("tokenExpired() refreshes early, but never more than a quarter of the lifetime early", () => {
  const now = 1_000_000;
  assert.equal(
    tokenExpired({ access_token: "a", obtained_at: now, expires_at: now + 3_600_000 }, now),
    false,
  );
  assert.equal(
    tokenExpired({ access_token: "a", obtained_at: now - 3_600_000, expires_at: now + 5_000 }, now),
    true,
  );
  assert.equal(
    tokenExpired({ access_token: "a", obtained_at: now, expires_at: now + 2_000 }, now),
    false,
  );
  assert.equal(tokenExpired({ access_token: "a" }, now), false);
});

Deno.test("summarize() shows scopes and expiry but no token or secret", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  const summary = summarize(
    {
      serverUrl: "https://h.example/mcp",
      grant: "client_credentials",
      client: { client_id: "svc", client_secret: "s3cret" },
      tokens: { access_token: "at-1", scope: "mcp admin", expires_at: now + 90 * 60_000 },
    },
    undefined,
    now,
  );
  assert.deepEqual(summary.scopes, ["mcp", "admin"]);
  assert.equal(summary.renewable, true);
  const text = formatSummary(summary, now);
  assert.match(text, /expires: {3}in 90m \(2026-01-01T01:30:00\.000Z\)/);
  assert.doesNotMatch(JSON.stringify(summary) + text, /at-1|s3cret/);
});
