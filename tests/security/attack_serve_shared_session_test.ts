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
 * A 2025 server's question says nothing of the request it serves (over
 * stdio there is no related-request id), so with requests of two hosts in
 * flight on the source jn cannot tell whose it is: it declines it (the
 * server gets an error naming why) rather than guess. The red team's first
 * version expected the victim to be answered; no rule can tell that from
 * the wire, so the test now expects the refusal, and a control shows a
 * host alone on the source answered as before.
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
    assert.doesNotMatch(text, /attacker's answer/, `the victim's call was answered by: ${text}`);
    assert.match(
      text,
      /jn serve declined sampling\/createMessage: requests of several hosts/,
      text,
    );
    assert.deepEqual(victimAsked, [], "a question that cannot be tied is asked of no host");
  } finally {
    stop.abort();
    await attacker.close();
    await victim.close();
    await served.close();
  }
});

Deno.test("control: a 2026-07-28 host alone on the source is asked its call's question", async () => {
  const served = await httpServe([fixtureUri("asker.mjs")]);
  const asked: string[] = [];
  const host = await httpHost(served.url!, {
    era: "auto",
    capabilities: CAPS,
    setup: recording(asked, "the host's answer"),
  });
  try {
    const result = await host.client.callTool({
      name: "later_sample",
      arguments: { ms: 10, text: "the host's own conversation" },
    });
    assert.match(JSON.stringify(result), /the host's answer/);
    assert.deepEqual(asked, ["the host's own conversation"]);
  } finally {
    await host.close();
    await served.close();
  }
});
