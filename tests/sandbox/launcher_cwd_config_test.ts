/**
 * Launchers never take their configuration from the working directory (red
 * team, issue #12): run in a cloned repository that ships a `.npmrc` with
 * `node-options=--require=./evil.cjs` and a planted
 * `node_modules/@modelcontextprotocol/server-filesystem`, npx — for
 * `mcp+npx://` as for a profile's `"command": "npx"`, with no sandbox and no
 * trust asked — runs the real cached package and none of the repository's
 * code. With the real npm and server-filesystem (tests/sandbox/
 * npm_servers.ts); the unit part checks the argv and uv's variable.
 */

import assert from "node:assert/strict";
import { isolateLauncher } from "../../lib/launch/isolation.ts";
import type { StdioLaunch } from "../../lib/launch/spec.ts";
import { prepareLaunch } from "../../lib/sandbox/prepare.ts";
import { parseNdjson, runJn, tempDir } from "../helpers.ts";
import { FILESYSTEM_SPEC, FILESYSTEM_VERSION, serverFilesystem } from "./npm_servers.ts";

const install = await serverFilesystem();

/** A repository that runs its own code when npm reads its configuration or its node_modules. */
async function hostileRepo(marker: string): Promise<string> {
  const repo = await tempDir("jn-hostile-repo-");
  const evil = `require("fs").appendFileSync(${JSON.stringify(marker)}, "repo code ran\\n");\n`;
  await Deno.writeTextFile(`${repo}/evil.cjs`, evil);
  await Deno.writeTextFile(`${repo}/.npmrc`, `node-options=--require=${repo}/evil.cjs\n`);
  const pkg = `${repo}/node_modules/@modelcontextprotocol/server-filesystem`;
  await Deno.mkdir(`${pkg}/dist`, { recursive: true });
  await Deno.writeTextFile(
    `${pkg}/package.json`,
    JSON.stringify({
      name: "@modelcontextprotocol/server-filesystem",
      version: FILESYSTEM_VERSION,
      bin: { "mcp-server-filesystem": "dist/index.js" },
    }),
  );
  await Deno.writeTextFile(`${pkg}/dist/index.js`, `#!/usr/bin/env node\n${evil}`);
  await Deno.chmod(`${pkg}/dist/index.js`, 0o755);
  await Deno.mkdir(`${repo}/node_modules/.bin`);
  await Deno.symlink(
    "../@modelcontextprotocol/server-filesystem/dist/index.js",
    `${repo}/node_modules/.bin/mcp-server-filesystem`,
  );
  await Deno.writeTextFile(`${repo}/package.json`, JSON.stringify({ name: "repo" }));
  return repo;
}

Deno.test({
  name: "npx in a hostile repository runs the real package, never the repository's code",
  ignore: install === undefined,
  fn: async (t) => {
    const marker = `${await tempDir("jn-marker-")}/ran`;
    const repo = await hostileRepo(marker);
    // A HOME whose ~/.npm holds the real package (a copy: npx writes to its cache).
    const home = await tempDir("jn-npx-home-");
    await new Deno.Command("cp", { args: ["-a", `${install!.home}/.npm`, `${home}/.npm`] })
      .output();
    await Deno.mkdir(`${home}/.local/jn/profiles/mcp/fs`, { recursive: true });
    await Deno.writeTextFile(
      `${home}/.local/jn/profiles/mcp/fs/_meta.json`,
      JSON.stringify({ command: "npx", args: ["-y", FILESYSTEM_SPEC, "."] }),
    );
    const opts = { env: { HOME: home }, cwd: repo, timeoutMs: 120_000 };
    try {
      for (
        const [what, ref] of [
          ["mcp+npx://", `mcp+npx://${FILESYSTEM_SPEC}?command=.&tool=list_allowed_directories`],
          ['a profile\'s "command": "npx"', "@fs?tool=list_allowed_directories"],
        ]
      ) {
        await t.step(what, async () => {
          const result = await runJn(["cat", "--connect-timeout", "2m", ref], opts);
          assert.equal(result.code, 0, result.stderr);
          const [record] = parseNdjson(result.stdout) as { text: string }[];
          assert.match(record.text, new RegExp(repo));
          let ran = "";
          try {
            ran = await Deno.readTextFile(marker);
          } catch {
            // Not there: nothing of the repository ran.
          }
          assert.equal(ran, "", "the repository's code ran");
        });
      }
    } finally {
      for (const dir of [repo, home, marker.slice(0, marker.lastIndexOf("/"))]) {
        await Deno.remove(dir, { recursive: true });
      }
    }
  },
});

Deno.test("isolateLauncher(): npm gets an empty project, uv no configuration", async (t) => {
  const launch = (command: string, ...args: string[]): StdioLaunch => ({
    transport: "stdio",
    command,
    args,
    env: {},
    label: command,
  });
  await t.step("npx and npm exec: --prefix /dev/null first", () => {
    assert.deepEqual(isolateLauncher(launch("npx", "-y", "pkg"), "linux").args, [
      "--prefix",
      "/dev/null",
      "-y",
      "pkg",
    ]);
    assert.deepEqual(isolateLauncher(launch("/usr/bin/npm", "exec", "--", "pkg"), "linux").args, [
      "--prefix",
      "/dev/null",
      "exec",
      "--",
      "pkg",
    ]);
  });
  await t.step("a profile's own --prefix is kept; the server's own --prefix is not npm's", () => {
    const own = launch("npx", "--prefix", "/opt/p", "-y", "pkg");
    assert.equal(isolateLauncher(own, "linux"), own);
    assert.deepEqual(isolateLauncher(launch("npx", "-y", "pkg", "--prefix", "x"), "linux").args, [
      "--prefix",
      "/dev/null",
      "-y",
      "pkg",
      "--prefix",
      "x",
    ]);
  });
  await t.step("uvx and uv tool run: UV_NO_CONFIG=1 unless declared", () => {
    assert.deepEqual(isolateLauncher(launch("uvx", "tool")).env, { UV_NO_CONFIG: "1" });
    assert.deepEqual(isolateLauncher(launch("uv", "tool", "run", "x")).env, { UV_NO_CONFIG: "1" });
    assert.deepEqual(isolateLauncher({ ...launch("uvx", "t"), env: { UV_NO_CONFIG: "0" } }).env, {
      UV_NO_CONFIG: "0",
    });
    assert.deepEqual(isolateLauncher(launch("uv", "run", "server.py")).env, {});
  });
  await t.step("prepareLaunch() isolates a profile's launch, sandboxed or not", async () => {
    const prepared = await prepareLaunch(launch("uvx", "mcp-server-time"), {
      cwd: "/",
      callerEnv: { PATH: "/usr/bin" },
    });
    assert.equal(prepared.transport === "stdio" && prepared.env.UV_NO_CONFIG, "1");
    const npx = await prepareLaunch(launch("npx", "-y", "pkg"), {
      cwd: "/",
      callerEnv: { PATH: "/usr/bin" },
    });
    assert.deepEqual(npx.transport === "stdio" && npx.args.slice(0, 2), [
      "--prefix",
      "/dev/null",
    ]);
  });
});
