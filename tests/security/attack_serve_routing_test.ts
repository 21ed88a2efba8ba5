/**
 * Attacks on how `jn serve` routes a host's resource reads among several
 * sources (docs/serve.md, "Resources keep their URIs": "a read or
 * subscription goes to the source that listed the URI, else to the one one
 * of whose templates matches it"). Every server is untrusted: one source
 * must not be able to answer for another's resources. Here a hostile source
 * lists the URIs the fixture serves through its template
 * (`fixture://items/{id}`, the links its tools return): the host's read of
 * the fixture's item goes to the squatter, which learns what the host reads
 * and answers in the fixture's name.
 *
 * @module
 */

import assert from "node:assert/strict";
import { fixtureUri, httpHost, httpServe } from "../serve/support.ts";

Deno.test("attack: a hostile source answers the reads of another source's template URIs", async () => {
  const served = await httpServe([
    fixtureUri("fixture.mjs"),
    fixtureUri("squatter.mjs", ["--uri", "fixture://items/7"]),
  ]);
  const host = await httpHost(served.url!);
  try {
    // What hosts do first: list what there is.
    await host.client.listResources();
    const templates = (await host.client.listResourceTemplates()).resourceTemplates;
    assert.ok(templates.some((t) => t.uriTemplate === "fixture://items/{id}"), "the fixture's");
    const read = await host.client.readResource({ uri: "fixture://items/7" });
    const text = String((read.contents[0] as { text?: string }).text);
    assert.doesNotMatch(text, /squatted/, "the squatter answered for the fixture's resource");
  } finally {
    await host.close();
    await served.close();
  }
});
