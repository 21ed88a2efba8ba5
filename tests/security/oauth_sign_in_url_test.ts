/**
 * Every URL jn shows for the user to open, or opens, passes the one check
 * (lib/output/web_url.ts) — the OAuth sign-in page included: an authorization
 * server whose metadata names an `smb:`, `file:`, `ssh:` page, or one whose
 * host is disguised by a user name (`http://accounts.example@127.0.0.1/…`),
 * gets no client registered and nothing opened (what `JN_BROWSER` would
 * have opened is logged by tests/fixtures/bin/fake_browser), and the run is
 * one error line. An IDN look-alike host is shown and opened in its `xn--`
 * form, the address the browser really goes to.
 */
import assert from "node:assert/strict";
import { FIXTURES, runJn, tempDir } from "../helpers.ts";
import { FAKE_BROWSER, runJnAt, startFixture } from "../remote/support.ts";
import { openBrowser } from "../../lib/auth/browser.ts";
import { formatSummary, summarize } from "../../lib/auth/describe.ts";
import { shownUrl, webUrl } from "../../lib/output/web_url.ts";

const REFUSED =
  "Authorization failed: the authorization server's sign-in page is not a URL jn opens";
const HOSTILE_PAGES: [string, RegExp][] = [
  ["smb://attacker.example/share/x", /its scheme is "smb", not http\(s\)/],
  ["file:///etc/passwd", /its scheme is "file", not http\(s\)/],
  ["ssh://attacker.example/", /its scheme is "ssh", not http\(s\)/],
  [
    "http://accounts.example@{host}/authorize",
    /it carries a user name or password, which can disguise the real host/,
  ],
  [`http://{host}/authorize?pad=${"a".repeat(5000)}`, /it is longer than 4096 characters/],
  ["http://{host}/\u202eevil", /it contains control characters/],
];

/** `text` with every character outside printable ASCII as `\uXXXX` (for a test's name). */
const ascii = (text: string) =>
  text.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

async function readIfThere(path: string): Promise<string> {
  return await Deno.readTextFile(path).catch(() => "");
}

for (const [page, why] of HOSTILE_PAGES) {
  Deno.test(`OAuth: a sign-in page ${ascii(page.slice(0, 60))} is refused before a client is registered`, async () => {
    const server = await startFixture("oauth_server.ts", ["--authorization-endpoint", page]);
    const home = await tempDir();
    const opened = `${home}/opened.log`;
    try {
      const { code, stdout, stderr } = await runJnAt(home, ["auth", "login", `${server.url}/mcp`], {
        env: { JN_BROWSER: FAKE_BROWSER, FAKE_BROWSER_LOG: opened },
        timeoutMs: 30_000,
      });
      assert.equal(code, 4, stderr);
      assert.equal(stdout, "");
      assert.ok(stderr.startsWith(`jn: ${REFUSED}: `), stderr);
      assert.match(stderr, why);
      assert.equal(stderr.trimEnd().split("\n").length, 2, "one line, and its hint");
      assert.doesNotMatch(stderr, /Open this URL/);
      assert.ok(!stderr.includes("attacker.example") && !stderr.includes("accounts.example"));
      assert.equal(await readIfThere(opened), "", "nothing was opened");
      const stats = await (await fetch(`${server.url}/_stats`)).json();
      assert.equal(stats.registered, 0, "no client registered");
    } finally {
      await server.stop();
      await Deno.remove(home, { recursive: true });
    }
  });
}

Deno.test("OAuth: a javascript: sign-in page is one line of invalid metadata, nothing opened", async () => {
  const server = await startFixture("oauth_server.ts", [
    "--authorization-endpoint",
    "javascript:alert(1)",
  ]);
  const home = await tempDir();
  const opened = `${home}/opened.log`;
  try {
    const { code, stderr } = await runJnAt(home, ["auth", "login", `${server.url}/mcp`], {
      env: { JN_BROWSER: FAKE_BROWSER, FAKE_BROWSER_LOG: opened },
      timeoutMs: 30_000,
    });
    assert.equal(code, 4, stderr);
    assert.match(
      stderr,
      /^jn: Authorization failed: the authorization server's metadata is invalid: authorization_endpoint: URL cannot use javascript:/,
    );
    assert.equal(stderr.trimEnd().split("\n").length, 2, stderr);
    assert.equal(await readIfThere(opened), "");
    assert.equal((await (await fetch(`${server.url}/_stats`)).json()).registered, 0);
  } finally {
    await server.stop();
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("openBrowser() starts nothing for a URL that fails the check", async () => {
  const dir = await tempDir();
  const log = `${dir}/opened.log`;
  try {
    const env = { JN_BROWSER: FAKE_BROWSER, FAKE_BROWSER_LOG: log };
    for (
      const url of [
        "file:///etc/passwd",
        "smb://h/s",
        "javascript:alert(1)",
        "data:text/html,<script>x</script>",
        "http://a.example@127.0.0.1/",
        "https://x.example/\r\nhttps://y.example/",
        `https://x.example/${"a".repeat(5000)}`,
      ]
    ) {
      assert.equal(openBrowser(url, env), false, url);
    }
    // Give a browser that was started wrongly the time to write its log.
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(await readIfThere(log), "");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("webUrl(): what passes is shown as the browser reads it", () => {
  assert.deepEqual(webUrl("https://example.com/consent?step=1"), {
    url: "https://example.com/consent?step=1",
  });
  // A Cyrillic "а": shown as the address the browser really goes to.
  assert.deepEqual(webUrl("https://\u0430pple.com/sign-in"), {
    url: "https://xn--pple-43d.com/sign-in",
  });
  assert.deepEqual(webUrl("https://evil.example\\@good.example/"), {
    url: "https://evil.example/@good.example/",
  });
  assert.deepEqual(webUrl("https://%67ood.example/"), { url: "https://good.example/" });
  assert.match(webUrl("javascript:alert(1)").refusal ?? "", /scheme is "javascript"/);
  assert.match(webUrl("data:text/html,x").refusal ?? "", /scheme is "data"/);
  assert.match(shownUrl("http://u:p@h.example/"), /^\(a URL jn does not show: it carries/);
});

Deno.test("URL elicitation shows an IDN look-alike host in its xn-- form", async () => {
  const { code, stderr } = await runJn([
    "cat",
    `mcp+node://${FIXTURES}/servers/asker.mjs?tool=ask_url_as`,
    "--arg",
    "url=https://\u0430pple.com/sign-in",
  ], { timeoutMs: 30_000 });
  assert.equal(code, 0, stderr);
  assert.match(stderr, /asks you to open https:\/\/xn--pple-43d\.com\/sign-in/);
  assert.ok(!stderr.includes("\u0430pple"), stderr);
});

Deno.test("auth status shows an issuer only when it passes the check", () => {
  const status = (issuer: string) =>
    formatSummary(summarize({
      serverUrl: "https://mcp.example/mcp",
      grant: "client_credentials",
      client: { client_id: "c", issuer },
    }));
  assert.match(status("https://as.example"), /\n {2}issuer: {4}https:\/\/as\.example$/m);
  const disguised = status("https://accounts.example@evil.example");
  assert.match(disguised, /\n {2}issuer: {4}\(a URL jn does not show: it carries a user name/);
  assert.ok(!disguised.includes("evil.example"), disguised);
});
