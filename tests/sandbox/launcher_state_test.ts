/**
 * Launcher caches under the sandbox, against a fake file system: an npx
 * package already in npm's cache starts directly from it (read-only), one
 * that is not fails at once without network and gets jn's own per-server
 * cache with network; uv gets jn's own caches; Deno's cache is read-only.
 */

import assert from "node:assert/strict";
import { SandboxError } from "../../lib/errors.ts";
import type { StdioLaunch } from "../../lib/launch/spec.ts";
import { adaptLauncher, jnCache, npxFetchCommand } from "../../lib/sandbox/launcher_state.ts";
import { npxHash, parseNpxArgs } from "../../lib/sandbox/npx_cache.ts";
import { fakeHost, type FakeTree } from "./fake_host.ts";

const CALLER = { HOME: "/home/me", PATH: "/usr/bin" };

function npx(...args: string[]): StdioLaunch {
  return { transport: "stdio", command: "npx", args, env: {}, label: "npx test" };
}

/** An npx install of `spec` (package `name`, bin `bin`) under `cache`, as npx leaves it. */
async function npxTree(cache: string, specs: string[], name: string, bin: string, head: string) {
  const tree = `${cache}/_npx/${await npxHash(specs)}`;
  const files: Record<string, string> = {
    [`${tree}/package.json`]: JSON.stringify({ _npx: { packages: specs } }),
    [`${tree}/node_modules/${name}/package.json`]: JSON.stringify({
      name,
      bin: { [name.replace(/^@[^/]+\//, "")]: bin },
    }),
    [`${tree}/node_modules/${name}/${bin}`]: head,
  };
  return { tree, files };
}

Deno.test("npxHash() is npx's own directory name (libnpmexec: sha512 of the specs, 16 hex)", async () => {
  // Checked against a real `npm exec --package=… -- true` (npm 11.19.1).
  assert.equal(
    await npxHash(["@modelcontextprotocol/server-filesystem@2026.8.31"]),
    "68b53d3fd47bf8db",
  );
  assert.equal(await npxHash(["b", "a"]), await npxHash(["a", "b"]));
});

Deno.test("parseNpxArgs() follows the npx argv jn and profiles write", () => {
  assert.deepEqual(parseNpxArgs(["-y", "@s/p@1", "--stdio"]), {
    packages: ["@s/p@1"],
    args: ["--stdio"],
  });
  assert.deepEqual(parseNpxArgs(["--yes", "--package=a", "-p", "b", "cmd", "x"]), {
    packages: ["a", "b"],
    command: "cmd",
    args: ["x"],
  });
  assert.deepEqual(parseNpxArgs(["pkg@^1.2"]), { packages: ["pkg@^1.2"], args: [] });
  // jn's own isolation (lib/launch/isolation.ts) does not change where npx caches.
  assert.deepEqual(parseNpxArgs(["--prefix", "/dev/null", "-y", "p@1", "--prefix", "x"]), {
    packages: ["p@1"],
    args: ["--prefix", "x"],
  });
  for (
    const args of [["-y", "github:u/r"], ["-y", "./dir"], ["--call", "x"], ["-y"], [
      "--registry",
      "r",
      "p",
    ]]
  ) {
    assert.equal(parseNpxArgs(args), undefined, args.join(" "));
  }
});

Deno.test("npx under the sandbox", async (t) => {
  const spec = "@scope/server@1.0.0";
  const cached = await npxTree(
    "/home/me/.npm",
    [spec],
    "@scope/server",
    "dist/index.js",
    "#!/usr/bin/env node\n",
  );
  const adapt = (tree: FakeTree, launch: StdioLaunch, network = false) =>
    adaptLauncher(launch, {
      network,
      callerEnv: CALLER,
      host: fakeHost(tree),
      serverPath: CALLER.PATH,
    });

  await t.step(
    "cached in ~/.npm: node <bin> directly, the install read-only, nothing writable",
    async () => {
      const { launch, mounts } = await adapt({ files: cached.files }, npx("-y", spec, "--flag"));
      assert.equal(launch.command, "node");
      assert.deepEqual(launch.args, [
        `${cached.tree}/node_modules/@scope/server/dist/index.js`,
        "--flag",
      ]);
      assert.equal(launch.env.PATH, `${cached.tree}/node_modules/.bin:/usr/bin`);
      assert.deepEqual(mounts, {
        read: [`${cached.tree}/node_modules`],
        write: [],
        scratch: [],
        trees: [cached.tree],
      });
    },
  );
  await t.step("a bin that is not a Node script runs itself", async () => {
    const native = await npxTree("/home/me/.npm", ["tool"], "tool", "bin/tool", "#!/bin/sh\n");
    const { launch } = await adapt({ files: native.files }, npx("-y", "tool"));
    assert.equal(launch.command, `${native.tree}/node_modules/tool/bin/tool`);
    assert.deepEqual(launch.args, []);
  });
  await t.step("an install without npx's record (interrupted) does not count", async () => {
    const files = { ...cached.files };
    delete files[`${cached.tree}/package.json`];
    await assert.rejects(() => adapt({ files }, npx("-y", spec)), SandboxError);
  });
  await t.step("not cached, no network: a SandboxError at once, with both ways out", async () => {
    await assert.rejects(
      () => adapt({ files: {} }, npx("-y", spec)),
      (error) =>
        error instanceof SandboxError &&
        error.message ===
          `Cannot sandbox "npx test": ${spec} is not in npm's cache and the sandbox has no network to download it` &&
        error.hint ===
          "let npx download it inside the sandbox with --sandbox-net, or fetch it once, " +
            "unsandboxed (no package code runs): npm exec --yes --ignore-scripts " +
            "--script-shell=/bin/sh --prefix /dev/null --cache /home/me/.npm " +
            `--package=${spec} -- /bin/true`,
    );
  });
  await t.step(
    "not cached, with network: npx runs with jn's own cache for this server",
    async () => {
      const own = (await jnCache({ callerEnv: CALLER, host: { os: "linux" } }, "npx", [spec]))!;
      assert.match(own, /^\/home\/me\/\.cache\/jn\/sandbox\/npx-[0-9a-f]{16}$/);
      const { launch, mounts } = await adapt({ files: {} }, npx("-y", spec), true);
      assert.equal(launch.command, "npx");
      assert.equal(launch.env.npm_config_cache, `${own}/npm`);
      assert.equal(launch.env.npm_config_offline, undefined);
      assert.deepEqual(mounts.write, [`${own}/npm`]);
    },
  );
  await t.step("what that run installed is found in jn's cache next time", async () => {
    const own = (await jnCache({ callerEnv: CALLER, host: { os: "linux" } }, "npx", [spec]))!;
    const mine = await npxTree(
      `${own}/npm`,
      [spec],
      "@scope/server",
      "dist/index.js",
      "#!/usr/bin/env node\n",
    );
    const { launch, mounts } = await adapt({ files: mine.files }, npx("-y", spec));
    assert.equal(launch.command, "node");
    assert.deepEqual(mounts.read, [`${mine.tree}/node_modules`]);
  });
  await t.step("each server has its own cache", async () => {
    const a = await jnCache({ callerEnv: CALLER, host: { os: "linux" } }, "npx", ["a"]);
    const b = await jnCache({ callerEnv: CALLER, host: { os: "linux" } }, "npx", ["b"]);
    assert.notEqual(a, b);
  });
  await t.step(
    "an npx argv jn does not follow: npm offline in the sandbox, jn's cache",
    async () => {
      const { launch, mounts } = await adapt({ files: {} }, npx("--registry", "https://r", "pkg"));
      assert.equal(launch.command, "npx");
      assert.equal(launch.env.npm_config_offline, "true");
      assert.equal(mounts.write.length, 1);
      assert.match(mounts.write[0], /^\/home\/me\/\.cache\/jn\/sandbox\/npx-/);
    },
  );
  await t.step("the fetch command quotes what a shell would change", () => {
    assert.equal(
      npxFetchCommand({ packages: ["pkg@>=1 <2"], args: [] }, "/c"),
      "npm exec --yes --ignore-scripts --script-shell=/bin/sh --prefix /dev/null --cache /c " +
        "--package='pkg@>=1 <2' -- /bin/true",
    );
  });
});

Deno.test("uvx under the sandbox: jn's own caches, offline without network", async () => {
  const launch: StdioLaunch = {
    transport: "stdio",
    command: "uvx",
    args: ["mcp-server-time"],
    env: {},
    label: "uvx mcp-server-time",
  };
  const host = fakeHost({ dirs: ["/home/me/.cache/uv"] });
  const offline = await adaptLauncher(launch, { network: false, callerEnv: CALLER, host });
  const root = offline.launch.env.UV_CACHE_DIR.replace(/\/cache$/, "");
  assert.match(root, /^\/home\/me\/\.cache\/jn\/sandbox\/uv-[0-9a-f]{16}\/uv$/);
  assert.deepEqual(offline.launch.env, {
    UV_CACHE_DIR: `${root}/cache`,
    UV_TOOL_DIR: `${root}/tools`,
    UV_TOOL_BIN_DIR: `${root}/bin`,
    UV_PYTHON_INSTALL_DIR: `${root}/python`,
    UV_OFFLINE: "1",
  });
  assert.deepEqual(offline.mounts, { read: [], write: [root], scratch: [] });
  const online = await adaptLauncher(launch, { network: true, callerEnv: CALLER, host });
  assert.equal(online.launch.env.UV_OFFLINE, undefined);
});

Deno.test("deno under the sandbox: its cache read-only, or an empty throw-away one", async () => {
  const launch: StdioLaunch = {
    transport: "stdio",
    command: "deno",
    args: ["run", "/s/m.ts"],
    env: {},
    label: "deno m.ts",
  };
  const present = await adaptLauncher(launch, {
    network: true,
    callerEnv: CALLER,
    host: fakeHost({ dirs: ["/home/me/.cache/deno"] }),
  });
  assert.deepEqual(present.mounts, { read: ["/home/me/.cache/deno"], write: [], scratch: [] });
  const missing = await adaptLauncher(launch, {
    network: true,
    callerEnv: CALLER,
    host: fakeHost({}, { env: { HOME: "/home/me", DENO_DIR: "/d" } }),
  });
  assert.deepEqual(missing.mounts, { read: [], write: [], scratch: ["/d"] });
});
