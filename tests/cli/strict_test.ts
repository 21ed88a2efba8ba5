/**
 * Strict means strict (#15): a mistake the user can fix is a usage error
 * (exit 2) with one line saying what was wrong and a hint with what to type,
 * never a protocol failure leaking the SDK's own words.
 */

import assert from "node:assert/strict";
import { ROOT, runJn } from "../helpers.ts";

const DEMO = `mcp+deno://${ROOT}/tests/fixtures/demo_server_main.ts`;

Deno.test("--protocol with a 2025 revision is a one-line usage error listing the accepted values", async () => {
  const result = await runJn(["inspect", "--protocol", "2025-11-25", DEMO]);
  assert.equal(result.code, 2, result.stderr);
  assert.equal(result.stdout, "");
  assert.match(result.stderr, /Invalid --protocol "2025-11-25": .*2025-era/);
  assert.match(result.stderr, /hint: accepted: auto, legacy .* 2026-07-28/);
  assert.doesNotMatch(result.stderr, /versionNegotiation/);
});

Deno.test("a plain https:// source is a usage error with the mcp+ string to paste", async () => {
  const result = await runJn(["inspect", "https://example.com/mcp"]);
  assert.equal(result.code, 2, result.stderr);
  assert.match(result.stderr, /hint: to reach this server, write mcp\+https:\/\/example\.com\/mcp/);
});
