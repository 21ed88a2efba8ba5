/**
 * serve passes every kind of message through, both ways, as a host sees it:
 * the official SDK client over stdio (both eras) in front of jn's demo
 * server and the fixture servers — tools, structured results, errors,
 * resources (list, read, templates, subscribe and updates), prompts,
 * completion, logging (setLevel and messages), progress (the host's token),
 * cancellation, and a changed tool list.
 *
 * @module
 */

import assert from "node:assert/strict";
import { endTree, treeFiles, waitForFile } from "../session/tree_support.ts";
import { type Era, eventually, fixtureUri, rawHost, stdioHost } from "./support.ts";

const ERAS: Era[] = ["legacy", "auto"];

for (const era of ERAS) {
  Deno.test(`serve (${era}): tools, resources, prompts and completion of the demo server pass through`, async () => {
    const host = await stdioHost(["@demo"], { era });
    try {
      const client = host.client;
      assert.equal(client.getServerVersion()?.name, "jn-demo");
      assert.equal(client.getInstructions()?.startsWith("A demo server embedded in jn."), true);
      const tools = await client.listTools();
      const add = tools.tools.find((tool) => tool.name === "add");
      assert.ok(add?.outputSchema, "the tool's outputSchema passes through");
      const result = await client.callTool({ name: "add", arguments: { a: 2, b: 40 } });
      assert.deepEqual(result.structuredContent, { sum: 42 });
      assert.deepEqual(result.content, [{ type: "text", text: '{"sum":42}' }]);
      const failed = await client.callTool({ name: "fail", arguments: { message: "no" } });
      assert.equal(failed.isError, true);
      const image = await client.callTool({ name: "tiny_image", arguments: {} });
      assert.equal((image.content as { type: string }[])[0].type, "image");

      const resources = await client.listResources();
      assert.ok(resources.resources.some((r) => r.uri === "demo://readme"));
      const templates = await client.listResourceTemplates();
      assert.deepEqual(templates.resourceTemplates.map((t) => t.uriTemplate), [
        "demo://items/{id}",
      ]);
      const readme = await client.readResource({ uri: "demo://readme" });
      assert.match(String((readme.contents[0] as { text: string }).text), /demo/i);
      const item = await client.readResource({ uri: "demo://items/7" });
      assert.equal(JSON.parse(String((item.contents[0] as { text: string }).text)).id, 7);
      await assert.rejects(client.readResource({ uri: "demo://items/0" }), /positive integer/);

      const prompts = await client.listPrompts();
      assert.deepEqual(prompts.prompts.map((p) => p.name), ["summarize"]);
      const prompt = await client.getPrompt({ name: "summarize", arguments: { topic: "MCP" } });
      assert.match(JSON.stringify(prompt.messages), /MCP/);
      const completion = await client.complete({
        ref: { type: "ref/prompt", name: "summarize" },
        argument: { name: "topic", value: "MCP" },
      });
      assert.deepEqual(completion.completion.values, ["MCP", "MCP sampling"]);
      const ids = await client.complete({
        ref: { type: "ref/resource", uri: "demo://items/{id}" },
        argument: { name: "id", value: "" },
      });
      assert.deepEqual(ids.completion.values, ["1", "2", "3"]);
    } finally {
      await host.close();
    }
  });

  Deno.test(`serve (${era}): the host's progress token gets the server's progress, and log messages pass`, async () => {
    const logs: unknown[] = [];
    const host = await stdioHost(["@demo"], {
      era,
      setup: (client) =>
        client.setNotificationHandler("notifications/message", (n) => void logs.push(n.params)),
    });
    try {
      if (era === "legacy") await host.client.setLoggingLevel("info");
      // What reaches the host, in the order it arrives (the SDK client itself drops a progress
      // notification it reads together with its response, as under load it may be).
      const wire: { method?: string; id?: unknown; params?: Record<string, unknown> }[] = [];
      const onmessage = host.transport.onmessage!;
      host.transport.onmessage = (message) => {
        wire.push(message as (typeof wire)[number]);
        onmessage.call(host.transport, message);
      };
      const result = await host.client.callTool(
        { name: "slow_count", arguments: { steps: 3, delay_ms: 5 } },
        { onprogress: () => {} },
      );
      assert.deepEqual(result.content, [{ type: "text", text: "Counted to 3" }]);
      const answered = wire.findIndex((message) => message.id !== undefined);
      const progress = wire.slice(0, answered)
        .filter((message) => message.method === "notifications/progress")
        .map((message) => message.params!);
      // The server's last progress may follow its response upstream: steps 1 and 2 always pass.
      assert.deepEqual(progress.slice(0, 2).map((p) => p.progress), [1, 2]);
      assert.equal(progress[1].message, "Step 2");
      assert.ok(progress.every((p) => p.progressToken !== undefined), "the host's own token");
      if (era === "legacy") {
        await eventually(() => logs.length >= 3, "three log messages");
        assert.deepEqual(logs[0], { level: "info", logger: "slow_count", data: "Step 1 of 3" });
      }
    } finally {
      await host.close();
    }
  });

  Deno.test(`serve (${era}): a host's subscription gets the resource's updates`, async () => {
    const updates: string[] = [];
    const host = await stdioHost(["@demo"], {
      era,
      setup: (client) =>
        client.setNotificationHandler(
          "notifications/resources/updated",
          (n) => void updates.push(n.params.uri),
        ),
    });
    try {
      // The ticker starts ticking once read (the demo's rule in the 2026-07-28 era).
      await host.client.readResource({ uri: "demo://ticker" });
      if (era === "legacy") {
        await host.client.subscribeResource({ uri: "demo://ticker" });
        await eventually(() => updates.length >= 1, "an update of demo://ticker", 5000);
        await host.client.unsubscribeResource({ uri: "demo://ticker" });
      } else {
        const listen = await host.client.listen({ resourceSubscriptions: ["demo://ticker"] });
        await eventually(() => updates.length >= 1, "an update of demo://ticker", 5000);
        await listen.close();
      }
      assert.equal(updates[0], "demo://ticker");
    } finally {
      await host.close();
    }
  });
}

