/**
 * Hostile peers on either side never crash serve, leak a process, or reach
 * a terminal raw. A hostile host writes raw bytes on stdin — lines that are
 * not JSON, JSON that is not JSON-RPC, answers to nothing, escape
 * sequences, deep nesting, a flood of requests, a line past the bound — or
 * floods the HTTP endpoint; the hostile fixture server behind serve sends
 * escapes everywhere, floods, nests deeply, answers garbage and dies
 * mid-answer. serve keeps answering (or ends cleanly), and what it writes
 * on stderr has every control character made visible.
 *
 * @module
 */

import assert from "node:assert/strict";
import { fixtureUri, httpServe, INITIALIZE, rawHost, stdioHost } from "./support.ts";

const HOSTILE = fixtureUri("hostile.mjs");
// deno-lint-ignore no-control-regex
const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f\u0080-\u009f]/;

const call = (id: number | string, name: string, args: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

Deno.test("serve: a hostile host's bytes on stdin never stop it from answering", async () => {
  const host = rawHost(["@demo"]);
  try {
    await host.handshake();
    await host.write("this is not json\n");
    await host.write('{"neither": "is this json-rpc"}\n[]\n123\nnull\n"text"\n');
    await host.write('{"jsonrpc":"2.0","id":77,"result":{"answer":"to nothing"}}\n');
    // Raw control characters in a JSON string make the line invalid JSON: skipped.
    await host.write(`{"jsonrpc":"2.0","id":"\x1b]0;raw\x07","method":"\x1b[2Jnope"}\n`);
    // Escaped ones are valid: an id and a method with escapes get their answer.
    await host.write({ jsonrpc: "2.0", id: "\x1b]0;pwned\x07", method: "\x1b[2Jnope" });
    await host.write(`${"[".repeat(200_000)}${"]".repeat(200_000)}\n`);
    await host.write(call(1, "echo", { text: `${"{".repeat(50_000)}` }));
    await host.write(
      `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":${
        "[".repeat(100_000)
      }${"]".repeat(100_000)}}}\n`,
    );
    await host.write(new Uint8Array([0xff, 0xfe, 0x00, 0x0a]));
    await host.write(call(3, "add", { a: 1, b: 2 }));
    const answer = await host.response(3);
    assert.deepEqual((answer.result as { structuredContent: unknown }).structuredContent, {
      sum: 3,
    });
    const odd = await host.response("\x1b]0;pwned\x07");
    assert.equal((odd.error as { code: number }).code, -32601);
    await host.endInput();
    assert.equal((await host.exited()).code, 0);
    assert.doesNotMatch(host.stderr(), RAW_CONTROL, "stderr carries no raw control character");
  } finally {
    await host.exited(1);
  }
});

Deno.test("serve: a flood of host requests is answered or refused, never dropped", async () => {
  const host = rawHost(["@demo"]);
  try {
    await host.handshake();
    const count = 600;
    let batch = "";
    for (let id = 1; id <= count; id++) {
      batch += `${JSON.stringify(call(id, "slow_count", { steps: 1, delay_ms: 200 }))}\n`;
    }
    await host.write(batch);
    let refused = 0;
    for (let id = 1; id <= count; id++) {
      const response = await host.response(id, 60_000);
      if (response.error) {
        refused++;
        assert.match(
          String((response.error as { message: string }).message),
          /too many requests in flight/,
        );
      }
    }
    assert.ok(refused > 0 && refused < count, `${refused} of ${count} refused`);
    await host.write(call("after", "add", { a: 2, b: 2 }));
    assert.ok((await host.response("after")).result);
  } finally {
    await host.endInput();
    await host.exited();
  }
});

Deno.test("serve: a line past the bound is dropped in linear time, and serving goes on", async () => {
  // --debug: what the host did wrong is said on stderr.
  const host = rawHost(["--debug", "@demo"]);
  try {
    await host.handshake();
    // 70 MiB without a newline (the bound is 64 MiB), then the line's end.
    const chunk = new TextEncoder().encode("x".repeat(1024 * 1024));
    for (let i = 0; i < 70; i++) await host.write(chunk);
    await host.write("\n");
    await host.write(call(1, "add", { a: 20, b: 22 }));
    const answer = await host.response(1, 60_000);
    assert.deepEqual((answer.result as { structuredContent: unknown }).structuredContent, {
      sum: 42,
    });
    assert.match(host.stderr(), /a message longer than \d+ bytes was dropped/);
  } finally {
    await host.endInput();
    await host.exited();
  }
});

Deno.test("serve: the hostile server's escapes, floods, deep nesting and garbage reach the host as errors or data", async () => {
  // --debug: the server's stderr is printed too (made visible).
  const host = await stdioHost(["--debug", HOSTILE]);
  try {
    const client = host.client;
    const chatty = await client.callTool({ name: "chatty", arguments: {} }, {
      onprogress: () => {},
    });
    assert.match(JSON.stringify(chatty.content), /chatty/);
    for (const name of ["deep_result", "null_result", "array_result"]) {
      const failed = await client.callTool({ name, arguments: { depth: 100_000 } }).catch((e) => e);
      assert.ok(failed instanceof Error, `${name} is an error to the host`);
    }
    const deep = await client.callTool({ name: "deep_notification", arguments: { depth: 100_000 } })
      .catch((e) => e);
    assert.ok(deep, "an answer or an error, not a hang");
    const noisy = await client.callTool({ name: "noise", arguments: {} });
    assert.match(JSON.stringify(noisy.content), /after noise/);
    const huge = await client.callTool({ name: "huge", arguments: { bytes: 3_000_000 } });
    assert.equal((huge.content as { text: string }[])[0].text.length, 3_000_000);
    const flooded = await client.callTool({ name: "request_flood", arguments: { count: 2000 } });
    assert.match(JSON.stringify(flooded.content), /2000/);
    const rpc = await client.callTool({ name: "rpc_error", arguments: {} }).catch((e) => e);
    assert.equal(rpc?.code, -32000);
    const abort = new AbortController();
    let progress = 0;
    const endless = client.callTool({ name: "flood", arguments: {} }, {
      signal: abort.signal,
      onprogress: () => {
        if (++progress === 200) abort.abort("enough");
      },
    });
    await assert.rejects(endless);
    const mid = await client.callTool({ name: "exit_mid", arguments: {} }).catch((e) => e);
    assert.ok(mid instanceof Error);
    const after = await client.callTool({ name: "echo", arguments: { text: "restarted" } });
    assert.match(JSON.stringify(after.content), /restarted/);
  } finally {
    await host.close();
  }
  assert.doesNotMatch(
    host.stderr(),
    RAW_CONTROL,
    "serve's stderr carries no raw control character",
  );
  assert.match(host.stderr(), /\\x1b\[31m/, "the server's escapes are shown, made visible");
});

Deno.test("serve --http: a flood of sessions is refused past the bound, and answered after", async () => {
  const served = await httpServe(["@demo"], { http: { port: 0, maxSessions: 3 } });
  try {
    const responses = await Promise.all(Array.from({ length: 12 }, () =>
      fetch(served.url!, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify(INITIALIZE),
      })));
    const statuses = responses.map((response) => response.status);
    await Promise.all(responses.map((response) => response.body?.cancel()));
    assert.equal(statuses.filter((status) => status === 200).length, 3, statuses.join(" "));
    assert.ok(statuses.every((status) => status === 200 || status === 503), statuses.join(" "));
  } finally {
    await served.close();
  }
});
