/**
 * Attack on `jn serve --http` with hosts of the 2026-07-28 era, whose
 * requests "share one downstream session" (docs/serve.md, "HTTP"): a 2025
 * server's question (a `sampling/createMessage` carrying what it was asked
 * about) goes "with the host request it serves (the latest one in flight
 * on that source)" (docs/serve.md, lib/serve/hub.ts `#ask`). With two hosts
 * on the port, the latest request in flight on the source may be another
 * host's: every host on the port is untrusted, and one that keeps a call
 * in flight receives the other host's questions, and answers them.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { Client } from "@modelcontextprotocol/client";
import { fixtureUri, httpHost, httpServe } from "../serve/support.ts";

const CAPS = { sampling: {} };

/** A host's sampling handler that records what it is asked. */
function recording(asked: string[], answer: string) {
  return (client: Client) =>
    client.setRequestHandler("sampling/createMessage", (request) => {
      asked.push(String((request.params.messages[0].content as { text?: string }).text));
      return { role: "assistant", content: { type: "text", text: answer }, model: "m" };
    });
}

Deno.test("attack: a 2026-07-28 host on serve --http receives another host's sampling request", async () => {
  const served = await httpServe([fixtureUri("asker.mjs")]);
  const victimAsked: string[] = [];
  const attackerAsked: string[] = [];
  const victim = await httpHost(served.url!, {
    era: "auto",
    capabilities: CAPS,
    setup: recording(victimAsked, "victim's answer"),
  });
  const attacker = await httpHost(served.url!, {
    era: "auto",
    capabilities: CAPS,
    setup: recording(attackerAsked, "attacker's answer"),
  });
  const stop = new AbortController();
  try {
    assert.equal(victim.client.getNegotiatedProtocolVersion(), "2026-07-28");
    const call = victim.client.callTool({
      name: "later_sample",
      arguments: { ms: 1500, text: "the victim's private conversation" },
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The attacker keeps a call of its own in flight on the same source.
    const held = attacker.client.callTool(
      { name: "later_sample", arguments: { ms: 60_000, text: "attacker" } },
      { signal: stop.signal, timeout: 120_000 },
    ).catch(() => undefined);
    const result = await call;
    const text = JSON.stringify(result);
    stop.abort();
    await held;
    assert.deepEqual(attackerAsked, [], "the attacker was asked the victim's question");
    assert.match(text, /victim's answer/, `the victim's call was answered by: ${text}`);
  } finally {
    stop.abort();
    await attacker.close();
    await victim.close();
    await served.close();
  }
});
