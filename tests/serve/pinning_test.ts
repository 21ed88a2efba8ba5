/**
 * Pinning through `jn serve`, as a host sees it: a profile made from the
 * live server (`jn profile create --from`, which snapshots every tool) is
 * served its snapshot — a tool whose description, parameter text or schema
 * changed since, and a tool the snapshot does not know, are withheld (not
 * listed, a call refused naming `jn profile diff`/`update`, the host told
 * in a log message, stderr told once) while the unchanged tools keep
 * working; `--ignore-schema` serves every tool, saying so.
 *
 * @module
 */

import assert from "node:assert/strict";
import { fixtureProfile } from "../drift/setup.ts";
import { sandbox } from "../profile/sandbox.ts";
import { eventually, stdioHost } from "./support.ts";

/** The fixture's schema variants (tests/fixtures/servers/fixture_search_tools.mjs), what each withholds. */
const CHANGES = [
  {
    variant: "v2-description",
    withheld: ["search", "trial_search", "variant_search"],
    reason: /its description changed since the profile's snapshot/,
  },
  {
    variant: "v2-param-description",
    withheld: ["search"],
    reason: /its input schema changed since the profile's snapshot/,
  },
  {
    variant: "v2-added",
    withheld: ["article_get"],
    reason: /it is new: the profile's snapshot does not know it/,
  },
];

Deno.test("jn serve @profile: a tool that changed since the snapshot, or is new, is withheld; the others serve", async (t) => {
  const box = await sandbox();
  try {
    await fixtureProfile(box);
    for (const change of CHANGES) {
      await t.step(change.variant, async () => {
        const logs: { level: string; data: unknown }[] = [];
        const host = await stdioHost(["@fx"], {
          cwd: box.project,
          env: { HOME: box.home, FIXTURE_SCHEMA: change.variant },
          setup: (client) =>
            client.setNotificationHandler(
              "notifications/message",
              (n) => void logs.push(n.params as { level: string; data: unknown }),
            ),
        });
        try {
          const names = (await host.client.listTools()).tools.map((tool) => tool.name);
          for (const name of change.withheld) assert.ok(!names.includes(name), names.join(" "));
          assert.ok(names.includes("echo"), "an unchanged tool is served");
          const echo = await host.client.callTool({ name: "echo", arguments: { text: "ok" } });
          assert.deepEqual(echo.content, [{ type: "text", text: '{"text":"ok"}' }]);
          const refused = await host.client.callTool({ name: change.withheld[0], arguments: {} })
            .catch((e) => e);
          assert.equal(refused?.code, -32602, String(refused));
          assert.match(String(refused?.message), change.reason);
          await eventually(() => logs.length > 0, "the host's log message");
          assert.equal(logs[0].level, "warning");
          assert.match(String(logs[0].data), change.reason);
          await eventually(() => /withholds/.test(host.stderr()), "the stderr line");
          const line = host.stderr().split("\n").find((l) => l.includes("withholds"))!;
          assert.match(
            line,
            new RegExp(
              `^jn: "fx" withholds ${change.withheld.length} tools?: ${change.withheld[0]} \\(`,
            ),
          );
          assert.match(line, /review: jn profile diff @fx; approve: jn profile update @fx/);
        } finally {
          await host.close();
        }
      });
    }
    await t.step("--ignore-schema serves every tool, saying so", async () => {
      const host = await stdioHost(["--ignore-schema", "@fx"], {
        cwd: box.project,
        env: { HOME: box.home, FIXTURE_SCHEMA: "v2-description" },
      });
      try {
        const names = (await host.client.listTools()).tools.map((tool) => tool.name);
        for (const name of CHANGES[0].withheld) assert.ok(names.includes(name), names.join(" "));
        const found = await host.client.callTool({ name: "search", arguments: { gene: "BRAF" } });
        assert.equal(found.isError, undefined, JSON.stringify(found));
        await eventually(() => /pinning is off \(--ignore-schema\)/.test(host.stderr()), "note");
        assert.doesNotMatch(host.stderr(), /withholds/);
      } finally {
        await host.close();
      }
    });
  } finally {
    await box.dispose();
  }
});
