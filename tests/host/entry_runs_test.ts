/**
 * The entry `jn host add` writes works as the host runs it: its `command`
 * and `args`, read back from the host's file, started by the official SDK
 * client over stdio the way a host starts a server (the host's own
 * environment: HOME, nothing of the test's), serve the profile.
 *
 * @module
 */

import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { parseJsonc } from "../../lib/profile/load.ts";
import { DENO_DIR } from "../helpers.ts";
import { hostBox, PLACES } from "./support.ts";

Deno.test("jn host add claude-code @demo: the entry it writes serves @demo to a host", async () => {
  const box = await hostBox();
  try {
    const added = await box.run(["host", "add", "claude-code", "@demo"]);
    assert.equal(added.code, 0, added.stderr);
    const file = box.at(PLACES["claude-code"].user[0]);
    const config = parseJsonc(await Deno.readTextFile(file), file).value as {
      mcpServers: Record<string, { type: string; command: string; args: string[] }>;
    };
    const entry = config.mcpServers.demo;
    assert.equal(entry.type, "stdio");
    const transport = new StdioClientTransport({
      command: entry.command,
      args: entry.args,
      // What a host gives its servers; DENO_DIR only so that Deno finds its cache under this HOME.
      env: { HOME: box.home, PATH: "/usr/bin:/bin", DENO_DIR },
      cwd: box.root,
      stderr: "pipe",
    });
    const client = new Client({ name: "claude-code", version: "2.1.4" });
    await client.connect(transport);
    try {
      const tools = (await client.listTools()).tools.map((tool) => tool.name);
      assert.ok(tools.includes("add"), tools.join(" "));
      const sum = await client.callTool({ name: "add", arguments: { a: 2, b: 40 } });
      assert.deepEqual(sum.structuredContent, { sum: 42 });
    } finally {
      await client.close();
    }
  } finally {
    await box.dispose();
  }
});
