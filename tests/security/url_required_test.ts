/**
 * URL elicitation (the request, and the -32042 error) from a hostile server:
 * thousands of URLs, non-web schemes, credentials that disguise the host,
 * control characters. jn shows only plain http(s) URLs, a few of them, never
 * offers a flood one by one, and says in one line why it refused the rest.
 */
import assert from "node:assert/strict";
import { open } from "../../mod.ts";
import { FIXTURES, parseNdjson, runJn } from "../helpers.ts";

const ASKER = `mcp+node://${FIXTURES}/servers/asker.mjs`;

Deno.test("-32042 with 5000 URLs and javascript:/file: ones: a bounded error, web URLs only", async () => {
  const { code, stdout, stderr } = await runJn([
    "cat",
    `mcp+node://${FIXTURES}/servers/asker.mjs?tool=need_urls`,
    "--elicit",
    "decline",
  ], { timeoutMs: 30_000 });
  assert.notEqual(code, 0);
  assert.equal(stdout, "");
  assert.ok(stderr.length < 2000, `stderr of ${stderr.length} characters`);
  assert.ok(!stderr.includes("javascript:"), stderr);
  assert.ok(!stderr.includes("file:"), stderr);
  assert.ok(!stderr.includes("evil.example"), stderr);
  assert.ok(!stderr.includes("\x1b"), stderr);
  assert.ok(!stderr.includes("asks you to open"), "a flood of URLs is not offered one by one");
  assert.match(
    stderr,
    /^jn: refused to show 4 URLs the server wants opened: its scheme is "javascript", not http\(s\); its scheme is "file", not http\(s\); it carries a user name or password, which can disguise the real host; …\n/,
  );
  assert.match(
    stderr,
    /needs you to open 5000 URLs: https:\/\/example\.com\/step\/0 .*… and 4995 more/,
  );
  assert.match(stderr, /\nhint: jn offers at most 5 URLs one by one: open them in a browser/);
});

Deno.test("elicitation/create in URL mode with a javascript: URL is declined unshown, and said", async () => {
  const { code, stdout, stderr } = await runJn([
    "cat",
    `${ASKER}?tool=ask_js_url`,
  ], { timeoutMs: 30_000 });
  assert.equal(code, 0, stderr);
  assert.ok(!stderr.includes("javascript:"), stderr);
  assert.match(stdout, /\\"action\\":\\"decline\\"/);
  assert.equal(
    stderr,
    'jn: declined the server\'s request to open a URL: its scheme is "javascript", not http(s)\n',
  );
});

/** What, the URL, why; whether the request path sees it (the SDK drops a newline, refuses a non-URL). */
const REFUSED: [string, string, RegExp, boolean][] = [
  ["credentials", "https://bank.example@evil.example/login", /user name or password/, true],
  [
    "an escape",
    "https://example.com/\x1b]8;;https://evil.example\x07x",
    /control characters/,
    true,
  ],
  ["a bidi override", "https://example.com/\u202egnp.exe", /control characters/, true],
  ["file:", "file:///etc/passwd", /its scheme is "file", not http\(s\)/, true],
  ["a huge URL", `https://example.com/${"a".repeat(5000)}`, /longer than 4096 characters/, true],
  ["a newline", "https://example.com/a\nb", /control characters/, false],
  ["no URL at all", "not a url", /it is not a valid URL/, false],
];

Deno.test("URL mode: a URL jn will not show is declined with one line saying why", async (t) => {
  for (const [what, url, why, request] of REFUSED) {
    if (request) {
      await t.step(`the request: ${what}`, async () => {
        const { code, stdout, stderr } = await runJn(
          ["cat", `${ASKER}?tool=ask_url_as`, "--args", JSON.stringify({ url })],
          { timeoutMs: 30_000 },
        );
        assert.equal(code, 0, stderr);
        const answer = JSON.parse(String((parseNdjson(stdout)[0] as { text: string }).text));
        assert.deepEqual(answer.result, { action: "decline" });
        const lines = stderr.split("\n").filter(Boolean);
        assert.equal(lines.length, 1, stderr);
        assert.match(lines[0], /^jn: declined the server's request to open a URL: /);
        assert.match(lines[0], why);
        assert.ok(!stderr.includes("evil.example") && !stderr.includes("\x1b"), stderr);
      });
    }
    await t.step(`the -32042 error: ${what}`, async () => {
      const { code, stdout, stderr } = await runJn(
        ["cat", `${ASKER}?tool=need_url_as`, "--args", JSON.stringify({ url })],
        { timeoutMs: 30_000 },
      );
      assert.equal(code, 5, stderr);
      assert.equal(stdout, "");
      assert.match(stderr, /^jn: The server "[^"]+" needs you to open a URL jn will not show \(/);
      assert.match(stderr.split("\n")[0], why);
      assert.ok(!stderr.includes("evil.example") && !stderr.includes("\x1b"), stderr);
    });
  }
});

Deno.test("open({ elicit }): a refused URL never reaches the callback; the notice says why", async () => {
  const notices: string[] = [];
  const asked: string[] = [];
  const conn = await open(`${ASKER}?tool=ask_url_as`, {
    cwd: Deno.cwd(),
    env: {},
    elicit: (request) => {
      asked.push(String(request.url));
      return Promise.resolve({ action: "accept" });
    },
    events: { onNotice: (message) => void notices.push(message) },
  });
  try {
    const result = await conn.session.callTool("ask_url_as", {
      url: "https://bank.example@evil.example/",
    });
    assert.deepEqual(JSON.parse(String(result.content[0].text)).result, { action: "decline" });
    assert.deepEqual(asked, []);
    assert.equal(notices.length, 1);
    assert.match(notices[0], /user name or password/);
  } finally {
    await conn.close();
  }
});

Deno.test("a flood of elicitation requests: a few are put to the user, the rest declined, one notice", async () => {
  const { code, stdout, stderr } = await runJn(["cat", `${ASKER}?tool=flood_elicit`], {
    timeoutMs: 30_000,
  });
  assert.equal(code, 0, stderr);
  const actions = JSON.parse(String((parseNdjson(stdout)[0] as { text: string }).text));
  assert.deepEqual(actions, { decline: 40 });
  const asked = stderr.split("\n").filter((line) => / asked: question \d+$/.test(line));
  // Eight at a time (a slot freed while the flood arrives takes one more): not all forty.
  assert.ok(asked.length >= 1 && asked.length <= 20, `${asked.length} questions shown`);
  const notices = stderr.split("\n").filter((line) => /more questions/.test(line));
  assert.deepEqual(notices, [
    "jn: the server sent more questions (elicitation requests) than jn asks at once; declining " +
    "the excess (at most 8 wait for an answer)",
  ]);
});