Deno.test("serve: every progress notification goes out with the host's token, before the answer", async () => {
  const host = rawHost(["@demo"]);
  try {
    await host.handshake();
    for (let id = 1; id <= 5; id++) {
      await host.write({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: {
          name: "slow_count",
          arguments: { steps: 3, delay_ms: 1 },
          _meta: { progressToken: `host-${id}` },
        },
      });
      await host.response(id);
    }
    // deno-lint-ignore no-explicit-any
    const seen = host.lines().map((line): any => JSON.parse(line))
      .filter((m) =>
        m.method === "notifications/progress" || (typeof m.id === "number" && m.id > 0)
      )
      .map((m) => m.method ? `${m.params.progressToken}:${m.params.progress}` : `answer ${m.id}`);
    const expected = [1, 2, 3, 4, 5].flatMap((id) => [
      `host-${id}:1`,
      `host-${id}:2`,
      `host-${id}:3`,
      `answer ${id}`,
    ]);
    assert.deepEqual(seen, expected);
  } finally {
    await host.endInput();
    await host.exited();
  }
});

Deno.test("serve: a JSON-RPC error of the server reaches the host with its code, message and data", async () => {
  const host = await stdioHost([fixtureUri("fixture.mjs")]);
  try {
    const error = await host.client.callTool({ name: "rpc_error", arguments: { message: "nope" } })
      .then(() => undefined, (e) => e);
    assert.equal(error?.code, -32000);
    assert.equal(error?.message, "nope");
    assert.deepEqual(error?.data, { reason: "requested", tool: "rpc_error" });
    const unknown = await host.client.callTool({ name: "no_such_tool", arguments: {} })
      .then(() => undefined, (e) => e);
    assert.equal(unknown?.code, -32602);
    assert.match(unknown?.message, /Unknown tool: no_such_tool/);
  } finally {
    await host.close();
  }
});

Deno.test("serve: the host's cancellation cancels the server's request", async () => {
  const { dir, pidFile } = await treeFiles();
  const host = await stdioHost([fixtureUri("hostile.mjs", ["--tree", pidFile])]);
  try {
    const abort = new AbortController();
    const call = host.client.callTool({ name: "hang", arguments: {} }, { signal: abort.signal });
    await waitForFile(`${pidFile}.call`);
    abort.abort("the user changed their mind");
    await assert.rejects(call);
    await waitForFile(`${pidFile}.cancelled`);
    // The server still answers.
    const answer = await host.client.callTool({ name: "echo", arguments: { text: "after" } });
    assert.match(JSON.stringify(answer.content), /after/);
  } finally {
    await host.close();
    await endTree(pidFile);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("serve: a changed tool list reaches the host, listed again", async () => {
  let changes = 0;
  const host = await stdioHost([fixtureUri("changer.mjs", ["--max", "2"])], {
    setup: (client) =>
      client.setNotificationHandler("notifications/tools/list_changed", () => void changes++),
  });
  try {
    const first = await host.client.listTools();
    assert.deepEqual(first.tools.map((t) => t.name), ["tool1"]);
    await eventually(() => changes >= 1, "notifications/tools/list_changed");
    const second = await host.client.listTools();
    assert.deepEqual(second.tools.map((t) => t.name), ["tool1", "tool2"]);
  } finally {
    await host.close();
  }
});
