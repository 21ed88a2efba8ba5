import assert from "node:assert/strict";
import { permissionFlags } from "../../lib/sandbox/permissions.ts";
import { baseEnv, MAIN, parseNdjson, ROOT, tempDir } from "../helpers.ts";
import { fixtureUri, ndjson, runShell, shellQuote } from "./put_helpers.ts";

type Rec = Record<string, unknown>;

Deno.test("the seed's pipeline runs verbatim: jn cat | jn filter | jn put results.json", async () => {
  const dir = await tempDir();
  try {
    const source = fixtureUri("search", { args: { gene: "Phase 3" } });
    const script = `jn cat ${shellQuote(source)} | jn filter '.text | contains("Phase 3")' | ` +
      "jn put results.json";
    const { code, stdout, stderr } = await runShell(script, { cwd: dir });
    assert.equal(code, 0, stderr);
    assert.equal(stdout, "");
    assert.equal(await Deno.readTextFile(`${dir}/results.json`), "[\ntrue\n]\n");
    assert.match(stderr, /^jn put: 1 record written to results\.json in \d+\.\d\ds\n$/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a cat | filter | put pipeline selects records into a file, in order", async () => {
  const dir = await tempDir();
  try {
    const source = fixtureUri("search", { args: { gene: "BRAF", limit: "6" } });
    const script = `jn cat --json ${shellQuote(source)} | ` +
      `jn filter 'select(.title | test("Result [135] ")) | {id, title}' | jn put -q hits.ndjson`;
    const { code, stderr } = await runShell(script, { cwd: dir });
    assert.equal(code, 0, stderr);
    assert.equal(stderr, "");
    assert.deepEqual(parseNdjson(await Deno.readTextFile(`${dir}/hits.ndjson`)), [
      { id: "search-BRAF-1", title: "Result 1 for BRAF" },
      { id: "search-BRAF-3", title: "Result 3 for BRAF" },
      { id: "search-BRAF-5", title: "Result 5 for BRAF" },
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("jn put stops quietly with exit 0 when the reader of stdout goes away", async () => {
  const dir = await tempDir();
  try {
    const records = Array.from({ length: 20_000 }, (_, i) => ({ text: `r${i + 1}` }));
    await Deno.writeTextFile(`${dir}/in.ndjson`, ndjson(records));
    const script = `{ jn put -c 4 ${shellQuote(fixtureUri("echo"))} < in.ndjson; ` +
      `echo "jn exited $?" >&2; } | head -n 1`;
    const { code, stdout, stderr } = await runShell(script, { cwd: dir });
    assert.equal(code, 0);
    const lines = parseNdjson(stdout) as Rec[];
    assert.deepEqual(lines.map((r) => r.input), [1]);
    assert.match(stderr, /stopped: stdout was closed\n/);
    assert.match(stderr, /\njn exited 0\n$/);
    const read = Number(/jn put echo: (\d+) records/.exec(stderr)?.[1]);
    assert.ok(read < records.length, `read ${read} records: it should stop reading stdin`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Ctrl-C cancels the calls in flight, writes their error records and exits 130", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...permissionFlags(), MAIN, "put", "-c", "3", fixtureUri("sleep")],
    cwd: ROOT,
    env: baseEnv(),
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  // stdin stays open: jn must stop reading on its own.
  await writer.write(new TextEncoder().encode(ndjson([{ ms: 1 }, { ms: 30000 }, { ms: 30000 }])));
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let stdout = "";
  while (!stdout.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    stdout += value;
  }
  child.kill("SIGINT");
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    stdout += chunk.value;
  }
  const [status, stderr] = await Promise.all([
    child.status,
    new Response(child.stderr).text(),
    writer.close().catch(() => {}),
  ]);
  assert.equal(status.code, 130, stderr);
  // Calls 2 and 3 (30 s each) were not waited for: they are cancelled, not answered.
  assert.deepEqual((parseNdjson(stdout) as Rec[]).map((r) => [r.input, r.kind ?? r.type]), [
    [1, "tool_result"],
    [2, "cancelled"],
    [3, "cancelled"],
  ]);
  assert.match(stderr, /; interrupted\njn: interrupted\n$/);
});
