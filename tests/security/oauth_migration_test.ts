/**
 * A hostile resource moves to another authorization server: jn must not send
 * the user's machine credentials (a workload identity JWT, a client secret)
 * to the authorization server the resource now names, nor swap the user's
 * client for one registered there.
 */
import assert from "node:assert/strict";
import { tempDir } from "../helpers.ts";
import { runJnAt, startFixture } from "../remote/support.ts";

Deno.test("OAuth: a resource that moves to another authorization server gets no credentials", async (t) => {
  const server = await startFixture("as_switch.ts");
  const home = await tempDir();
  const mcp = `${server.url}/mcp`;
  const jwt = `${home}/workload.jwt`;
  await Deno.writeTextFile(
    jwt,
    "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ3b3JrbG9hZCJ9.secret-workload-jwt\n",
  );
  const stats = async () => await (await fetch(`${server.url}/_stats`)).json();
  try {
    await t.step("a workload identity login at authorization server A works", async () => {
      const login = await runJnAt(home, [
        "auth",
        "login",
        mcp,
        "--client-id",
        "c1",
        "--assertion",
        jwt,
      ]);
      assert.equal(login.code, 0, login.stderr);
      const call = await runJnAt(home, ["cat", `mcp+${mcp}?tool=ping`]);
      assert.equal(call.code, 0, call.stderr);
      assert.match(call.stdout, /pong/);
    });

    await t.step("after the move to B, the JWT is not sent to B and the run fails", async () => {
      await (await fetch(`${server.url}/_switch`, { method: "POST" })).body?.cancel();
      const call = await runJnAt(home, ["cat", `mcp+${mcp}?tool=ping`]);
      const seen = await stats();
      assert.deepEqual(
        seen.assertions,
        [],
        "the workload JWT went to the new authorization server",
      );
      assert.equal(seen.registered, 0, "a client was registered at the new authorization server");
      assert.equal(call.code, 4, call.stderr);
      assert.match(call.stderr, /authorization server/);
      assert.ok(!call.stderr.includes("secret-workload-jwt"));
      const status = await runJnAt(home, ["auth", "status", mcp, "--format", "json"]);
      assert.match(status.stdout, /"c1"|c1/, "the user's client is kept");
    });
  } finally {
    await server.stop();
    await Deno.remove(home, { recursive: true });
  }
});
