/**
 * Attack on the review of a project profile (issue 23): `jn profile trust`
 * shows every variable of `env` and warns about "those that load code into a
 * process" (docs/sandbox.md; the one list, lib/sandbox/code_loading_env.ts),
 * so that a reviewer sees that `NODE_OPTIONS=--require=./x.cjs` is more than
 * a setting. Each variable below makes the launcher run code of the
 * repository (a file trust does not cover) when the server starts
 * unsandboxed, checked by hand with npm 11 and uv; none is warned about:
 *
 * - `npm_config_node-options`, `NPM_CONFIG_NODE-OPTIONS`: the same setting
 *   as `npm_config_node_options` (npm turns `_` into `-`, and takes `-` as
 *   it is): `npm exec` runs `--require=./evil.cjs`;
 * - `npm_config_userconfig`, `npm_config_globalconfig`: an `.npmrc` of the
 *   repository, whose `node-options` npm applies;
 * - `npm_config_cache`, `UV_CACHE_DIR`, `UV_TOOL_DIR`, `XDG_CACHE_HOME`: the
 *   launcher's package cache in the repository: npx and uvx run what is
 *   installed there;
 * - `UV_PYTHON`: the interpreter uv runs the server with;
 * - `GIT_SSH_COMMAND`, `GIT_EXEC_PATH`: programs git runs (an npm or uv
 *   git dependency).
 *
 * @module
 */

import assert from "node:assert/strict";
import { sandbox } from "../profile/sandbox.ts";

const LOADERS: Record<string, string> = {
  "npm_config_node-options": "--require=./evil.cjs",
  "NPM_CONFIG_NODE-OPTIONS": "--require=./evil.cjs",
  npm_config_userconfig: "./evil.npmrc",
  npm_config_globalconfig: "./evil.npmrc",
  npm_config_cache: "./.cache/npm",
  UV_CACHE_DIR: "./.cache/uv",
  UV_TOOL_DIR: "./.cache/uv-tools",
  XDG_CACHE_HOME: "./.cache",
  UV_PYTHON: "./tools/python",
  GIT_SSH_COMMAND: "./tools/ssh",
  GIT_EXEC_PATH: "./tools",
};

Deno.test("attack: variables that make npx/uvx run the repository's code are not warned about in the trust report", async () => {
  const box = await sandbox();
  try {
    await box.write(
      `${box.projectProfiles}/loader/_meta.json`,
      JSON.stringify({ command: "npx", args: ["-y", "some-mcp-server"], env: LOADERS }),
    );
    const trust = await box.run(["profile", "trust", "@loader"]);
    assert.equal(trust.code, 0, trust.stderr);
    const unwarned = Object.keys(LOADERS).filter((name) =>
      !trust.stderr.split("\n").some((line) => /^ {2}warning: /.test(line) && line.includes(name))
    );
    assert.deepEqual(unwarned, [], `no warning for:\n${trust.stderr}`);
  } finally {
    await box.dispose();
  }
});
