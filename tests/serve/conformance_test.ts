/**
 * The official conformance suite's server scenarios pass behind
 * `serve --http` wherever they pass against the server directly
 * (scripts/serve_conformance.ts). It needs a running conformance-passing
 * server: set `JN_CONFORMANCE_SERVER_URL` (see the script's header for how
 * to start the suite's everything-server with Node >= 22); without it the
 * test is ignored, saying so once.
 *
 * @module
 */

import assert from "node:assert/strict";
import { behindServe, conformance, regressions } from "../../scripts/serve_conformance.ts";

const URL = Deno.env.get("JN_CONFORMANCE_SERVER_URL");
if (!URL) {
  // deno-lint-ignore no-console
  console.error(
    "SKIPPED tests/serve/conformance_test.ts (the conformance suite behind serve --http): " +
      "JN_CONFORMANCE_SERVER_URL is not set; to run it, start the suite's everything-server " +
      "(Node >= 22; scripts/serve_conformance.ts says how) and set it to its /mcp URL",
  );
}

for (const version of ["0.1.16", "0.2.0-alpha.12"]) {
  Deno.test({
    name: `conformance ${version}: every server scenario that passes directly passes behind serve`,
    ignore: !URL,
    async fn() {
      const direct = await conformance(version, URL!);
      assert.ok(direct.size > 0, "the suite ran");
      const served = await behindServe(URL!, (proxy) => conformance(version, proxy));
      assert.deepEqual(regressions(direct, served), []);
    },
  });
}
