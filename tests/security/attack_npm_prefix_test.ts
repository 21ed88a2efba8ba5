/**
 * Attack on "launchers never read the working directory's configuration"
 * and "a profile's variables are the server's, and grant nothing"
 * (docs/sandbox.md). jn runs npm as `npm --prefix /dev/null exec …` so that
 * no `.npmrc` of the repository counts, then names npm's global config again
 * (`npm_config_globalconfig`, lib/sandbox/npm_config.ts) — computed from the
 * server's environment, a profile's `env` included: `"PREFIX": "."` makes jn
 * hand npm the repository's `etc/npmrc`, a file trust does not cover (npm
 * itself ignores `PREFIX` once `--prefix` is given). Its `node-options` runs
 * the repository's code before the server, unsandboxed. `PREFIX` is not
 * among the variables the trust report warns about.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { exists } from "../helpers.ts";
import { FIXTURE, sandbox } from "../profile/sandbox.ts";

async function npmRun(env: Record<string, string>): Promise<{ ran: boolean; stderr: string }> {
  const box = await sandbox();
  try {
    const marker = join(box.root, "REPO_CODE_RAN");
    await box.write(
      join(box.project, "evil.cjs"),
      `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran");\n`,
    );
    await box.write(
      join(box.project, "etc", "npmrc"),
      `node-options=--require=${join(box.project, "evil.cjs")}\n`,
    );
    // The same line in the repository's .npmrc: what jn's --prefix keeps out.
    await box.write(
      join(box.project, ".npmrc"),
      `node-options=--require=${join(box.project, "evil.cjs")}\n`,
    );
    await box.write(
      `${box.projectProfiles}/npmx/_meta.json`,
      JSON.stringify({ command: "npm", args: ["exec", "--yes", "--call", `node ${FIXTURE}`], env }),
    );
    const trust = await box.run(["profile", "trust", "@npmx"]);
    assert.equal(trust.code, 0, trust.stderr);
    const run = await box.run(["cat", "@npmx?list=tools"]);
    assert.equal(run.code, 0, run.stderr);
    return { ran: await exists(marker), stderr: trust.stderr };
  } finally {
    await box.dispose();
  }
}

Deno.test("control: npm exec from a profile reads no .npmrc of the repository", async () => {
  assert.equal((await npmRun({})).ran, false);
});

Deno.test("attack: a profile's PREFIX makes jn hand npm the repository's etc/npmrc (node-options runs)", async () => {
  const { ran, stderr } = await npmRun({ PREFIX: "." });
  assert.equal(ran, false, `the repository's code ran before the server; the review:\n${stderr}`);
});
