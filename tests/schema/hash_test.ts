import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { schemaHash, toolHashes, toolSignatureLine } from "../../lib/schema/hash.ts";
import type { HashableTool } from "../../lib/schema/hash.ts";
import { comparePython, pythonFloatRepr } from "../../lib/schema/python_json.ts";

interface Vector {
  name: string;
  tools: HashableTool[];
  hash: string;
  lines: string[];
  toolHashes: Record<string, string>;
}

const SCRIPT = fileURLToPath(new URL("./vectors.py", import.meta.url));
const VECTORS: Vector[] = JSON.parse(
  await Deno.readTextFile(new URL("./vectors.json", import.meta.url)),
);

/** Runs the Python reference (vectors.py --stdin) on several tool lists. */
async function pythonReference(
  lists: unknown[][] | string,
): Promise<Omit<Vector, "name" | "tools">[]> {
  const child = new Deno.Command("python3", {
    args: [SCRIPT, "--stdin"],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  const text = typeof lists === "string" ? lists : JSON.stringify(lists);
  await writer.write(new TextEncoder().encode(text));
  await writer.close();
  const out = await child.output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

async function hasPython(): Promise<boolean> {
  try {
    const out = await new Deno.Command("python3", { args: ["--version"], stdout: "null" }).output();
    return out.success;
  } catch {
    return false;
  }
}

Deno.test("schemaHash() matches the committed vectors of the seed's Python function", async (t) => {
  for (const vector of VECTORS) {
    await t.step(vector.name, () => {
      const sorted = [...vector.tools].sort((a, b) => comparePython(a.name, b.name));
      assert.deepEqual(sorted.map(toolSignatureLine), vector.lines);
      assert.equal(schemaHash(vector.tools), vector.hash);
      assert.deepEqual({ ...toolHashes(vector.tools) }, vector.toolHashes);
    });
  }
});

Deno.test("toolSignatureLine() writes the seed's byte format", () => {
  const line = toolSignatureLine({
    name: "search",
    inputSchema: { type: "object", properties: { gene: { type: "string" } }, required: ["gene"] },
  });
  assert.equal(line, '{"name": "search", "required": ["gene"], "types": {"gene": "string"}}');
});

Deno.test("comparePython() orders an astral character after a private-use BMP character", () => {
  assert.equal(comparePython("\u{1F600}", "\uE000"), 1);
  assert.equal(comparePython("\uE000", "\u{1F600}"), -1);
  assert.equal(comparePython("a", "ab"), -1);
  assert.equal(comparePython("B", "a"), -1);
  assert.equal(comparePython("x", "x"), 0);
});

Deno.test("pythonFloatRepr() prints floats as Python's repr()", () => {
  const cases: [number, string][] = [
    [1.5, "1.5"],
    [1e16, "1e+16"],
    [1e15, "1000000000000000.0"],
    [1.5e-7, "1.5e-07"],
    [1e-5, "1e-05"],
    [1e-4, "0.0001"],
    [-0.0, "-0.0"],
    [123456789012345680000, "1.2345678901234568e+20"],
    [5e-324, "5e-324"],
    [1.7976931348623157e308, "1.7976931348623157e+308"],
    [-2.5, "-2.5"],
    [Infinity, "Infinity"],
  ];
  for (const [n, expected] of cases) assert.equal(pythonFloatRepr(n), expected, `for ${n}`);
});

Deno.test({
  name: "schemaHash() agrees with python3 on randomized schemas",
  // python3 is on every supported machine; without it there is nothing to compare with.
  ignore: !(await hasPython()),
  fn: randomizedAgreement,
});

/**
 * The documented limit (lib/schema/python_json.ts, docs/drift.md): jn hashes
 * the numbers `JSON.parse` leaves, so a number spelled as a float with an
 * integral value, or an integer beyond 2^53, hashes unlike the seed's Python,
 * which reads the spelling. Every other number agrees. The table is the
 * contract: when one of these starts to agree, the docs must change too.
 */
const NUMBER_CASES: [spelling: string, python: string, jn: string][] = [
  ["1.0", "1.0", "1"],
  ["1e3", "1000.0", "1000"],
  ["1E+2", "100.0", "100"],
  ["2.50e1", "25.0", "25"],
  ["-0.0", "-0.0", "0"],
  ["1.00000000000000001", "1.0", "1"],
  ["1e16", "1e+16", "10000000000000000"],
  ["12345678901234567890", "12345678901234567890", "12345678901234567168"],
  ["100", "100", "100"],
  ["-7", "-7", "-7"],
  ["0.5", "0.5", "0.5"],
  ["1.5e-7", "1.5e-07", "1.5e-07"],
  ["123.456", "123.456", "123.456"],
  ["1e22", "1e+22", "10000000000000000000000"],
];

Deno.test({
  name: "numbers hash like Python except the documented spellings JSON.parse cannot keep",
  ignore: !(await hasPython()),
  fn: async () => {
    const rawList = (spelling: string) =>
      `[{"name": "t", "inputSchema": {"properties": {"p": {"type": ${spelling}}}, "required": [${spelling}]}}]`;
    const expected = await pythonReference(`[${NUMBER_CASES.map(([s]) => rawList(s)).join(", ")}]`);
    for (const [i, [spelling, python, jn]] of NUMBER_CASES.entries()) {
      const line = (n: string) => `{"name": "t", "required": [${n}], "types": {"p": ${n}}}`;
      assert.deepEqual(expected[i].lines, [line(python)], `Python, ${spelling}`);
      const tools = JSON.parse(rawList(spelling)) as HashableTool[];
      assert.equal(toolSignatureLine(tools[0]), line(jn), `jn, ${spelling}`);
      assert.equal(schemaHash(tools) === expected[i].hash, python === jn, spelling);
    }
  },
});

async function randomizedAgreement() {
  const random = seededRandom(20250712);
  const lists = Array.from({ length: 60 }, () => randomToolList(random));
  const expected = await pythonReference(lists);
  for (const [i, tools] of lists.entries()) {
    const hashable = tools as HashableTool[];
    assert.equal(schemaHash(hashable), expected[i].hash, `list ${i}: ${JSON.stringify(tools)}`);
    assert.deepEqual({ ...toolHashes(hashable) }, expected[i].toolHashes, `list ${i}`);
  }
}

// --- random schemas ---------------------------------------------------------

const ALPHABET = [
  "a",
  "B",
  "z",
  "_",
  "-",
  "0",
  " ",
  '"',
  "\\",
  "/",
  "\n",
  "\x00",
  "\x7f",
  "é",
  "中",
  "\uE000",
  "\uFFFF",
  "\u{1F600}",
  "\u{10FFFF}",
  "\uD800", // a lone surrogate: JSON.stringify escapes it, Python keeps it
];
const TYPES: unknown[] = [
  "string",
  "integer",
  "number",
  "boolean",
  "object",
  "array",
  "null",
  ["string", "null"],
  ["null", "integer"],
  [],
  7,
  -0.25,
  1.5e-9,
  true,
  null,
  { "b": 1, "a": ["é"] },
];

function randomToolList(random: () => number): unknown[] {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const name = () =>
    Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(ALPHABET)).join("");
  return Array.from({ length: Math.floor(random() * 6) }, () => {
    const properties: Record<string, unknown> = {};
    for (let i = Math.floor(random() * 5); i > 0; i--) {
      const r = random();
      properties[name()] = r < 0.15
        ? {}
        : r < 0.2
        ? true
        : { type: pick(TYPES), description: name() };
    }
    const keys = Object.keys(properties);
    const schema: Record<string, unknown> = { type: "object" };
    if (random() < 0.85) schema.properties = properties;
    const r = random();
    if (r < 0.7) {
      schema.required = keys.filter(() => random() < 0.5).concat(random() < 0.2 ? [name()] : []);
    } else if (r < 0.75) {
      schema.required = name(); // malformed: Python sorts its characters
    } else if (r < 0.8) {
      schema.required = Object.fromEntries(keys.map((k) => [k, true])); // sorted keys
    } else if (r < 0.83) {
      schema.required = [2, true, -0.5, 0]; // numbers sort by value
    }
    return random() < 0.95 ? { name: name(), inputSchema: schema } : { name: name() };
  });
}

function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x ^= x + Math.imul(x ^ (x >>> 7), 61 | x);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}
