import assert from "node:assert/strict";
import { CALL_TOOL_RESULT } from "../../lib/session/call_result_schema.ts";

function validate(value: unknown) {
  return CALL_TOOL_RESULT["~standard"].validate(value) as {
    value?: unknown;
    issues?: { message: string }[];
  };
}

Deno.test("CALL_TOOL_RESULT accepts the shapes of a tools/call result", async (t) => {
  await t.step("content items with a type, any other fields kept", () => {
    const result = { content: [{ type: "image", data: "AA==", mimeType: "image/png" }], x: 1 };
    assert.deepEqual(validate(result).value, result);
  });
  await t.step("structured content only: content defaults to []", () => {
    assert.deepEqual(validate({ structuredContent: { a: 1 } }).value, {
      structuredContent: { a: 1 },
      content: [],
    });
  });
  await t.step("an empty result, as the SDK's schema allows (content defaults to [])", () => {
    assert.deepEqual(validate({}).value, { content: [] });
  });
  await t.step("isError results", () => {
    assert.equal(validate({ content: [], isError: true }).issues, undefined);
  });
});

Deno.test("CALL_TOOL_RESULT rejects what jn cannot turn into records", async (t) => {
  for (
    const [name, value, message] of [
      ["not an object", "text", "the result is not an object"],
      ["an array", [], "the result is not an object"],
      ["content not an array", { content: "x" }, "content is not an array"],
      ["an item without type", { content: [{ text: "x" }] }, "a content item has no type"],
      ["an item that is null", { content: [null] }, "a content item has no type"],
      ["structured content not an object", { content: [], structuredContent: 3 }, "not an object"],
      ["isError not a boolean", { content: [], isError: "yes" }, "isError is not a boolean"],
    ] as const
  ) {
    await t.step(name, () => {
      const issues = validate(value).issues ?? [];
      assert.ok(issues.some((issue) => issue.message.includes(message)), JSON.stringify(issues));
    });
  }
});
