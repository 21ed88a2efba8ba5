/**
 * Real npm servers under `--sandbox` (issue #12, "narrower must not mean
 * unusable"): server-filesystem started as `mcp+npx://` from npm's cache and
 * as `mcp+node://…/node_modules/…/dist/index.js`, and server-everything as
 * `mcp+node://`, give the same records sandboxed as unsandboxed. An npx
 * package that is not cached fails at once without network, naming both
 * ways out; with `--sandbox-net` npx fetches it into jn's own cache for the
 * server, from which the next run starts offline. Needs bubblewrap and the
 * npm registry (for the one-time setup); ignored, saying so, without them.
 */

import assert from "node:assert/strict";
import { serverEverything } from "../remote/support.ts";
import { npmGlobalConfig } from "../../lib/sandbox/npm_config.ts";
import { baseEnv, runJnHere, type RunOptions, tempDir } from "../helpers.ts";
import { requireBwrap } from "./bwrap_support.ts";
import { FILESYSTEM_SPEC, serverFilesystem } from "./npm_servers.ts";

const NO_BWRAP = await requireBwrap("tests/sandbox/npm_servers_test.ts");
const FILESYSTEM = NO_BWRAP ? undefined : await serverFilesystem();
const EVERYTHING = NO_BWRAP ? undefined : await serverEverything();

/** jn in this process: the sandbox under test is the server's (bwrap), not jn's own. */
async function jn(args: string[], options: Omit<RunOptions, "permissions">) {
  return await runJnHere(args, { timeoutMs: 60_000, ...options });
}

/** A directory with a few files for server-filesystem to list and read. */
async function dataDir(): Promise<string> {
  const data = await tempDir("jn-npm-data-");
  await Deno.writeTextFile(`${data}/a.txt`, "alpha\n");
  await Deno.mkdir(`${data}/sub`);
  await Deno.writeTextFile(`${data}/sub/b.md`, "# beta\n");
  return data;
}

/**
 * The calls whose records must be the same sandboxed and unsandboxed: the
 * tool list, a file read and a recursive listing (list_directory runs
 * sandboxed in the not-cached test below).
 */
function calls(data: string): string[] {
  const q = (args: Record<string, string>) =>
    new URLSearchParams({ command: data, ...args }).toString();
  return [
    q({ list: "tools" }),
    q({ tool: "read_text_file", path: `${data}/sub/b.md` }),
    q({ tool: "directory_tree", path: data }),
  ];
}

