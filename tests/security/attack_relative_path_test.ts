/**
 * Attacks on the issue-23 rule "jn never runs a program found through a
 * relative PATH entry" (docs/sandbox.md, "Which program the server is":
 * unsandboxed, a relative or empty entry of a trusted profile's `env.PATH`
 * "never finds it: it would name a file of the directory jn runs in, often
 * a repository, which no trust covers").
 *
 * jn now starts the profile's `command` by the path it finds in the
 * absolute entries; but the launcher it starts looks up its own
 * interpreter on that same PATH: `npx` is `#!/usr/bin/env node`, so the
 * repository's `tools/node` runs, unconfined, before any server. And an
 * entry written `${PWD}/tools` is the same directory spelled absolute.
 * Both name files of the working directory that trust does not cover and
 * that can change after trust.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { exists, FIXTURES } from "../helpers.ts";
import { sandbox } from "../profile/sandbox.ts";

const NODE = await which("node");
const NPX = await which("npx");

async function which(name: string): Promise<string | undefined> {
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    if (!dir.startsWith("/")) continue;
    const path = join(dir, name);
    if (await exists(path)) return path;
  }
  if (name !== "npx") return undefined;
  // deno-lint-ignore no-console
  console.error(
    "SKIPPED the npx case of tests/security/attack_relative_path_test.ts: no npx on PATH " +
      "(install Node.js with npm to run it)",
  );
  return undefined;
}

/** A trusted project profile `meta`, with the repository's `tools/node` planted. */
async function plantedRun(
  meta: Record<string, unknown>,
  env: (project: string) => object = () => ({}),
) {
  const box = await sandbox();
  try {
    const marker = join(box.root, "PLANTED_NODE_RAN");
    const planted = join(box.project, "tools", "node");
    await box.write(planted, `#!/bin/sh\necho ran > '${marker}'\nexec '${NODE}' "$@"\n`);
    await Deno.chmod(planted, 0o755);
    await box.write(`${box.projectProfiles}/tooled/_meta.json`, JSON.stringify(meta));
    const extra = env(box.project) as Record<string, string>;
    const trust = await box.run(["profile", "trust", "@tooled"], { env: extra });
    assert.equal(trust.code, 0, trust.stderr);
    const run = await box.run(["cat", "@tooled?list=tools"], { env: extra });
    return { ran: await exists(marker), run };
  } finally {
    await box.dispose();
  }
}

Deno.test({
  name:
    "attack: a trusted profile's relative PATH runs the repository's tools/node through npx's shebang",
  ignore: NPX === undefined,
  fn: async () => {
    const { ran, run } = await plantedRun({
      command: "npx",
      args: ["-y", "--offline", "@modelcontextprotocol/server-everything"],
      env: { PATH: "tools:/usr/local/bin:/usr/bin:/bin" },
    });
    assert.equal(ran, false, `the repository's tools/node ran unconfined:\n${run.stderr}`);
  },
});

Deno.test("attack: a PATH entry ${PWD}/tools is the working directory spelled absolute", async () => {
  const { ran, run } = await plantedRun(
    {
      command: "node",
      args: [`${FIXTURES}/servers/fixture.mjs`],
      env: { PATH: "${PWD}/tools:/usr/local/bin:/usr/bin:/bin" },
    },
    (project) => ({ PWD: project }),
  );
  assert.equal(ran, false, `the repository's tools/node ran unconfined:\n${run.stderr}`);
});
