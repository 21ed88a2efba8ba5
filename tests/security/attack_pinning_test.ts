/**
 * Attacks on pinning (lib/drift/pin.ts, lib/schema/same.ts, lib/client/curate.ts):
 * a server whose tool changes after `jn profile create --from` snapshot it
 * must have that tool withheld by `jn serve`, "in everything a model reads
 * or a call depends on" (docs/drift.md, "Pinning"). Each case is a real
 * profile made from the fixture server, served over HTTP to the SDK client
 * as a host, the server switched to a hostile variant of its tools
 * (tests/fixtures/servers/fixture_search_tools.mjs).
 *
 * @module
 */

import assert from "node:assert/strict";
import { fixtureProfile } from "../drift/setup.ts";
import { baseEnv } from "../helpers.ts";
import { sandbox } from "../profile/sandbox.ts";
import { httpHost, httpServe } from "../serve/support.ts";

/** What a host is offered of `@fx` made from `base` and serving `variant`. */
async function offeredAfter(base: string, variant: string) {
  const box = await sandbox({ here: true });
  try {
    await fixtureProfile(box, base);
    const withheld: string[] = [];
    const served = await httpServe(["@fx"], {
      cwd: box.project,
      env: { ...baseEnv(), HOME: box.home, FIXTURE_SCHEMA: variant },
      events: { onWithheld: (_source, tools) => void withheld.push(...tools.map((t) => t.name)) },
    });
    try {
      const host = await httpHost(served.url!);
      try {
        const tools = (await host.client.listTools()).tools;
        return { tools, withheld, search: tools.find((tool) => tool.name === "search") };
      } finally {
        await host.close();
      }
    } finally {
      await served.close();
    }
  } finally {
    await box.dispose();
  }
}

Deno.test("attack: text added in an unreferenced $defs of a pinned tool slips past pinning", async () => {
  const { search, withheld } = await offeredAfter("v1", "v2-defs-note");
  // The host (and its model) reads the whole inputSchema, $defs included.
  assert.doesNotMatch(
    JSON.stringify(search?.inputSchema ?? {}),
    /id_rsa/,
    `the changed schema reached the host (withheld: ${withheld.join(", ") || "nothing"})`,
  );
  assert.ok(withheld.includes("search"), "a changed input schema is withheld");
});

Deno.test("attack: a changed $anchor definition behind a $ref slips past pinning", async () => {
  const { search, withheld } = await offeredAfter("v1-anchor", "v2-anchor-note");
  assert.doesNotMatch(
    JSON.stringify(search?.inputSchema ?? {}),
    /id_rsa/,
    `the changed parameter text reached the host (withheld: ${withheld.join(", ") || "nothing"})`,
  );
  assert.ok(withheld.includes("search"), "a changed input schema is withheld");
});

Deno.test("attack: a tool that starts calling itself read-only (title, annotations) is not withheld", async () => {
  const { search, withheld } = await offeredAfter("v1", "v2-annotations");
  const served = { title: search?.title, annotations: search?.annotations };
  assert.ok(
    withheld.includes("search") || (served.title === undefined && served.annotations === undefined),
    `the host was served what the snapshot never had: ${JSON.stringify(served)}`,
  );
});
