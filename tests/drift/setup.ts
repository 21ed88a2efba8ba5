/**
 * A profile of the fixture server made the way users make one
 * (`jn profile create fx --from URI`), then pointed at a schema variant
 * chosen per run by `$FIXTURE_SCHEMA` (the variant it was made from unless set).
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { FIXTURE, type Sandbox } from "../profile/sandbox.ts";

/** Creates `@fx` from variant `base` in the sandbox's user layer; returns its directory. */
export async function fixtureProfile(box: Sandbox, base = "v1"): Promise<string> {
  const uri = `mcp+node://${FIXTURE}?command=--schema&command=${base}`;
  const created = await box.run(["profile", "create", "fx", "--from", uri]);
  assert.equal(created.code, 0, created.stderr);
  const dir = join(box.user, "fx");
  await edit(
    join(dir, "_meta.json"),
    (text) => text.replace(`"${base}"`, `"\${FIXTURE_SCHEMA:-${base}}"`),
  );
  return dir;
}

/** Rewrites a file's text. */
export async function edit(path: string, change: (text: string) => string): Promise<void> {
  const before = await Deno.readTextFile(path);
  const after = change(before);
  assert.notEqual(after, before, `the edit of ${path} changed nothing`);
  await Deno.writeTextFile(path, after);
}

/** The environment that selects a schema variant of the fixture. */
export function schema(variant: string): { env: Record<string, string> } {
  return { env: { FIXTURE_SCHEMA: variant } };
}
