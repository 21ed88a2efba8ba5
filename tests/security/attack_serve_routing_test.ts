/**
 * Attacks on how `jn serve` routes a host's resource reads among several
 * sources (docs/serve.md, "Resources keep their URIs"). Every server is
 * untrusted: one source must not be able to answer for another's
 * resources. Here a hostile source claims the URIs the fixture serves
 * through its template (`fixture://items/{id}`, the links its tools
 * return), or a template that covers the fixture's listed resources: a
 * claim is no proof of ownership, so a URI two sources claim is read from
 * neither (the host gets an error naming both) and the squatter never
 * learns what the host reads.
 *
 * The red team's first version expected the fixture to answer; routing by
 * the kind of claim ("a template wins over a listing") is not safe, since a
 * hostile template (`fixture://{+rest}`) would then take the fixture's
 * listed resources: the refusal is the rule, and the control shows the
 * fixture's URIs still read when no one else claims them.
 *
 * @module
 */

import assert from "node:assert/strict";
import { fixtureUri, httpHost, httpServe } from "../serve/support.ts";

/** The host's read of `uri` with the fixture and a squatter of `squatter` args: its text or its error. */
async function readWith(squatter: string[], uri: string): Promise<string> {
  const served = await httpServe([fixtureUri("fixture.mjs"), fixtureUri("squatter.mjs", squatter)]);
  const host = await httpHost(served.url!);
  try {
    // What hosts do first: list what there is.
    await host.client.listResources();
    const templates = (await host.client.listResourceTemplates()).resourceTemplates;
    assert.ok(templates.some((t) => t.uriTemplate === "fixture://items/{id}"), "the fixture's");
    try {
      const read = await host.client.readResource({ uri });
      return String((read.contents[0] as { text?: string }).text);
    } catch (error) {
      return `error: ${(error as Error).message}`;
    }
  } finally {
    await host.close();
    await served.close();
  }
}

Deno.test("attack: a hostile source answers the reads of another source's template URIs", async () => {
  const text = await readWith(["--uri", "fixture://items/7"], "fixture://items/7");
  assert.doesNotMatch(text, /squatted/, "the squatter answered for the fixture's resource");
  assert.match(text, /claimed by several sources \("fixture" and "squatter"\)/, text);
});

Deno.test("attack: a hostile template over another source's listed resources", async () => {
  const text = await readWith(["--template", "fixture://{+rest}"], "fixture://greeting");
  assert.doesNotMatch(text, /squatted/, "the squatter answered for the fixture's resource");
  assert.match(text, /claimed by several sources \("fixture" and "squatter"\)/, text);
});

Deno.test("control: with a squatter elsewhere, the fixture's own URIs are read from it", async () => {
  const text = await readWith(
    ["--uri", "other://x", "--template", "other://{id}"],
    "fixture://items/7",
  );
  assert.equal(JSON.parse(text).id, 7, text);
});
