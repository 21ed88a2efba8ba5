import assert from "node:assert/strict";
import { parseDuration } from "../../lib/cli/duration.ts";
import { UsageError } from "../../lib/errors.ts";

Deno.test("parseDuration() reads every documented form", async (t) => {
  const cases: [string, number][] = [
    ["500ms", 500],
    ["30s", 30_000],
    ["2m", 120_000],
    ["1h", 3_600_000],
    ["45", 45_000],
    ["1.5s", 1500],
    ["0.5", 500],
    [".25m", 15_000],
    ["1.6ms", 2],
    [" 10s ", 10_000],
    ["0", 0],
    ["0ms", 0],
    ["0h", 0],
    ["596h", 2_145_600_000],
  ];
  for (const [text, ms] of cases) {
    await t.step(`${JSON.stringify(text)} is ${ms}ms`, () => {
      assert.equal(parseDuration(text, "--timeout"), ms);
    });
  }
});

Deno.test("parseDuration() rejects bad input with a message naming the flag", async (t) => {
  const cases: [string, string][] = [
    ["", "expected a duration like 500ms, 30s, 2m or 1h"],
    ["abc", "expected a duration like 500ms, 30s, 2m or 1h"],
    ["-5s", "expected a duration like 500ms, 30s, 2m or 1h"],
    ["5x", "expected a duration like 500ms, 30s, 2m or 1h"],
    ["5 s", "expected a duration like 500ms, 30s, 2m or 1h"],
    ["5S", "expected a duration like 500ms, 30s, 2m or 1h"],
    ["1e3", "expected a duration like 500ms, 30s, 2m or 1h"],
    ["1.", "expected a duration like 500ms, 30s, 2m or 1h"],
    ["1m30s", "expected a duration like 500ms, 30s, 2m or 1h"],
    ["Infinity", "expected a duration like 500ms, 30s, 2m or 1h"],
    ["0.1ms", "is shorter than 1ms"],
    ["597h", "is longer than 24 days"],
    ["99999999999999999999", "is longer than 24 days"],
  ];
  for (const [text, detail] of cases) {
    await t.step(JSON.stringify(text), () => {
      assert.throws(() => parseDuration(text, "--connect-timeout"), (error: unknown) => {
        assert.ok(error instanceof UsageError);
        assert.equal(error.message, `Invalid --connect-timeout "${text}": ${detail}`);
        assert.match(error.hint ?? "", /0 is no limit/);
        return true;
      });
    });
  }
});
