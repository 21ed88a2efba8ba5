import assert from "node:assert/strict";
import { resourceContentRecords, toolResultRecords } from "../../lib/output/records.ts";

Deno.test("resourceContentRecords() with json gives the value of JSON text only", async (t) => {
  const json = (contents: Parameters<typeof resourceContentRecords>[0]) =>
    resourceContentRecords(contents, { json: true });
  await t.step("application/json and +json media types, parameters ignored", () => {
    assert.deepEqual(
      json([
        { uri: "a", mimeType: "application/json; charset=utf-8", text: "[1,2]" },
        { uri: "b", mimeType: "application/vnd.api+json", text: '"s"' },
      ]),
      [1, 2, "s"],
    );
  });
  await t.step("no mimeType: a JSON object or array only", () => {
    assert.deepEqual(json([{ uri: "a", text: '{"k":1}' }, { uri: "b", text: "42" }]), [
      { k: 1 },
      { type: "resource_content", uri: "b", text: "42" },
    ]);
  });
  await t.step("other media types, bad JSON and blobs stay records", () => {
    const items = [
      { uri: "a", mimeType: "text/markdown", text: "[1]" },
      { uri: "b", mimeType: "application/json", text: "{oops" },
      { uri: "c", mimeType: "application/json", blob: "e30=" },
    ];
    assert.deepEqual(json(items), items.map((item) => ({ type: "resource_content", ...item })));
  });
  await t.step("without json: the envelope, unchanged", () => {
    assert.deepEqual(
      resourceContentRecords([{ uri: "a", mimeType: "application/json", text: "[]" }]),
      [
        { type: "resource_content", uri: "a", mimeType: "application/json", text: "[]" },
      ],
    );
  });
});

Deno.test("a text item without mimeType gets none", () => {
  assert.deepEqual(toolResultRecords("t", { content: [{ type: "text", text: "hi" }] }), [
    { type: "tool_result", tool: "t", content_type: "text", text: "hi" },
  ]);
});
