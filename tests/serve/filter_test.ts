/**
 * The seam of curation and pinning: before the host sees a source's tools,
 * serve asks the filter (`(conn, tools) => {offered, withheld}`); a withheld
 * tool is not listed, its call is refused with the reason and never reaches
 * the server, the host is told in a log message, and the filter runs again
 * when the server's list changes. A filter of the caller's own is the
 * library's seam (serve() in this process); what the CLI serves by default
 * (curation and pinning) is tested through `jn serve` in pinning_test.ts.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { ToolFilter, WithheldTool } from "../../lib/client/serve.ts";
import { eventually, fixtureUri, httpHost, httpServe, stdioHost } from "./support.ts";

Deno.test("serve: a tool the filter withholds is not listed and its call is refused", async () => {
  const dir = await Deno.makeTempDir();
  const log = `${dir}/calls.ndjson`;
  const seen: string[][] = [];
  const withheld: WithheldTool[][] = [];
  const filter: ToolFilter = (conn, tools) => {
    seen.push([conn.target.name, ...tools.map((tool) => tool.name)]);
    return {
      offered: tools.filter((tool) => tool.name !== "env"),
      withheld: [{ name: "env", reason: "its description changed: run jn profile diff" }],
    };
  };
  const served = await httpServe([fixtureUri("fixture.mjs", ["--call-log", log])], {
    filter,
    events: { onWithheld: (_source, tools) => void withheld.push(tools) },
  });
  const messages: unknown[] = [];
  const host = await httpHost(served.url!, {
    setup: (client) =>
      client.setNotificationHandler("notifications/message", (n) => void messages.push(n.params)),
  });
  try {
    const names = (await host.client.listTools()).tools.map((tool) => tool.name);
    assert.ok(names.includes("echo") && !names.includes("env"), names.join(" "));
    assert.equal(seen.length, 1);
    assert.ok(seen[0].includes("env"), "the filter sees every tool the server lists");
    const refused = await host.client.callTool({ name: "env", arguments: {} }).catch((e) => e);
    assert.equal(refused?.code, -32602);
    assert.equal(
      refused?.message,
      'The tool "env" is withheld by jn: its description changed: run jn profile diff',
    );
    await host.client.callTool({ name: "echo", arguments: { text: "ok" } });
    const calls = (await Deno.readTextFile(log)).trim().split("\n").map((l) => JSON.parse(l).name);
    assert.deepEqual(calls, ["echo"], "the withheld call never reached the server");
    assert.deepEqual(withheld, [[{
      name: "env",
      reason: "its description changed: run jn profile diff",
    }]]);
    await eventually(() => messages.length > 0, "the host's log message");
    assert.deepEqual(messages[0], {
      level: "warning",
      logger: "jn",
      data:
        'jn withholds the tool "env" of "fixture": its description changed: run jn profile diff',
    });
  } finally {
    await host.close();
    await served.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("serve: the filter runs again on the server's list change, before the host is told", async () => {
  let runs = 0;
  const filter: ToolFilter = (_conn, tools) => {
    runs++;
    return {
      offered: tools.filter((tool) => tool.name !== "tool2"),
      withheld: tools.filter((tool) => tool.name === "tool2").map((tool) => ({
        name: tool.name,
        reason: "not in the snapshot",
      })),
    };
  };
  const served = await httpServe([fixtureUri("changer.mjs", ["--max", "2"])], { filter });
  let changes = 0;
  const host = await httpHost(served.url!, {
    setup: (client) =>
      client.setNotificationHandler("notifications/tools/list_changed", () => void changes++),
  });
  try {
    assert.deepEqual((await host.client.listTools()).tools.map((t) => t.name), ["tool1"]);
    await eventually(() => changes === 1, "notifications/tools/list_changed");
    assert.equal(runs, 2, "filtered again before the host was told");
    assert.deepEqual((await host.client.listTools()).tools.map((t) => t.name), ["tool1"]);
    const refused = await host.client.callTool({ name: "tool2", arguments: {} }).catch((e) => e);
    assert.match(String(refused?.message), /withheld by jn: not in the snapshot/);
  } finally {
    await host.close();
    await served.close();
  }
});

Deno.test("jn serve: a naked URI is served unpinned, saying so once", async () => {
  const host = await stdioHost([fixtureUri("fixture.mjs")]);
  try {
    assert.ok((await host.client.listTools()).tools.some((tool) => tool.name === "env"));
    await host.client.listTools();
    await eventually(() => /nothing is pinned/.test(host.stderr()), "the note");
    const notes = host.stderr().match(/nothing is pinned \(a URI has no snapshot\)[^\n]*/g) ?? [];
    assert.equal(notes.length, 1, host.stderr());
    assert.match(notes[0], /jn profile create NAME --from "mcp\+node:\/\/[^"]*fixture\.mjs"/);
  } finally {
    await host.close();
  }
});

Deno.test("serve: an offered alias calls the server's tool with its fixed arguments", async () => {
  const dir = await Deno.makeTempDir();
  const log = `${dir}/calls.ndjson`;
  const filter: ToolFilter = (_conn, tools) => {
    const echo = tools.find((tool) => tool.name === "echo")!;
    return {
      offered: [{ ...echo, name: "shout", description: "Echoes, loudly by default" }],
      withheld: [],
      aliases: { shout: { tool: "echo", defaults: { text: "HELLO", volume: 11 } } },
    };
  };
  const served = await httpServe([fixtureUri("fixture.mjs", ["--call-log", log])], { filter });
  const host = await httpHost(served.url!);
  try {
    const tools = (await host.client.listTools()).tools;
    assert.deepEqual(tools.map((tool) => [tool.name, tool.description]), [
      ["shout", "Echoes, loudly by default"],
    ]);
    const result = await host.client.callTool({ name: "shout", arguments: {} });
    assert.deepEqual(result.content, [{ type: "text", text: '{"text":"HELLO","volume":11}' }]);
    // The profile fixes them: a host cannot change them.
    const fixed = await host.client.callTool({ name: "shout", arguments: { text: "hi" } })
      .catch((e) => e);
    assert.match(String(fixed?.message), /takes no text: its profile fixes it/);
    const refused = await host.client.callTool({ name: "echo", arguments: {} }).catch((e) => e);
    assert.match(String(refused?.message), /Unknown tool: echo/);
    const calls = (await Deno.readTextFile(log)).trim().split("\n").map((l) => JSON.parse(l));
    assert.deepEqual(calls.map((c) => c.name), ["echo"]);
  } finally {
    await host.close();
    await served.close();
    await Deno.remove(dir, { recursive: true });
  }
});
