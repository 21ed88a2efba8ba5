/**
 * Hosts of serve over Streamable HTTP: the official SDK client in both eras
 * and jn itself (`open("mcp+http://127.0.0.1:PORT/mcp")`), each seeing the
 * served server as it is — tools, resources, prompts, progress, a changed
 * list, and subscriptions.
 *
 * @module
 */

import assert from "node:assert/strict";
import { call, open } from "../../lib/client/mod.ts";
import { baseEnv, ROOT } from "../helpers.ts";
import { type Era, eventually, fixtureUri, httpHost, httpServe } from "./support.ts";

for (const era of ["legacy", "auto"] as Era[]) {
  Deno.test(`serve --http (${era}): the SDK client sees the demo server through serve`, async () => {
    const served = await httpServe(["@demo"]);
    const host = await httpHost(served.url!, { era });
    try {
      const client = host.client;
      assert.equal(
        client.getNegotiatedProtocolVersion(),
        era === "auto" ? "2026-07-28" : "2025-11-25",
      );
      assert.equal(client.getServerVersion()?.name, "jn-demo");
      const sum = await client.callTool({ name: "add", arguments: { a: 2, b: 40 } });
      assert.deepEqual(sum.structuredContent, { sum: 42 });
      const progress: unknown[] = [];
      await client.callTool({ name: "slow_count", arguments: { steps: 2, delay_ms: 5 } }, {
        onprogress: (p) => void progress.push(p),
      });
      assert.ok(progress.length >= 1);
      const readme = await client.readResource({ uri: "demo://readme" });
      assert.match(JSON.stringify(readme.contents), /demo/i);
      const prompt = await client.getPrompt({ name: "summarize", arguments: { topic: "jq" } });
      assert.match(JSON.stringify(prompt.messages), /jq/);
    } finally {
      await host.close();
      await served.close();
    }
  });

  Deno.test(`serve --http (${era}): a changed tool list reaches the host`, async () => {
    const served = await httpServe([fixtureUri("changer.mjs", ["--max", "2"])]);
    let changes = 0;
    const host = await httpHost(served.url!, {
      era,
      setup: (client) =>
        client.setNotificationHandler("notifications/tools/list_changed", () => void changes++),
    });
    try {
      const listen = era === "auto"
        ? await host.client.listen({ toolsListChanged: true })
        : undefined;
      assert.deepEqual((await host.client.listTools()).tools.map((t) => t.name), ["tool1"]);
      await eventually(() => changes >= 1, "notifications/tools/list_changed");
      assert.deepEqual((await host.client.listTools()).tools.map((t) => t.name), [
        "tool1",
        "tool2",
      ]);
      await listen?.close();
    } finally {
      await host.close();
      await served.close();
    }
  });
}

Deno.test("serve --http: jn itself is a client of serve, in both eras", async () => {
  const served = await httpServe(["@demo", fixtureUri("fixture.mjs")]);
  try {
    for (const protocol of ["auto", "legacy"] as const) {
      const conn = await open(`mcp+${served.url}`, { cwd: ROOT, env: baseEnv(), protocol });
      try {
        assert.equal(conn.session.server.name, "jn");
        assert.equal(conn.session.server.era, protocol === "auto" ? "modern" : "legacy");
        const result = await call(conn, "demo__add", { a: 20, b: 22 });
        assert.deepEqual(result.structuredContent, { sum: 42 });
        const echo = await call(conn, "fixture__echo", { text: "through jn" });
        assert.match(JSON.stringify(echo.content), /through jn/);
      } finally {
        await conn.close();
      }
    }
  } finally {
    await served.close();
  }
});
