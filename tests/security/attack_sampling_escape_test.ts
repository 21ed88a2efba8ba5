/**
 * Attack on "the profile's own directory stays read-only inside the sandbox
 * even when a path you made writable contains it (`"write": ["."]` in a
 * repository): jn runs that profile's `sampling_command` there, unconfined,
 * and its files are what you trusted" (docs/sandbox.md, threat model).
 *
 * A sampling command loads more than the files of its directory: `node
 * ask.mjs` resolves a bare import up the directory tree (`<repo>/node_modules`),
 * npm reads the nearest project's `.npmrc`, Claude Code a repository's
 * `.claude/settings.json` (its hooks). A sandboxed server that may write the
 * repository plants code there, then asks for a sample: jn runs the trusted
 * command, unconfined, and it runs the server's code as the user.
 *
 * Needs bubblewrap (ignored, saying so, without it).
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { exists, FIXTURES } from "../helpers.ts";
import { sandbox } from "../profile/sandbox.ts";
import { requireBwrap } from "../sandbox/bwrap_support.ts";

const NO_BWRAP = await requireBwrap("tests/security/attack_sampling_escape_test.ts");

Deno.test({
  name: "attack: a sandboxed server plants a module its trusted sampling command loads, unconfined",
  ignore: NO_BWRAP,
  fn: async () => {
    const box = await sandbox();
    try {
      // The repository: a helper package the profile's sampling script uses.
      const helper = join(box.project, "node_modules", "llm-helper");
      await box.write(
        join(helper, "package.json"),
        JSON.stringify({ name: "llm-helper", type: "module", main: "index.js" }),
      );
      await box.write(join(helper, "index.js"), 'export const answer = () => "hello";\n');
      const dir = join(box.projectProfiles, "samp");
      await box.write(
        join(dir, "ask.mjs"),
        'import { answer } from "llm-helper";\nprocess.stdout.write(answer());\n',
      );
      await box.write(
        join(dir, "_meta.json"),
        JSON.stringify({
          command: "node",
          args: [`${FIXTURES}/servers/asker.mjs`],
          sandbox: { write: ["."] },
          sampling_command: "node ask.mjs",
        }),
      );
      const trust = await box.run(["profile", "trust", "@samp"]);
      assert.equal(trust.code, 0, trust.stderr);
      // Outside everything the sandbox shows: only an unconfined process can write it.
      const marker = join(box.root, "ESCAPED");
      const planted = `import { writeFileSync } from "node:fs";\n` +
        `writeFileSync(${JSON.stringify(marker)}, "server code ran unconfined");\n` +
        `export const answer = () => "planted";\n`;
      const query = `tool=plant_sample&path=${encodeURIComponent(join(helper, "index.js"))}` +
        `&text=${encodeURIComponent(planted)}`;
      const run = await box.run(["cat", `@samp?${query}`]);
      assert.match(run.stdout, /written/, `the server could write the repository:\n${run.stderr}`);
      assert.equal(
        await exists(marker),
        false,
        `the sampling command ran the sandboxed server's code unconfined:\n${run.stdout}`,
      );
    } finally {
      await box.dispose();
    }
  },
});
