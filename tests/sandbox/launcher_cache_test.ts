/**
 * Launcher caches are not a persistence channel (issue #12): under the
 * sandbox nothing a server writes to npm's cache, uv's cache or the Deno
 * cache (which jn itself runs from) persists on the host, and a cached npx
 * package starts offline. Black-box with the probe server as an npx package,
 * as a fake `uvx`, and under `deno run -A`. Needs bubblewrap; ignored,
 * saying so, without it.
 */

import assert from "node:assert/strict";
import { npxHash } from "../../lib/sandbox/npx_cache.ts";
import { DENO_DIR, exists, tempDir } from "../helpers.ts";
import { requireBwrap } from "./bwrap_support.ts";
import { cat, PROBE, probeAt, query } from "./probe.ts";

const NO_BWRAP = await requireBwrap("tests/sandbox/launcher_cache_test.ts");

Deno.test({
  name: "nothing a sandboxed server writes to a launcher's cache persists",
  ignore: NO_BWRAP,
  fn: async (t) => {
    const home = await tempDir("jn-reach-home-");
    try {
      await t.step("npx: a cached package starts offline, its cache read-only", async () => {
        // The probe as an npx install of "jn-probe@1.0.0", laid out as npx leaves it.
        const spec = "jn-probe@1.0.0";
        const tree = `${home}/.npm/_npx/${await npxHash([spec])}`;
        await Deno.mkdir(`${tree}/node_modules/jn-probe`, { recursive: true });
        await Deno.writeTextFile(
          `${tree}/package.json`,
          JSON.stringify({ _npx: { packages: [spec] } }),
        );
        await Deno.writeTextFile(
          `${tree}/node_modules/jn-probe/package.json`,
          JSON.stringify({ name: "jn-probe", version: "1.0.0", bin: { "jn-probe": "index.mjs" } }),
        );
        const bin = await probeAt(`${tree}/node_modules/jn-probe/index.mjs`);
        await Deno.mkdir(`${home}/.npm/_cacache`);
        const uri = (args: Record<string, string>) => `mcp+npx://${spec}?${query(args)}`;
        const opts = { env: { HOME: home }, cwd: home, timeoutMs: 30_000 };

        const echo = await cat(uri({ tool: "echo", text: "offline" }), ["--sandbox", "-q"], opts);
        assert.equal(echo.code, 0, echo.stderr);
        assert.equal(echo.record.text, "offline");

        const own = await cat(uri({ tool: "write_file", path: bin, text: "pwned" }), [
          "--sandbox",
          "-q",
        ], opts);
        assert.equal(own.code, 1, own.stderr);
        assert.match(own.record.text, /EROFS: read-only file system/);
        const other = `${home}/.npm/_cacache/planted`;
        const cache = await cat(uri({ tool: "write_file", path: other, text: "x" }), [
          "--sandbox",
          "-q",
        ], opts);
        assert.equal(cache.code, 1, cache.stderr);
        assert.match(cache.record.text, /ENOENT|EROFS/);
        assert.equal(await exists(other), false);
        assert.equal(await Deno.readTextFile(bin), await Deno.readTextFile(PROBE));
      });

      await t.step(
        "uvx: uv's caches are jn's own for this server, offline; the host's untouched",
        async () => {
          await probeAt(`${home}/tools/bin/uvx`); // a fake uvx: the probe itself
          await Deno.mkdir(`${home}/.cache/uv`, { recursive: true });
          const opts = {
            env: { HOME: home, PATH: `${home}/tools/bin:${Deno.env.get("PATH")}` },
            cwd: home,
          };
          const env = await cat("mcp+uvx://some-tool?tool=env", ["--sandbox", "-q"], opts);
          assert.equal(env.code, 0, env.stderr);
          const seen = JSON.parse(env.record.text);
          assert.match(
            seen.UV_CACHE_DIR,
            new RegExp(`^${home}/\\.cache/jn/sandbox/uv-[0-9a-f]{16}/uv/cache$`),
          );
          assert.equal(seen.UV_OFFLINE, "1");
          assert.ok((await Deno.stat(seen.UV_CACHE_DIR.replace(/\/cache$/, ""))).isDirectory);

          const planted = `${home}/.cache/uv/planted`;
          const write = await cat(
            `mcp+uvx://some-tool?${query({ tool: "write_file", path: planted, text: "x" })}`,
            ["--sandbox", "-q"],
            opts,
          );
          assert.equal(write.code, 1, write.stderr);
          assert.equal(await exists(planted), false);
          const online = await cat("mcp+uvx://some-tool?tool=env", ["--sandbox-net", "-q"], opts);
          assert.equal(JSON.parse(online.record.text).UV_OFFLINE, undefined);
        },
      );

      await t.step("uvx offline without the package: the hint names --sandbox-net", async () => {
        // A fake uvx that fails the way uv does with UV_OFFLINE=1 and an empty cache.
        const bin = `${home}/offline/bin`;
        await Deno.mkdir(bin, { recursive: true });
        await Deno.writeTextFile(
          `${bin}/uvx`,
          '#!/bin/sh\necho "error: Network connectivity is disabled, but the requested data ' +
            "wasn't found in the cache for: https://pypi.org/simple/some-tool/\" >&2\nexit 2\n",
        );
        await Deno.chmod(`${bin}/uvx`, 0o755);
        const run = await cat("mcp+uvx://some-tool?tool=echo", ["--sandbox", "-q"], {
          env: { HOME: home, PATH: `${bin}:${Deno.env.get("PATH")}` },
          cwd: home,
        });
        assert.equal(run.code, 4);
        assert.match(
          run.stderr,
          /\nhint: the launcher needed the network to fetch the package: allow it with --sandbox-net /,
        );
      });

      await t.step("deno: its cache (which jn itself runs from) is read-only", async () => {
        const profiles = `${home}/.local/jn/profiles/mcp/denoall`;
        await Deno.mkdir(profiles, { recursive: true });
        // -A: the server may write anywhere Deno lets it; only the sandbox stands between.
        await Deno.writeTextFile(
          `${profiles}/_meta.json`,
          JSON.stringify({
            command: "deno",
            args: ["run", "-A", PROBE],
            sandbox: true,
            env_passthrough: ["DENO_DIR"],
          }),
        );
        const planted = `${DENO_DIR}/jn-sandbox-planted-${crypto.randomUUID()}`;
        try {
          const write = await cat(
            `@denoall?${query({ tool: "write_file", path: planted, text: "x" })}`,
            ["-q"],
            {
              env: { HOME: home },
              cwd: home,
            },
          );
          assert.equal(write.code, 1, write.stderr);
          assert.match(write.record.text, /Read-only file system|EROFS/);
          assert.equal(await exists(planted), false);
        } finally {
          await Deno.remove(planted).catch(() => {});
        }
      });
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  },
});
