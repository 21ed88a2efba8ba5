/**
 * A trusted project profile's relative `PATH` entry (`"env": {"PATH":
 * "tools:/usr/bin:/bin"}`) names the directory jn runs in, which trust does
 * not cover and which can change after trust: even unsandboxed, jn does not
 * start the server's command from it (issue 23). It finds the command in the
 * PATH's absolute entries and starts it by that path; the server gets its
 * PATH without the relative entry (a launcher's own lookup, npx's
 * `#!/usr/bin/env node`, would find the planted program there:
 * attack_relative_path_test.ts), and jn says so.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { exists, FIXTURES, parseNdjson } from "../helpers.ts";
import { sandbox } from "../profile/sandbox.ts";

Deno.test("a profile's relative PATH entry does not choose the server's program, sandbox or not", async () => {
  const box = await sandbox();
  try {
    const marker = join(box.root, "PLANTED_NODE_RAN");
    const planted = join(box.project, "tools", "node");
    await box.write(planted, `#!/bin/sh\necho ran > '${marker}'\nexec /usr/bin/env node "$@"\n`);
    await Deno.chmod(planted, 0o755);
    await box.write(
      `${box.projectProfiles}/tooled/_meta.json`,
      JSON.stringify({
        command: "node",
        args: [`${FIXTURES}/servers/fixture.mjs`],
        env: { PATH: "tools:/usr/local/bin:/usr/bin:/bin" },
      }),
    );
    const trust = await box.run(["profile", "trust", "@tooled"]);
    assert.equal(trust.code, 0, trust.stderr);
    assert.match(trust.stderr, /^ {2}warning: +PATH /m);
    const run = await box.run(["cat", "@tooled?tool=env"]);
    assert.equal(await exists(marker), false, "the repository's tools/node ran");
    assert.equal(run.code, 0, run.stderr);
    const [record] = parseNdjson(run.stdout) as { text: string }[];
    assert.equal(JSON.parse(record.text).PATH, "/usr/local/bin:/usr/bin:/bin");
    assert.match(run.stderr, /the server's PATH leaves out "tools"/);
  } finally {
    await box.dispose();
  }
});
