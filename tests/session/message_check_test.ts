import assert from "node:assert/strict";
import {
  checkResponse,
  MalformedAnswer,
  malformedStandIn,
  nestsDeeperThan,
} from "../../lib/session/message_check.ts";

Deno.test("nestsDeeperThan() counts objects and arrays, iteratively", () => {
  assert.equal(nestsDeeperThan(1, 0), false);
  assert.equal(nestsDeeperThan({}, 1), false);
  assert.equal(nestsDeeperThan({ a: [{}] }, 3), false);
  assert.equal(nestsDeeperThan({ a: [{}] }, 2), true);
  // Far deeper than any stack: built and checked without recursion.
  const deep = JSON.parse(`${"[".repeat(200_000)}${"]".repeat(200_000)}`);
  assert.equal(nestsDeeperThan(deep, 512), true);
  assert.equal(
    nestsDeeperThan({ wide: Array.from({ length: 10_000 }, () => ({ x: [1] })) }, 4),
    false,
  );
});

Deno.test("checkResponse() accepts what JSON-RPC 2.0 allows and names the rest", () => {
  assert.deepEqual(checkResponse({ jsonrpc: "2.0", id: 1, result: {}, extra: 1 }), {
    ok: true,
    message: { jsonrpc: "2.0", id: 1, result: {} },
  });
  assert.equal(
    checkResponse({ jsonrpc: "2.0", id: 1, error: { code: -1, message: "m" } }).ok,
    true,
  );
  const problem = (message: Record<string, unknown>) => {
    const check = checkResponse({ jsonrpc: "2.0", id: 1, ...message });
    return check.ok ? undefined : check.problem;
  };
  assert.equal(problem({ result: null }), "the result is null");
  assert.equal(problem({ result: [] }), "the result is an array");
  assert.equal(problem({ result: "x" }), "the result is a string");
  assert.equal(problem({ result: { _meta: 5 } }), "the result's _meta is a number");
  assert.equal(problem({ error: { message: "m" } }), "the error's code is missing");
  assert.equal(problem({ error: { code: 1.5, message: "m" } }), "the error's code is a number");
  assert.equal(problem({ error: { code: 1 } }), "the error's message is missing");
  assert.equal(
    problem({ result: {}, error: { code: 1, message: "m" } }),
    "it has both a result and an error",
  );
  assert.equal(problem({}), "it has neither a result nor an error");
});

Deno.test("malformedStandIn() is an error response that carries its MalformedAnswer", () => {
  const standIn = malformedStandIn(7, "the result is null") as {
    id: number;
    error: { code: number; data: unknown };
  };
  assert.equal(standIn.id, 7);
  assert.equal(standIn.error.code, -32603);
  assert.ok(standIn.error.data instanceof MalformedAnswer);
  assert.equal((standIn.error.data as MalformedAnswer).problem, "the result is null");
});
