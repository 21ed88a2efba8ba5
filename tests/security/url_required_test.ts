/**
 * URL elicitation required (-32042) from a hostile server: thousands of URLs
 * and non-web schemes. jn names only http(s) URLs, a few of them, and does
 * not offer them one by one.
 */
import assert from "node:assert/strict";
import { FIXTURES, runJn } from "../helpers.ts";

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
  assert.ok(!stderr.includes("asks you to open"), "a flood of URLs is not offered one by one");
  assert.match(
    stderr,
    /needs you to open 5000 URLs: https:\/\/example\.com\/step\/0 .*… and 4995 more/,
  );
});

Deno.test("elicitation/create in URL mode with a javascript: URL is declined unshown", async () => {
  const { code, stdout, stderr } = await runJn([
    "cat",
    `mcp+node://${FIXTURES}/servers/asker.mjs?tool=ask_js_url`,
  ], { timeoutMs: 30_000 });
  assert.equal(code, 0, stderr);
  assert.ok(!stderr.includes("javascript:"), stderr);
  assert.match(stdout, /\\"action\\":\\"decline\\"/);
});
