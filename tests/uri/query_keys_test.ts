/**
 * The table of query keys (lib/uri/query_keys.ts) is what the parser and the
 * reserved-key check read: every key in it behaves as its row says.
 */

import assert from "node:assert/strict";
import { UriSyntaxError } from "../../lib/errors.ts";
import { parseSource } from "../../lib/uri/parse.ts";
import { QUERY_KEYS } from "../../lib/uri/query_keys.ts";
import { isReservedKey } from "../../lib/uri/reserved.ts";

function fails(uri: string, pattern: RegExp): void {
  assert.throws(
    () => parseSource(uri),
    (error: unknown) =>
      error instanceof UriSyntaxError && pattern.test(`${error.message}\nhint: ${error.hint}`),
    uri,
  );
}

Deno.test("the table names each key once, with its value and one line of help", () => {
  const names = QUERY_KEYS.map((key) => key.name);
  assert.deepEqual(names, ["tool", "resource", "prompt", "list", "task", "session", "command"]);
  for (const key of QUERY_KEYS) {
    assert.match(key.value, /^[A-Z]+$/, key.name);
    assert.ok(key.help !== "" && !key.help.includes("\n"), key.name);
  }
});

Deno.test("reserved: every key jn reads in every source; session= only beside task=", () => {
  for (const key of QUERY_KEYS) assert.equal(isReservedKey(key.name), key.kind !== "refines");
  assert.equal(isReservedKey("session"), false);
  assert.equal(isReservedKey("Tool"), false);
  assert.equal(isReservedKey("q"), false);
});

Deno.test("the parser follows each row", async (t) => {
  for (const key of QUERY_KEYS) {
    await t.step(`${key.name}=`, () => {
      const uri = `mcp+npx://p?${key.name}=tools&${key.name}=y`;
      if (key.kind === "operation") {
        fails(uri, new RegExp(`"${key.name}=" is given twice`));
        const other = QUERY_KEYS.find((k) => k.kind === "operation" && k.name !== key.name)!;
        if (!(["tool", "task"].includes(key.name) && ["tool", "task"].includes(other.name))) {
          fails(`mcp+npx://p?${other.name}=x&${key.name}=tools`, /conflicts with/);
        }
      } else if (key.kind === "argv") {
        assert.deepEqual(parseSource(uri), {
          ...parseSource("mcp+npx://p"),
          raw: uri,
          command: ["tools", "y"],
        });
        fails(
          `@srv?${key.name}=x`,
          new RegExp(`"${key.name}=" is not allowed in a profile reference`),
        );
      } else {
        const alone = parseSource(`@srv/t?${key.name}=x`);
        assert.deepEqual(alone.args, [{ key: key.name, value: "x" }]);
        const beside = parseSource(`@srv?${key.refines}=1&${key.name}=x`);
        assert.deepEqual(beside.args, []);
        assert.equal((beside.operation as Record<string, unknown>)[key.name], "x");
      }
    });
  }
  await t.step("the conflict hint names every key that selects an operation", () => {
    fails(
      "mcp+npx://p?tool=a&prompt=b",
      /give at most one of tool, resource, prompt, list and task/,
    );
  });
});
