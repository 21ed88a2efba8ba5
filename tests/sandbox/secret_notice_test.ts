/**
 * `${VAR}` secrets never reach stderr through the sandbox (red team, issue
 * #12): not in the notices that name a hidden argument of the server, not in
 * `--debug`'s bwrap line, where a secret with a quote used to be split by
 * shell quoting (`it'\''s…`) before redaction could see it. Black-box with
 * the probe server; needs bubblewrap, ignored, saying so, without it.
 */

import assert from "node:assert/strict";
import { tempDir } from "../helpers.ts";
import { requireBwrap } from "./bwrap_support.ts";
import { cat, probeAt } from "./probe.ts";

const NO_BWRAP = await requireBwrap("tests/sandbox/secret_notice_test.ts");

Deno.test({
  name: "sandbox notices and the --debug bwrap line redact ${VAR} secrets",
  ignore: NO_BWRAP,
  fn: async (t) => {
    const base = await tempDir("jn-secret-notice-");
    const home = `${base}/home`;
    const profiles = `${home}/.local/jn/profiles/mcp`;
    try {
      const script = await probeAt(`${base}/srv/server.mjs`);
      const token = "SECRETtoken42";
      const quoted = "it's-SECRET42";
      // A hidden host path whose name holds the secret: the notice names it.
      await Deno.mkdir(`${base}/data-${token}`, { recursive: true });
      for (const [name, arg] of [["s", `${base}/data-\${TOKEN}`], ["q", "--key=${TOKEN}"]]) {
        await Deno.mkdir(`${profiles}/${name}`, { recursive: true });
        await Deno.writeTextFile(
          `${profiles}/${name}/_meta.json`,
          JSON.stringify({ command: "node", args: [script, arg], sandbox: true }),
        );
      }
      await t.step("the notice on a hidden argument", async () => {
        const run = await cat("@s?tool=echo&text=x", [], {
          env: { HOME: home, TOKEN: token },
          cwd: "/",
        });
        assert.equal(run.code, 0, run.stderr);
        assert.match(
          run.stderr,
          /jn: the sandbox hides ".*data-\*\*\*", an argument of the server/,
        );
        assert.equal(run.stderr.includes("SECRET"), false, run.stderr);
      });
      await t.step("--debug's bwrap line, with a quote in the secret", async () => {
        const run = await cat("@q?tool=echo&text=x", ["--debug"], {
          env: { HOME: home, TOKEN: quoted },
          cwd: "/",
        });
        assert.equal(run.code, 0, run.stderr);
        assert.match(
          run.stderr,
          /jn: debug: sandboxed: \S*bwrap .* -- \S*node \S+ '--key=\*\*\*'$/m,
        );
        assert.equal(run.stderr.includes("SECRET"), false, run.stderr);
      });
    } finally {
      await Deno.remove(base, { recursive: true });
    }
  },
});
