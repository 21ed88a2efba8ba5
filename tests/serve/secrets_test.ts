/**
 * What serve sends the host never carries a secret (a value substituted
 * from `${VAR}`, a credential header): tool descriptions, results, log
 * notifications, error messages and instructions are redacted, and so is
 * what serve writes on stderr — against escapes.mjs, which echoes its secret
 * in every way it can, and a remote server that echoes the headers it got.
 *
 * @module
 */

import assert from "node:assert/strict";
import { FIXTURES, tempDir } from "../helpers.ts";
import { startFixture } from "../remote/support.ts";
import { eventually, stdioHost } from "./support.ts";

const SECRET = 's3cr3t/"val+ue Z';

function assertNoSecret(text: string, where: string): void {
  for (const form of [SECRET, JSON.stringify(SECRET).slice(1, -1), encodeURIComponent(SECRET)]) {
    assert.ok(
      !text.includes(form),
      `${where} shows ${JSON.stringify(form)}:\n${text.slice(0, 2000)}`,
    );
  }
}

/** A HOME with user profiles `esc` (the secret in the server's env) and `echo` (in a header). */
async function withProfiles(
  remote: string,
  fn: (env: Record<string, string>) => Promise<void>,
): Promise<void> {
  const home = await tempDir();
  const profiles = `${home}/.local/jn/profiles/mcp`;
  try {
    await Deno.mkdir(`${profiles}/esc`, { recursive: true });
    await Deno.writeTextFile(
      `${profiles}/esc/_meta.json`,
      JSON.stringify({
        command: "node",
        args: [`${FIXTURES}/servers/escapes.mjs`],
        env: { ESCAPES_SECRET: "${JN_TEST_SECRET}" },
      }),
    );
    await Deno.mkdir(`${profiles}/echo`, { recursive: true });
    await Deno.writeTextFile(
      `${profiles}/echo/_meta.json`,
      JSON.stringify({
        transport: "http",
        url: `${remote}/headers/mcp`,
        headers: { "X-Custom": "${JN_TEST_SECRET}" },
      }),
    );
    await fn({ HOME: home, JN_TEST_SECRET: SECRET });
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

Deno.test("serve: a secret never reaches the host or serve's stderr", async () => {
  const remote = await startFixture("http_server.ts");
  try {
    await withProfiles(remote.url, async (env) => {
      const logs: unknown[] = [];
      // --debug: the servers' stderr is printed too, redacted.
      const host = await stdioHost(["--debug", "@esc", "@echo"], {
        env,
        setup: (client) =>
          client.setNotificationHandler("notifications/message", (n) => void logs.push(n.params)),
      });
      const seen: unknown[] = [];
      try {
        const client = host.client;
        await client.setLoggingLevel("debug");
        seen.push(client.getInstructions());
        const tools = await client.listTools();
        seen.push(tools);
        assert.match(JSON.stringify(tools), /Signed in with \*\*\*/);
        seen.push(await client.callTool({ name: "esc__whoami", arguments: {} }));
        seen.push(await client.callTool({ name: "esc__log", arguments: {} }));
        seen.push(
          await client.callTool({ name: "esc__fail", arguments: {} }).catch((e) => e.message),
        );
        const headers = await client.callTool({ name: "echo__echo", arguments: { text: "h" } });
        seen.push(headers);
        assert.match(JSON.stringify(headers), /x-custom/i, "the server did get the header");
        await eventually(() => logs.length > 0, "the server's log message");
        seen.push(logs);
      } finally {
        await host.close();
      }
      assertNoSecret(JSON.stringify(seen), "what the host got");
      await eventually(() => /secret-split/.test(host.stderr()), "the server's stderr");
      assertNoSecret(host.stderr(), "serve's stderr");
    });
  } finally {
    await remote.stop();
  }
});
