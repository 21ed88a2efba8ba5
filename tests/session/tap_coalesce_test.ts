/**
 * The tap coalesces repeated change notifications (lib/session/tap.ts): a
 * repeat of a change already handed over since jn's last request is dropped;
 * after a request, the next one is handed over again (nothing that could be
 * news is lost); other notifications pass untouched. Over an in-memory
 * transport: what the tap hands on is the observable.
 */
import assert from "node:assert/strict";
import type { Transport } from "@modelcontextprotocol/client";
import { TransportTap } from "../../lib/session/tap.ts";

type Message = Parameters<Transport["send"]>[0];

/** A transport whose incoming messages the test writes, and whose sends it ignores. */
function memoryTransport() {
  const transport: Transport = {
    start: () => Promise.resolve(),
    send: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
  return { transport, receive: (message: unknown) => transport.onmessage?.(message as Message) };
}

Deno.test("TransportTap hands on a change once per request, and everything else as it comes", async () => {
  const { transport, receive } = memoryTransport();
  const tap = new TransportTap(transport);
  const seen: string[] = [];
  tap.onmessage = (message) => {
    const { method, params } = message as { method?: string; params?: { uri?: string } };
    seen.push(params?.uri ? `${method} ${params.uri}` : String(method));
  };
  const updated = (uri: string) => ({
    jsonrpc: "2.0",
    method: "notifications/resources/updated",
    params: { uri },
  });
  const listChanged = { jsonrpc: "2.0", method: "notifications/tools/list_changed" };
  const log = { jsonrpc: "2.0", method: "notifications/message", params: { level: "info" } };
  for (let i = 0; i < 1000; i++) {
    receive(updated("a://1"));
    receive(updated("a://2"));
    receive(listChanged);
  }
  receive(log);
  receive(log);
  assert.deepEqual(seen, [
    "notifications/resources/updated a://1",
    "notifications/resources/updated a://2",
    "notifications/tools/list_changed",
    "notifications/message",
    "notifications/message",
  ]);
  seen.length = 0;
  await tap.send({ jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri: "a://1" } });
  receive(updated("a://1"));
  receive(updated("a://1"));
  receive(listChanged);
  assert.deepEqual(seen, [
    "notifications/resources/updated a://1",
    "notifications/tools/list_changed",
  ]);
});
