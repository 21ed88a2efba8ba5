import assert from "node:assert/strict";
import { runJnHere } from "../helpers.ts";
import { runShell } from "./put_helpers.ts";

const RECORDS = [
  '{"text":"A Phase 3 trial","n":1}',
  '{"text":"A Phase 2 trial","n":2}',
  '{"text":"Phase 3 again","n":3}',
].join("\n") + "\n";

Deno.test("jn filter applies a jq expression to each record, in order", async (t) => {
  await t.step("booleans, as in the seed's pipeline", async () => {
    const { code, stdout, stderr } = await runJnHere(
      ["filter", '.text | contains("Phase 3")'],
      { stdin: RECORDS },
    );
    assert.equal(stderr, "");
    assert.equal(code, 0);
    assert.equal(stdout, "true\nfalse\ntrue\n");
  });

  await t.step("select and reshape, compact output like jq -c", async () => {
    const { code, stdout } = await runJnHere(
      ["filter", 'select(.text | contains("Phase 3")) | {n, words: (.text | split(" "))}'],
      { stdin: RECORDS },
    );
    assert.equal(code, 0);
    assert.equal(
      stdout,
      '{"n":1,"words":["A","Phase","3","trial"]}\n{"n":3,"words":["Phase","3","again"]}\n',
    );
  });

  await t.step("several outputs per record, none for others", async () => {
    const { stdout } = await runJnHere(["filter", "if .n == 2 then empty else .n, .n * 10 end"], {
      stdin: RECORDS,
    });
    assert.equal(stdout, "1\n10\n3\n30\n");
  });
});

Deno.test("jn filter with a bad expression exits 2 with jq's message", async () => {
  const { code, stdout, stderr } = await runJnHere(["filter", ".text |"], { stdin: RECORDS });
  assert.equal(code, 2);
  assert.equal(stdout, "");
  assert.match(
    stderr,
    /^jn: Invalid jq expression "\.text \|": syntax error, unexpected end of file/,
  );
  assert.match(stderr, /\nhint: /);
});

Deno.test("jn filter reports bad records on stderr, keeps the others and exits 1", async () => {
  const stdin = '{"text":"Phase 3"}\nnot json\n{"text":5}\n{"text":"Phase 1"}\n';
  const { code, stdout, stderr } = await runJnHere(["filter", '.text | contains("Phase")'], {
    stdin,
  });
  assert.equal(code, 1);
  assert.equal(stdout, "true\ntrue\n");
  const lines = stderr.trimEnd().split("\n");
  assert.equal(lines.length, 2);
  assert.match(lines[0], /^jn: filter: line 2: /);
  assert.match(lines[1], /^jn: filter: line 3: number \(5\) and string \("Phase"\) cannot have/);
});

Deno.test("jn filter stops with exit 0 when the reader of stdout goes away", async () => {
  const script = `i=0; while [ $i -lt 30000 ]; do echo '{"n":1}'; i=$((i+1)); done | ` +
    `{ jn filter '.n'; echo "jn exited $?" >&2; } | head -n 2`;
  const { code, stdout, stderr } = await runShell(script);
  assert.equal(code, 0);
  assert.equal(stdout, "1\n1\n");
  assert.equal(stderr, "jn exited 0\n");
});
