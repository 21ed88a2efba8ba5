/**
 * Attacks on what `jn serve` prints on the user's terminal (stderr): every
 * line of it is jn's, one event each, server text made visible on one line
 * (docs/serve.md, "Threat model: Terminal"; docs/output.md: names stay on one
 * line). A server chooses its tool names; a newline in one must not start a
 * line that reads as jn's own.
 *
 * @module
 */

import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { fixtureProfile } from "../drift/setup.ts";
import { baseEnv, jnArgs } from "../helpers.ts";
import { sandbox } from "../profile/sandbox.ts";
import { eventually } from "../serve/support.ts";

Deno.test("attack: a withheld tool's name with a newline forges a line on jn serve's stderr", async () => {
  const box = await sandbox();
  try {
    await fixtureProfile(box, "v1");
    const transport = new StdioClientTransport({
      command: Deno.execPath(),
      args: jnArgs(["serve", "@fx"]),
      env: { ...baseEnv(), HOME: box.home, FIXTURE_SCHEMA: "v2-newline-name" },
      cwd: box.project,
      stderr: "pipe",
    });
    let stderr = "";
    const decoder = new TextDecoder();
    transport.stderr?.on("data", (chunk: Uint8Array) => stderr += decoder.decode(chunk));
    const client = new Client({ name: "host", version: "1" }, { capabilities: {} });
    await client.connect(transport);
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      assert.ok(!names.some((name) => name.startsWith("article_get")), "the new tool is withheld");
      await eventually(() => /withholds/.test(stderr), "the withheld line");
    } finally {
      await client.close();
    }
    assert.doesNotMatch(
      stderr,
      /^jn: serving fx at/m,
      `a server's tool name started a line of its own:\n${stderr}`,
    );
  } finally {
    await box.dispose();
  }
});

Deno.test("attack: a new tool's name with a newline forges a line in jn cat's drift warning", async () => {
  const box = await sandbox();
  try {
    await fixtureProfile(box, "v1");
    const run = await box.run(["cat", "@fx?tool=search&gene=BRAF"], {
      env: { FIXTURE_SCHEMA: "v2-newline-name" },
    });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /schema of @fx has changed/, "the drift warning is printed");
    assert.doesNotMatch(
      run.stderr,
      /^jn: serving fx at/m,
      `a server's tool name started a line of its own:\n${run.stderr}`,
    );
  } finally {
    await box.dispose();
  }
});
