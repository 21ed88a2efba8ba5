/**
 * What `jn cat` refuses, a program refuses too: the checks live in
 * lib/client (prepareCat, checkFollow, and cat()/follow() themselves), so a
 * library caller gets the same usage errors as the CLI — before any server
 * starts when it checks first, and before anything is sent when it does not.
 */

import assert from "node:assert/strict";
import {
  cat,
  checkFollow,
  follow,
  open,
  prepareCat,
  resolveTarget,
  type Target,
  UsageError,
} from "../../mod.ts";
import { baseEnv, FIXTURES } from "../helpers.ts";

const SERVER = `mcp+node://${FIXTURES}/servers/fixture.mjs`;

function target(query: string): Promise<Target> {
  return resolveTarget(`${SERVER}${query}`, { cwd: Deno.cwd(), env: baseEnv() });
}

function usage(pattern: RegExp) {
  return (error: unknown) => error instanceof UsageError && pattern.test(error.message);
}

Deno.test("the cat checks, case by case", async (t) => {
  const list = await target("?list=tools");
  const resource = await target("?resource=fixture://x");
  const tool = await target("?tool=echo&text=hi");
  const none = await target("");
  await t.step("something to do", () => {
    assert.throws(
      () => prepareCat(none),
      usage(/^Nothing to read from "mcp\+node:\/\/.*fixture\.mjs": name a tool/),
    );
  });
  await t.step("arguments go to tools and prompts", () => {
    assert.throws(
      () => prepareCat(list, { arg: ["a=1"] }),
      usage(/^Arguments are not used with list=: a$/),
    );
    assert.throws(
      () => prepareCat(resource, { args: "{}" }),
      usage(/^Arguments are not used with resource=: --args$/),
    );
    assert.deepEqual([...prepareCat(tool, { arg: ["n=2"] }).keys()], ["text", "n"]);
  });
  await t.step("--task and --detach go to tool calls", () => {
    assert.throws(
      () => prepareCat(list, { task: true }),
      usage(/^--task applies to tool calls only$/),
    );
    assert.throws(() => prepareCat(resource, { detach: true }), usage(/^--detach applies/));
  });
  await t.step("a malformed --arg is named", () => {
    assert.throws(() => prepareCat(tool, { arg: ["novalue"] }), UsageError);
  });
  await t.step("--follow: a resource or a list, no arguments", async () => {
    assert.deepEqual(checkFollow(list), { list: "tools" });
    assert.throws(() => checkFollow(tool), usage(/^--follow needs a resource or a list/));
    assert.throws(
      () => checkFollow(list, { arg: ["a=1"] }),
      usage(/^Arguments are not used with --follow: a$/),
    );
    const queried = await target("?list=tools&x=1");
    assert.throws(
      () => checkFollow(queried),
      usage(/^Arguments are not used with --follow: x$/),
    );
  });
});

Deno.test("cat() and follow() check what they are given, before sending anything", async () => {
  const env = baseEnv();
  await using conn = await open(`${SERVER}?list=tools`, { cwd: Deno.cwd(), env });
  await assert.rejects(() => cat(conn, { task: true }), usage(/^--task applies to tool calls/));
  await assert.rejects(
    () => cat(conn, { args: { a: 1 } }),
    usage(/^Arguments are not used with list=: a$/),
  );
  const { records } = await cat(conn);
  assert.ok(records.length > 0, "the list itself still works");
  await using withArgs = await open(`${SERVER}?list=tools&x=1`, { cwd: Deno.cwd(), env });
  await assert.rejects(
    () => follow(withArgs, { onVersion: () => {} }),
    usage(/^Arguments are not used with --follow: x$/),
  );
});
