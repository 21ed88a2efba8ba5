/**
 * `jn put` against a server that hangs on every call gives up: after
 * `--max-timeouts` calls in a row timed out it makes no further call, and
 * every remaining input line still yields a `not_attempted` record.
 */

import assert from "node:assert/strict";
import { parseNdjson, runJnHere } from "../helpers.ts";
import { hostileUri } from "../session/tree_support.ts";
import { ndjson } from "./put_helpers.ts";

type Rec = Record<string, unknown>;

const INPUT = ndjson(Array.from({ length: 12 }, (_, i) => ({ n: i + 1 })));

Deno.test("put stops calling a server that hangs after 3 timeouts in a row (default)", async () => {
  const result = await runJnHere(
    ["put", "-c", "2", "--timeout", "300ms", hostileUri("hang")],
    { stdin: INPUT, timeoutMs: 30_000 },
  );
  assert.equal(result.code, 1, result.stderr);
  const records = parseNdjson(result.stdout) as Rec[];
  assert.deepEqual(records.map((r) => r.input), Array.from({ length: 12 }, (_, i) => i + 1));
  const kinds = records.map((r) => r.kind);
  // Two calls are in flight when the third timeout trips the breaker: at most 4 were made.
  const timeouts = kinds.filter((kind) => kind === "timeout").length;
  assert.ok(timeouts >= 3 && timeouts <= 4, kinds.join(" "));
  assert.deepEqual(kinds.slice(timeouts), Array(12 - timeouts).fill("not_attempted"));
  assert.deepEqual(records[11], {
    type: "error",
    input: 12,
    tool: "hang",
    kind: "not_attempted",
    error: "Not attempted: 3 calls in a row timed out (--max-timeouts 3)",
  });
  assert.match(
    result.stderr,
    /^jn put hang: 12 records, \d calls, 12 errors in [\d.]+s \(\d+ calls\/s\); stopped calling after 3 calls in a row timed out \(--max-timeouts 3\), later records were not attempted\n$/,
  );
});

Deno.test("--max-timeouts 1 stops at the first timeout, and leaves answered calls alone", async () => {
  const input = ndjson([{ text: "a" }, { text: "b" }]);
  const ok = await runJnHere(["put", "--max-timeouts", "1", hostileUri("echo")], { stdin: input });
  assert.equal(ok.code, 0, ok.stderr);
  const result = await runJnHere(
    ["put", "-c", "1", "--max-timeouts", "1", "--timeout", "300ms", hostileUri("hang")],
    { stdin: INPUT, timeoutMs: 30_000 },
  );
  assert.equal(result.code, 1, result.stderr);
  const kinds = (parseNdjson(result.stdout) as Rec[]).map((r) => r.kind);
  assert.deepEqual(kinds, ["timeout", ...Array(11).fill("not_attempted")]);
});

Deno.test("--max-timeouts must be a whole number (exit 2)", async () => {
  const result = await runJnHere(["put", "--max-timeouts", "-1", hostileUri("hang")], {
    stdin: "",
  });
  assert.equal(result.code, 2);
  assert.match(result.stderr, /^jn: Invalid --max-timeouts "-1": expected a whole number/);
});
