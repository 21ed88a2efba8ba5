/**
 * `serve` over Streamable HTTP: who may talk to it (Host and Origin against
 * DNS rebinding, a bearer token compared in constant time, required off
 * loopback), what it refuses unread (a huge body, a wrong media type,
 * malformed JSON), one upstream connection per host session, and idle
 * sessions ended with their servers.
 *
 * @module
 */

import assert from "node:assert/strict";
import { UsageError } from "../../lib/errors.ts";
import { endTree, readTree, survivors, treeFiles } from "../session/tree_support.ts";
import { fixtureUri, httpHost, httpServe, INITIALIZE, post, rawPost } from "./support.ts";

Deno.test("serve --http: Host, Origin and the token are checked before anything is read", async () => {
  const served = await httpServe(["@demo"], { http: { port: 0, token: "s3cret-token" } });
  const url = served.url!;
  const bearer = { authorization: "Bearer s3cret-token" };
  try {
    const rebinding = await rawPost(url, INITIALIZE, { ...bearer, host: "attacker.example:80" });
    assert.equal(rebinding.status, 403);
    assert.doesNotMatch(rebinding.text, /attacker/, "nothing the request sent is repeated");
    const loopback = await rawPost(url, INITIALIZE, {
      ...bearer,
      host: `localhost:${served.address!.port}`,
    });
    assert.equal(loopback.status, 200);
    const origin = await post(url, INITIALIZE, { ...bearer, origin: "https://evil.example" });
    assert.equal(origin.status, 403);
    await origin.body?.cancel();
    const opaque = await post(url, INITIALIZE, { ...bearer, origin: "null" });
    assert.equal(opaque.status, 403);
    await opaque.body?.cancel();
    const none = await post(url, INITIALIZE);
    assert.equal(none.status, 401);
    assert.equal(none.headers.get("www-authenticate"), 'Bearer realm="jn serve"');
    await none.body?.cancel();
    const wrong = await post(url, INITIALIZE, { authorization: "Bearer s3cret-tokeN" });
    assert.equal(wrong.status, 401);
    await wrong.body?.cancel();
    const local = await post(url, INITIALIZE, { ...bearer, origin: "http://localhost:3000" });
    assert.equal(local.status, 200);
    await local.body?.cancel();
  } finally {
    await served.close();
  }
});

Deno.test("serve --http: a non-loopback address needs a token; with one, Host must be an address", async () => {
  await assert.rejects(
    httpServe(["@demo"], { http: { host: "0.0.0.0", port: 0 } }),
    (error: Error) => error instanceof UsageError && /needs a bearer token/.test(error.message),
  );
  const served = await httpServe(["@demo"], {
    http: { host: "0.0.0.0", port: 0, token: "t0ken-value" },
  });
  try {
    const port = served.address!.port;
    const byAddress = await rawPost(`http://127.0.0.1:${port}/mcp`, INITIALIZE, {
      authorization: "Bearer t0ken-value",
      host: `10.1.2.3:${port}`,
    });
    assert.equal(byAddress.status, 200);
    const byName = await rawPost(`http://127.0.0.1:${port}/mcp`, INITIALIZE, {
      authorization: "Bearer t0ken-value",
      host: `rebound.example:${port}`,
    });
    assert.equal(byName.status, 403);
  } finally {
    await served.close();
  }
});

Deno.test("serve --http: malformed, oversized, mistyped and sessionless requests are refused", async () => {
  const served = await httpServe(["@demo"]);
  const url = served.url!;
  try {
    const parse = await post(url, "{not json");
    assert.equal(parse.status, 400);
    assert.equal((await parse.json()).error.code, -32700);
    const huge = await post(url, `{"x":"${"a".repeat(5 * 1024 * 1024)}"}`);
    assert.equal(huge.status, 413);
    await huge.body?.cancel();
    const text = await fetch(url, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "x",
    });
    assert.equal(text.status, 415);
    await text.body?.cancel();
    const nosession = await post(url, { jsonrpc: "2.0", id: 2, method: "tools/list" });
    assert.equal(nosession.status, 400);
    await nosession.body?.cancel();
    const unknown = await post(url, { jsonrpc: "2.0", id: 2, method: "tools/list" }, {
      "mcp-session-id": "no-such-session",
    });
    assert.equal(unknown.status, 404);
    await unknown.body?.cancel();
    const elsewhere = await post(url.replace("/mcp", "/other"), INITIALIZE);
    assert.equal(elsewhere.status, 404);
    await elsewhere.body?.cancel();
  } finally {
    await served.close();
  }
});

Deno.test("serve --http: each host session gets its own upstream connection", async () => {
  let launches = 0;
  const served = await httpServe(["@demo"], {
    events: { source: () => ({ onPrepared: () => void launches++ }) },
  });
  try {
    const first = await httpHost(served.url!);
    const second = await httpHost(served.url!);
    await first.client.callTool({ name: "add", arguments: { a: 1, b: 1 } });
    await second.client.callTool({ name: "add", arguments: { a: 1, b: 1 } });
    assert.equal(launches, 2);
    await first.close();
    await second.close();
  } finally {
    await served.close();
  }
});

Deno.test("serve --http: an idle session is ended with its server", async () => {
  const { dir, pidFile } = await treeFiles();
  const served = await httpServe([fixtureUri("hostile.mjs", ["--tree", pidFile])], {
    http: { port: 0, idleMs: 500 },
  });
  try {
    const host = await httpHost(served.url!);
    await host.client.callTool({ name: "echo", arguments: { text: "x" } });
    const tree = await readTree(pidFile);
    const sessionId = host.transport.sessionId!;
    // Nothing touches the session now: its server goes with it.
    assert.deepEqual(await survivors(tree, ["server", "grandchild"], 10_000), []);
    const response = await post(served.url!, { jsonrpc: "2.0", id: 9, method: "ping" }, {
      "mcp-session-id": sessionId,
      "mcp-protocol-version": "2025-11-25",
    });
    await response.body?.cancel();
    assert.equal(response.status, 404);
    await host.client.close();
  } finally {
    await served.close();
    await endTree(pidFile);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("serve --http: a host that ends its session (DELETE) ends its servers", async () => {
  const { dir, pidFile } = await treeFiles();
  const served = await httpServe([fixtureUri("hostile.mjs", ["--tree", pidFile])]);
  try {
    const host = await httpHost(served.url!);
    await host.client.callTool({ name: "echo", arguments: { text: "x" } });
    const tree = await readTree(pidFile);
    await host.close();
    assert.deepEqual(await survivors(tree, ["server", "grandchild"]), []);
  } finally {
    await served.close();
    await endTree(pidFile);
    await Deno.remove(dir, { recursive: true });
  }
});
