/**
 * The reference server-everything (installed under ~/.cache/jn-tests by the
 * test setup) behind serve, as a host uses it: its tools, resources and
 * prompts, and its requests to the host — sampling, elicitation and roots.
 * Ignored, saying why, when npm cannot install it.
 *
 * @module
 */

import assert from "node:assert/strict";
import { serverEverything } from "../remote/support.ts";
import { stdioHost } from "./support.ts";

const EVERYTHING = await serverEverything();

Deno.test({
  name:
    "serve: server-everything's tools, resources, prompts and requests to the host pass through",
  ignore: EVERYTHING === undefined,
  async fn() {
    const host = await stdioHost([`mcp+node://${EVERYTHING}`], {
      capabilities: { sampling: {}, elicitation: { form: {} }, roots: {} },
      setup: (client) => {
        client.setRequestHandler("sampling/createMessage", () => ({
          role: "assistant",
          content: { type: "text", text: "pong from the host" },
          model: "host-model",
        }));
        client.setRequestHandler("elicitation/create", () => ({
          action: "accept",
          content: { name: "Ada" },
        }));
        client.setRequestHandler("roots/list", () => ({
          roots: [{ uri: "file:///host/root", name: "host-root" }],
        }));
      },
    });
    try {
      const client = host.client;
      assert.equal(client.getServerVersion()?.name, "mcp-servers/everything");
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      for (const name of ["echo", "get-sum", "trigger-sampling-request", "get-roots-list"]) {
        assert.ok(names.includes(name), names.join(" "));
      }
      const sum = await client.callTool({ name: "get-sum", arguments: { a: 2, b: 3 } });
      assert.match(JSON.stringify(sum.content), /5/);
      const sampled = await client.callTool({
        name: "trigger-sampling-request",
        arguments: { prompt: "ping" },
      });
      assert.match(JSON.stringify(sampled.content), /pong from the host/);
      const roots = await client.callTool({ name: "get-roots-list", arguments: {} });
      assert.match(JSON.stringify(roots.content), /host-root/);
      const elicited = await client.callTool({
        name: "trigger-elicitation-request",
        arguments: {},
      });
      assert.match(JSON.stringify(elicited.content), /Ada/);
      const resources = await client.listResources();
      assert.ok(resources.resources.length > 0);
      const first = await client.readResource({ uri: resources.resources[0].uri });
      assert.ok(first.contents.length > 0);
      const prompts = (await client.listPrompts()).prompts.map((prompt) => prompt.name);
      assert.ok(prompts.includes("simple-prompt"), prompts.join(" "));
    } finally {
      await host.close();
    }
  },
});
