/**
 * A server's requests to its client go to the host, whichever era each
 * side speaks: sampling, elicitation and roots, offered to the server only
 * when the host offers them. A 2025 server's request reaches a 2025 host as
 * a request, and a 2026-07-28 host as an `input_required` round (the bridge);
 * a 2026-07-28 server's `input_required` reaches a 2026-07-28 host as it is,
 * and a 2025 host as requests (the SDK's shim).
 *
 * @module
 */

import assert from "node:assert/strict";
import type { Client } from "@modelcontextprotocol/client";
import { FIXTURES } from "../helpers.ts";
import { type Era, eventually, fixtureUri, stdioHost } from "./support.ts";

const ASKER = fixtureUri("asker.mjs");
const SAMPLER = `mcp+deno://${FIXTURES}/servers/sampler.ts`;

/** A host that can do everything, answering from fixed values. */
function answering(client: Client): void {
  client.setRequestHandler("sampling/createMessage", (request) => ({
    role: "assistant",
    content: {
      type: "text",
      text: `host saw: ${
        JSON.stringify((request.params.messages[0].content as { text?: string }).text)
      }`,
    },
    model: "host-model",
  }));
  client.setRequestHandler("elicitation/create", (request) => ({
    action: "accept",
    content: { name: `answer to ${request.params.message}` },
  }));
  client.setRequestHandler("roots/list", () => ({
    roots: [{ uri: "file:///host/project", name: "project" }],
  }));
}

const EVERYTHING_CAPS = { sampling: {}, elicitation: { form: {} }, roots: { listChanged: true } };

const answerOf = (result: { content: unknown }) =>
  JSON.parse((result.content as { text: string }[])[0].text);

for (const era of ["legacy", "auto"] as Era[]) {
  Deno.test(`serve (${era} host, 2025 server): sampling, elicitation and roots reach the host`, async () => {
    const host = await stdioHost([ASKER], { era, capabilities: EVERYTHING_CAPS, setup: answering });
    try {
      // A 2026-07-28 host has no server→client requests: the bridge asks it in input_required rounds.
      assert.equal(
        host.client.getNegotiatedProtocolVersion(),
        era === "auto" ? "2026-07-28" : "2025-11-25",
      );
      const offered = answerOf(await host.client.callTool({ name: "capabilities", arguments: {} }));
      assert.deepEqual(Object.keys(offered).sort(), ["elicitation", "roots", "sampling"]);
      const sample = answerOf(await host.client.callTool({ name: "ask_sample", arguments: {} }));
      assert.equal(sample.result.content.text, 'host saw: "Say hi"');
      assert.equal(sample.result.model, "host-model");
      const form = answerOf(await host.client.callTool({ name: "ask_form", arguments: {} }));
      assert.deepEqual(form.result, {
        action: "accept",
        content: { name: "answer to Who are you?" },
      });
      const roots = answerOf(await host.client.callTool({ name: "ask_roots", arguments: {} }));
      assert.deepEqual(roots.result.roots, [{ uri: "file:///host/project", name: "project" }]);
    } finally {
      await host.close();
    }
  });

  Deno.test(`serve (${era} host, 2026-07-28 server): input_required reaches the host`, async () => {
    // Pinned: with "auto", a 2025 host's servers are spoken to in 2025.
    const host = await stdioHost(["--protocol", "2026-07-28", SAMPLER], {
      era,
      capabilities: EVERYTHING_CAPS,
      setup: answering,
    });
    try {
      const result = await host.client.callTool({ name: "ask", arguments: { question: "why?" } });
      const text = (result.content as { text: string }[])[0].text;
      assert.ok(text.startsWith("modern: "), text);
      const answer = JSON.parse(text.slice("modern: ".length));
      assert.equal(answer.content.text, 'host saw: "why?"');
    } finally {
      await host.close();
    }
  });
}

Deno.test("serve: a host that offers nothing offers the server nothing", async () => {
  const host = await stdioHost([ASKER]);
  try {
    const offered = answerOf(await host.client.callTool({ name: "capabilities", arguments: {} }));
    assert.deepEqual(offered, {});
    const sample = answerOf(await host.client.callTool({ name: "ask_sample", arguments: {} }));
    assert.ok(sample.error, JSON.stringify(sample));
  } finally {
    await host.close();
  }
});

Deno.test("serve (2025 host, a server of both eras): the server is spoken to in 2025, its request reaches the host", async () => {
  const host = await stdioHost([SAMPLER], {
    capabilities: EVERYTHING_CAPS,
    setup: answering,
  });
  try {
    const result = await host.client.callTool({ name: "ask", arguments: { question: "how?" } });
    const text = (result.content as { text: string }[])[0].text;
    assert.ok(text.startsWith("legacy: "), text);
    assert.equal(JSON.parse(text.slice("legacy: ".length)).content.text, 'host saw: "how?"');
  } finally {
    await host.close();
  }
});

Deno.test("serve: the host's roots/list_changed reaches the server", async () => {
  const host = await stdioHost([ASKER], { capabilities: EVERYTHING_CAPS, setup: answering });
  try {
    const before = answerOf(await host.client.callTool({ name: "roots_changes", arguments: {} }));
    assert.equal(before, 0);
    await host.client.sendRootsListChanged();
    await eventually(
      async () =>
        answerOf(await host.client.callTool({ name: "roots_changes", arguments: {} })) === 1,
      "the server to count the notification",
    );
  } finally {
    await host.close();
  }
});
