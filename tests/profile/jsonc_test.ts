/**
 * jn's JSONC parser (lib/profile/jsonc.ts) against `jsonc-parser`'s
 * `parseTree` (allowTrailingComma), which it replaces for reading profiles:
 * the same tree (types, offsets, values) for a valid document, and the same
 * first error (kind and offset) for an invalid one — on hand-written cases
 * and on seeded random edits of valid documents.
 */

import assert from "node:assert/strict";
import { type Node, type ParseError, parseTree, printParseErrorCode } from "jsonc-parser";
import { type JsoncNode, nodeAt, parseJsoncTree } from "../../lib/profile/jsonc.ts";

function theirs(text: string): unknown {
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    return { code: printParseErrorCode(errors[0].error), offset: errors[0].offset };
  }
  const shape = (node: Node): unknown => ({
    type: node.type,
    offset: node.offset,
    value: ["object", "array", "property"].includes(node.type) ? undefined : node.value,
    children: node.children?.map(shape),
  });
  return tree && shape(tree);
}

function ours(text: string): unknown {
  const { tree, error } = parseJsoncTree(text);
  const shape = (node: JsoncNode): unknown => ({
    type: node.type,
    offset: node.offset,
    value: node.value,
    children: node.children?.map(shape),
  });
  return error ?? (tree && shape(tree));
}

const VALID = [
  `// launch\n{\n  /* block */ "command": "uvx", // why\n  "args": ["a", "b",],\n}\n`,
  `{"a": [1, -2.5e+3, 0, true, false, null, {"b": "x\\u00e9\\n\\"y\\/"}], "c": {},}`,
  `[1,2,[3,[4]],{"k":-0.1E-2}]`,
  `"text"`,
  `{"a":1,"a":2}`,
  `{\r\n\t"__proto__": {"x": 1}\r\n}`,
];

const INVALID = [
  ``,
  `// only a comment`,
  `/* open`,
  `{"a": 1} extra`,
  `{"a": 1\n"b": 2}`,
  `{a: 1}`,
  `{"a" 1}`,
  `{"a":}`,
  `{,}`,
  `[,]`,
  `[1 2]`,
  `{"a": [1}`,
  `{"a": 1`,
  `"unterminated`,
  `"line\nbreak"`,
  `"bad \\q escape"`,
  `"bad \\u12 unicode"`,
  `"control \u0001 char"`,
  `-`,
  `1.`,
  `1e`,
  `01`,
  `truex`,
  `/`,
  `{"a": 1}\n{"b": 2}`,
  `\u00a0{}`,
];

Deno.test("parseJsoncTree() agrees with jsonc-parser", async (t) => {
  await t.step("valid documents: the same tree", () => {
    for (const text of VALID) {
      assert.equal((ours(text) as { type?: string }).type !== undefined, true, text);
      assert.deepEqual(ours(text), theirs(text), text);
    }
  });
  await t.step("invalid documents: the same first error", () => {
    for (const text of INVALID) {
      assert.ok(parseJsoncTree(text).error, text);
      assert.deepEqual(ours(text), theirs(text), text);
    }
  });
  await t.step("5000 seeded random edits of the valid documents", () => {
    const alphabet = ` \t\n\r{}[]:,"\\/*-+.0123456789eEtrufalsn\u0001\u000bxu`;
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    let failing = 0;
    for (let i = 0; i < 5000; i++) {
      let text = VALID[random(VALID.length)];
      for (let edits = 1 + random(3); edits > 0; edits--) {
        const at = random(text.length + 1);
        const char = alphabet[random(alphabet.length)];
        const op = random(3);
        text = text.slice(0, at) + (op === 1 ? "" : char) + text.slice(op === 0 ? at : at + 1);
      }
      if (parseJsoncTree(text).error) failing++;
      assert.deepEqual(ours(text), theirs(text), JSON.stringify(text));
    }
    assert.ok(failing > 1000 && failing < 5000, `${failing} of 5000 edits invalid`);
  });
  await t.step("nodeAt() finds a value by its path (the first of a repeated key)", () => {
    const tree = parseJsoncTree(`{"a": [10, {"b": 2}], "a": 3}`).tree!;
    assert.equal(nodeAt(tree, ["a", 1, "b"])?.value, 2);
    assert.equal(nodeAt(tree, ["a", 0])?.offset, 7);
    assert.equal(nodeAt(tree, ["a", 5]), undefined);
    assert.equal(nodeAt(tree, ["nope"]), undefined);
  });
});
