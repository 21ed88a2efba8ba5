/**
 * `jn inspect` says what jn did not offer a server: server-everything
 * registers `get-roots-list` only for clients that declare roots and
 * `trigger-sampling-request` only for those that declare sampling, and
 * lists nothing to say so.
 */

import assert from "node:assert/strict";
import { runJnHere } from "../helpers.ts";
import { serverEverything } from "./support.ts";

const EVERYTHING = await serverEverything();

Deno.test({
  name: "inspect names the capabilities jn did not offer, under the tools",
  ignore: EVERYTHING === undefined,
  async fn(t) {
    const source = `mcp+node://${EVERYTHING}?command=stdio`;

    await t.step(
      "without --root: roots and sampling are named, get-roots-list is hidden",
      async () => {
        const run = await runJnHere(["inspect", source]);
        assert.equal(run.code, 0, run.stderr);
        assert.doesNotMatch(run.stdout, /get-roots-list/);
        assert.match(
          run.stdout,
          /^ {2}jn did not offer sampling \(--sampling-command CMD\), roots \(--root PATH\): the server may hide tools that need them$/m,
        );
      },
    );

    await t.step("with --root: get-roots-list is listed and roots no longer named", async () => {
      const run = await runJnHere(["inspect", source, "--root", "."]);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /^ {2}get-roots-list\(/m);
      assert.match(run.stdout, /^ {2}jn did not offer sampling \(--sampling-command CMD\): /m);
      const json = await runJnHere(["inspect", "--format", "json", source, "--root", "."]);
      const offered = JSON.parse(json.stdout).clientCapabilities;
      assert.ok(offered.roots, JSON.stringify(offered));
      assert.equal(offered.sampling, undefined);
    });
  },
});