Deno.test({
  name: "server-filesystem gives the same records under --sandbox (mcp+npx and mcp+node)",
  ignore: FILESYSTEM === undefined,
  fn: async (t) => {
    const { home, script } = FILESYSTEM!;
    const data = await dataDir();
    const opts = { env: { HOME: home }, cwd: data };
    try {
      // The unsandboxed records, once per call (both launchers start the same
      // dist/index.js); each sandboxed launcher must give exactly them.
      for (const query of calls(data)) {
        await t.step(decodeURIComponent(query), async () => {
          const open = await jn(["cat", `mcp+node://${script}?${query}`], opts);
          assert.equal(open.code, 0, open.stderr);
          assert.notEqual(open.stdout, "");
          for (const base of [`mcp+npx://${FILESYSTEM_SPEC}`, `mcp+node://${script}`]) {
            const boxed = await jn(["cat", "--sandbox-read", data, "-q", `${base}?${query}`], opts);
            assert.equal(boxed.code, 0, `${base}: ${boxed.stderr}`);
            assert.equal(boxed.stdout, open.stdout, base);
          }
        });
      }
      await t.step("an allowed directory it was not granted: hidden, with a notice", async () => {
        const hidden = `${home}/.npm/_cacache`;
        const query = new URLSearchParams({
          command: hidden,
          tool: "list_directory",
          path: hidden,
        });
        const run = await jn(["cat", "--sandbox", `mcp+npx://${FILESYSTEM_SPEC}?${query}`], opts);
        // It refuses to start without an accessible directory: exit 4, the flag named.
        assert.equal(run.code, 4, run.stderr);
        assert.match(
          run.stderr,
          new RegExp(
            `^jn: the sandbox hides "${hidden}", an argument of the server: grant it with --sandbox-read ${hidden} `,
            "m",
          ),
        );
        // The server's own word on what it needs is no ground for a flag: data is not package code.
        const hint = run.stderr.split("\n").find((line) => line.startsWith("hint: "));
        assert.match(hint!, /^hint: the server runs sandboxed \(no network; /);
      });
    } finally {
      await Deno.remove(data, { recursive: true });
    }
  },
});

Deno.test({
  name: "server-everything gives the same records under --sandbox (mcp+node)",
  ignore: EVERYTHING === undefined,
  fn: async (t) => {
    const base = `mcp+node://${EVERYTHING}`;
    for (const query of ["list=tools", "tool=get-sum&a=2&b=3"]) {
      await t.step(query, async () => {
        const open = await jn(["cat", `${base}?${query}`], {});
        assert.equal(open.code, 0, open.stderr);
        const boxed = await jn(["cat", "--sandbox", "-q", `${base}?${query}`], {});
        assert.equal(boxed.code, 0, boxed.stderr);
        assert.notEqual(boxed.stdout, "");
        assert.equal(boxed.stdout, open.stdout);
      });
    }
  },
});

Deno.test({
  name:
    "an npx package that is not cached: no network fails at once, --sandbox-net fetches it into jn's cache",
  ignore: FILESYSTEM === undefined,
  fn: async (t) => {
    const home = await tempDir("jn-npm-home-");
    const cache = await tempDir("jn-npm-xdg-");
    const data = await dataDir();
    const opts = { env: { HOME: home, XDG_CACHE_HOME: cache }, cwd: data };
    const uri = `mcp+npx://${FILESYSTEM_SPEC}?${new URLSearchParams({
      command: data,
      tool: "list_directory",
      path: data,
    })}`;
    try {
      await t.step(
        "without network: exit 6 at once (no --timeout needed), both ways out named",
        async () => {
          const run = await jn(["cat", "--sandbox-read", data, uri], opts);
          // npm's global config, named again after --prefix (lib/sandbox/npm_config.ts).
          const config = npmGlobalConfig({ PATH: baseEnv().PATH });
          const global = config ? ` --globalconfig ${config}` : "";
          assert.equal(run.code, 6);
          assert.equal(run.stdout, "");
          assert.equal(
            run.stderr,
            `jn: Cannot sandbox "npx ${FILESYSTEM_SPEC}": ${FILESYSTEM_SPEC} is not in npm's cache and the sandbox has no network to download it\n` +
              "hint: let npx download it inside the sandbox with --sandbox-net, or fetch it once, " +
              "unsandboxed (no package code runs): npm exec --yes --ignore-scripts --script-shell=/bin/sh " +
              `--prefix /dev/null${global} --cache ${home}/.npm --package=${FILESYSTEM_SPEC} -- /bin/true\n`,
          );
        },
      );
      await t.step(
        "with --sandbox-net: npx fetches it into jn's own cache for this server",
        async () => {
          const run = await jn(["cat", "--sandbox-net", "--sandbox-read", data, "-q", uri], opts);
          assert.equal(run.code, 0, run.stderr);
          assert.match(run.stdout, /\[FILE\] a\.txt/);
          const [own] = [...Deno.readDirSync(`${cache}/jn/sandbox`)].map((entry) => entry.name);
          assert.match(own, /^npx-[0-9a-f]{16}$/);
          // Nothing went to the host's npm cache.
          await assert.rejects(Deno.stat(`${home}/.npm`), Deno.errors.NotFound);
        },
      );
      await t.step("the next run starts from jn's cache, offline", async () => {
        const run = await jn(["cat", "--sandbox-read", data, "-q", uri], opts);
        assert.equal(run.code, 0, run.stderr);
        assert.match(run.stdout, /\[FILE\] a\.txt/);
      });
    } finally {
      for (const dir of [home, cache, data]) await Deno.remove(dir, { recursive: true });
    }
  },
});
