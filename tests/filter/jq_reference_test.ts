/**
 * compileJq() against the real jq: the same expressions over the same NDJSON
 * give byte-identical `jq -c` output and fail on the same records. The
 * reference is whatever `jq` is on PATH (1.6 on the dev machines); the cases
 * avoid what changed between jq 1.6 and 1.8 (number literals are kept as
 * written since 1.7, error wording), which jq_test.ts pins separately.
 */

import assert from "node:assert/strict";
import { compileJq } from "../../lib/filter/jq.ts";

const RECORDS = [
  { text: "A Phase 3 trial of X", x: 2, b: "bee", items: [1, 2, 3], n: 1.5, tags: ["a", "b"] },
  { text: "phase 2", x: 0, b: null, items: [], n: -4, tags: [] },
  { text: "Phase 3", x: 5, items: [10, 0.25], n: 7, nested: { k: [{ v: 1 }, { v: "two" }] } },
  { text: 'unicode é 😀 \t "q" / \\ \u0000 \u001f \u007f', x: 1.25, items: [3, 2, 2, 1], n: 0 },
  { text: "", x: -1, items: [{ a: 1 }, { a: 2 }], n: 123456789012, deep: { a: { b: { c: [] } } } },
].map((r) => JSON.stringify(r));

const EXPRESSIONS = [
  ".",
  '.text | contains("Phase 3")',
  "select(.x > 1)",
  ".items[]",
  "{a: .b}",
  "[.items[] | numbers * 2]",
  "keys",
  'to_entries | map(.key) | join(",")',
  "[.items[] | numbers | select(. > 1)] | length",
  ".text | ascii_downcase",
  '.b // "default"',
  "del(.items)",
  "[paths] | length",
  '.text | test("phase"; "i")',
  '.text | split(" ")',
  ".text | @base64",
  ".n | tostring",
  ".n + 1, .n / 3, .n * .n",
  ".items | sort | reverse",
  "[.items[] | numbers] | add",
  "with_entries(.value |= type)",
  ".x as $x | [range(0; $x)]",
  ".items | unique",
  ".text | @html, @uri, @sh, @json",
  "[.tags[]?] | @csv",
  "tojson | fromjson == .",
  "[limit(2; .items[])]",
  "first(.items[])?",
  '.items | any(type == "number" and . > 2)',
  '[paths(scalars) | map(tostring) | join(".")]',
  ".nested.k[]?.v",
  'if .x > 1 then "big" elif .x == 0 then "zero" else empty end',
  "reduce .items[] as $i (0; . + ($i | numbers))",
  "[.[] | type] | group_by(.) | map({(.[0]): length}) | add",
  ".text | length, utf8bytelength",
  ".text | explode | implode == .",
  '[splits(", *")?]',
  'getpath(["deep", "a", "b"])',
  "path(..) | length",
  'try error("custom") catch .',
  ".x | floor, sqrt",
  "[.items[] | strings]",
  "tostream",
  "{(.text): .x}",
  '.text | ltrimstr("A ") | rtrimstr("trial")',
  ".text | ascii_upcase | .[0:5]",
  '[.items[] | tostring] | join("-")',
  "to_entries | from_entries == .",
  "env | type",
];

/** Errors on some records: jq prints what it can and goes on. */
const FAILING = [".b.c", ".items + 1", ".text | .[0]", '.x | ltrimstr("a") | error'];

const jqPath = await findJq();

Deno.test({
  name: "compileJq() prints what jq -c prints, byte for byte",
  ignore: jqPath === undefined,
  async fn(t) {
    for (const expr of EXPRESSIONS) {
      await t.step(expr, async () => {
        const reference = await runJq(jqPath!, expr, RECORDS);
        assert.equal(reference.code, 0, reference.stderr);
        const filter = await compileJq(expr);
        const events = filter.run(RECORDS);
        assert.deepEqual(events.filter((e) => e.kind !== "output"), []);
        const ours = events.map((e) => (e.kind === "output" ? e.json + "\n" : "")).join("");
        assert.equal(ours, reference.stdout);
      });
    }
  },
});

Deno.test({
  name: "compileJq() fails on the records jq fails on and keeps the other outputs",
  ignore: jqPath === undefined,
  async fn(t) {
    for (const expr of FAILING) {
      await t.step(expr, async () => {
        const reference = await runJq(jqPath!, expr, RECORDS);
        // jq 1.6 exits 5 only when the last record failed; the messages say which did.
        const failedLines = [...reference.stderr.matchAll(/\(at <stdin>:(\d+)\)/g)]
          .map((m) => Number(m[1]));
        assert.ok(failedLines.length > 0);
        const events = (await compileJq(expr)).run(RECORDS);
        const ours = events.map((e) => (e.kind === "output" ? e.json + "\n" : "")).join("");
        assert.equal(ours, reference.stdout);
        assert.deepEqual(events.filter((e) => e.kind === "error").map((e) => e.line), failedLines);
      });
    }
  },
});

async function runJq(jq: string, expr: string, lines: string[]) {
  const child = new Deno.Command(jq, {
    args: ["-c", expr],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(lines.join("\n") + "\n"));
  await writer.close();
  const { code, stdout, stderr } = await child.output();
  const decoder = new TextDecoder();
  return { code, stdout: decoder.decode(stdout), stderr: decoder.decode(stderr) };
}

async function findJq(): Promise<string | undefined> {
  try {
    const { success } = await new Deno.Command("jq", { args: ["--version"] }).output();
    return success ? "jq" : undefined;
  } catch {
    return undefined;
  }
}
