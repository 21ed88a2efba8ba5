/**
 * What a confined server reaches when the host is laid out against it (red
 * team, issue #12), black-box with the probe server: a repository's
 * `node_modules -> /`, a symlink a server planted in its own npx cache, a
 * trusted project profile whose `cwd` is a symlink to `$HOME`, a `cargo
 * install`ed server next to `~/.cargo/credentials.toml`, and `/etc/shadow`
 * when jn runs as root. Needs bubblewrap; ignored, saying so, without it.
 */

import assert from "node:assert/strict";
import { jnCache } from "../../lib/sandbox/launcher_state.ts";
import { npxHash } from "../../lib/sandbox/npx_cache.ts";
import { runJn, tempDir } from "../helpers.ts";
import { requireBwrap } from "./bwrap_support.ts";
import { cat, probeAt, query } from "./probe.ts";

const NO_BWRAP = await requireBwrap("tests/sandbox/symlink_reach_test.ts");

/** A temporary HOME holding an SSH key; `fn` gets it, it is removed after. */
async function withHome(fn: (home: string, key: string) => Promise<void>): Promise<void> {
  const home = await tempDir("jn-symlink-home-");
  try {
    await Deno.mkdir(`${home}/.ssh`);
    await Deno.writeTextFile(`${home}/.ssh/id_ed25519`, "SECRET-KEY");
    await fn(home, `${home}/.ssh/id_ed25519`);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

Deno.test({
  name: "a repository's node_modules -> / exposes nothing of the host",
  ignore: NO_BWRAP,
  fn: () =>
    withHome(async (home, key) => {
      const repo = `${home}/repo`;
      await probeAt(`${repo}/packages/srv/server.mjs`);
      await Deno.writeTextFile(`${repo}/packages/srv/package.json`, '{"name":"srv"}');
      await Deno.symlink("/", `${repo}/node_modules`);
      const opts = { env: { HOME: home }, cwd: repo };
      const uri = (args: Record<string, string>) =>
        `mcp+node://./packages/srv/server.mjs?${query(args)}`;

      const read = await cat(uri({ tool: "read_file", path: `${repo}/node_modules${key}` }), [
        "--sandbox",
      ], opts);
      assert.equal(read.code, 1, read.stderr);
      assert.match(read.record.text, /ENOENT/);
      assert.match(
        read.stderr,
        new RegExp(
          `^jn: jn leaves out ${repo}/node_modules: it is a symlink to /, which jn never gives on its own$`,
          "m",
        ),
      );
      for (const dir of ["run", "proc/1/root", "root"]) {
        const list = await cat(uri({ tool: "list_dir", path: `${repo}/node_modules/${dir}` }), [
          "--sandbox",
          "-q",
        ], opts);
        assert.equal(list.code, 1, `${dir}: ${list.record?.text}`);
      }
    }),
});

Deno.test({
  name: "a legitimate symlink still works: its real path bound, the link re-created",
  ignore: NO_BWRAP,
  fn: () =>
    withHome(async (home, key) => {
      // A workspace whose node_modules is shared from elsewhere, and a data link declared.
      const repo = `${home}/repo`;
      const shared = `${home}/shared/nm`;
      await Deno.mkdir(`${shared}/jn-dep`, { recursive: true });
      await Deno.writeTextFile(
        `${shared}/jn-dep/package.json`,
        '{"name":"jn-dep","type":"module","main":"index.js"}',
      );
      await Deno.writeTextFile(`${shared}/jn-dep/index.js`, "export default 1;\n");
      await probeAt(`${repo}/packages/srv/probe.mjs`);
      await Deno.writeTextFile(`${repo}/packages/srv/package.json`, '{"type":"module"}');
      await Deno.writeTextFile(
        `${repo}/packages/srv/server.mjs`,
        'import "jn-dep";\nimport "./probe.mjs";\n',
      );
      await Deno.symlink("../shared/nm", `${repo}/node_modules`);
      await Deno.mkdir(`${home}/datasets`);
      await Deno.writeTextFile(`${home}/datasets/a.csv`, "1,2\n");
      await Deno.symlink("../datasets", `${repo}/data`);
      const opts = { env: { HOME: home }, cwd: repo };

      const run = await cat(
        `mcp+node://./packages/srv/server.mjs?${
          query({ tool: "read_file", path: `${repo}/data/a.csv` })
        }`,
        ["--sandbox-read", "./data", "--sandbox-read", "./packages"],
        opts,
      );
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.record.text, "1,2\n");
      const secret = await cat(
        `mcp+node://./packages/srv/server.mjs?${query({ tool: "read_file", path: key })}`,
        ["--sandbox-read", "./data", "-q"],
        opts,
      );
      assert.equal(secret.code, 1, secret.stderr);
    }),
});

Deno.test({
  name: "a symlink a server planted in its own npx cache is not followed by later runs",
  ignore: NO_BWRAP,
  fn: () =>
    withHome(async (home, key) => {
      const spec = "evil-mcp-pkg@1.0.0";
      const own = `${await jnCache({ callerEnv: { HOME: home }, host: { os: "linux" } }, "npx", [
        spec,
      ])}/npm`;
      const install = `${own}/_npx/${await npxHash([spec])}`;
      // What npm installed during the server's --sandbox-net run…
      await probeAt(`${install}/node_modules/evil-mcp-pkg/server.mjs`);
      await Deno.writeTextFile(
        `${install}/node_modules/evil-mcp-pkg/package.json`,
        JSON.stringify({ name: "evil-mcp-pkg", version: "1.0.0", bin: "server.mjs" }),
      );
      await Deno.writeTextFile(
        `${install}/package.json`,
        JSON.stringify({ _npx: { packages: [spec] } }),
      );
      // …and what the server planted in its writable cache meanwhile.
      await Deno.symlink(home, `${own}/_npx/node_modules`);
      await Deno.symlink(home, `${install}/node_modules/evil-mcp-pkg/node_modules`);

      const opts = { env: { HOME: home }, cwd: "/" };
      for (const path of [`${own}/_npx/node_modules/.ssh/id_ed25519`, key]) {
        const run = await cat(`mcp+npx://${spec}?${query({ tool: "read_file", path })}`, [
          "--sandbox",
          "-q",
        ], opts);
        assert.equal(run.code, 1, run.stderr);
        assert.match(run.record.text, /ENOENT/, path);
      }
      const echo = await cat(`mcp+npx://${spec}?tool=echo&text=still-runs`, ["--sandbox"], opts);
      assert.equal(echo.record.text, "still-runs", echo.stderr);
    }),
});

Deno.test({
  name: "a trusted project profile whose cwd is a symlink to $HOME: exit 6, nothing bound",
  ignore: NO_BWRAP,
  fn: () =>
    withHome(async (home) => {
      const repo = `${home}/repo`;
      const profile = `${repo}/.jn/profiles/mcp/tool`;
      await probeAt(`${profile}/server.mjs`);
      await Deno.symlink("..", `${repo}/data`);
      await Deno.writeTextFile(
        `${profile}/_meta.json`,
        JSON.stringify({
          command: "node",
          args: [`${profile}/server.mjs`],
          cwd: "../../../../data",
          sandbox: true,
        }),
      );
      const opts = { env: { HOME: home }, cwd: repo };
      const trust = await runJn(["profile", "trust", "@tool"], opts);
      assert.equal(trust.code, 0, trust.stderr);
      const run = await cat("@tool?tool=read_file&path=.ssh/id_ed25519", [], opts);
      assert.equal(run.code, 6, run.stderr);
      assert.equal(run.stdout, "");
      assert.equal(
        run.stderr,
        `jn: Cannot sandbox "@tool": its working directory "${repo}/data" is a symlink to "${home}"\n` +
          "hint: jn does not follow a symlink to a broad or credential directory: if you mean it, " +
          `--sandbox-read ${home} gives it; else fix "cwd" in the profile\n`,
      );
    }),
});

Deno.test({
  name: "a cargo-installed server runs without ~/.cargo's credentials",
  ignore: NO_BWRAP,
  fn: () =>
    withHome(async (home) => {
      const bin = await probeAt(`${home}/.cargo/bin/mcp-probe`);
      await Deno.writeTextFile(`${home}/.cargo/credentials.toml`, 'token = "cio_SECRET"\n');
      await Deno.mkdir(`${home}/.local/jn/profiles/mcp/p`, { recursive: true });
      await Deno.writeTextFile(
        `${home}/.local/jn/profiles/mcp/p/_meta.json`,
        JSON.stringify({ command: "mcp-probe", sandbox: true }),
      );
      const opts = {
        env: { HOME: home, PATH: `${home}/.cargo/bin:${Deno.env.get("PATH")}` },
        cwd: "/",
      };
      const echo = await cat("@p?tool=echo&text=runs", ["-q"], opts);
      assert.equal(echo.record?.text, "runs", echo.stderr);
      const creds = await cat(
        `@p?${query({ tool: "read_file", path: `${home}/.cargo/credentials.toml` })}`,
        [
          "-q",
        ],
        opts,
      );
      assert.equal(creds.code, 1, creds.stderr);
      assert.match(creds.record.text, /ENOENT/);
      const own = await cat(`@p?${query({ tool: "read_file", path: bin })}`, ["-q"], opts);
      assert.equal(own.code, 0, own.stderr);
    }),
});

const ROOT_SHADOW = (() => {
  try {
    Deno.readTextFileSync("/etc/shadow");
    return true;
  } catch {
    return false;
  }
})();
if (!NO_BWRAP && !ROOT_SHADOW) {
  // deno-lint-ignore no-console
  console.error(
    "SKIPPED tests/sandbox/symlink_reach_test.ts: /etc/shadow (the tests do not run as root; " +
      "run them as root to check the mask)",
  );
}

Deno.test({
  name: "when jn runs as root, /etc/shadow and the SSH host keys are masked",
  ignore: NO_BWRAP || !ROOT_SHADOW,
  fn: async () => {
    const dir = await tempDir("jn-root-");
    try {
      const script = await probeAt(`${dir}/srv/server.mjs`);
      const open = await cat(`mcp+node://${script}?tool=read_file&path=/etc/shadow`, [], {
        cwd: "/",
      });
      assert.match(open.record.text, /^root:/);
      const boxed = await cat(`mcp+node://${script}?tool=read_file&path=/etc/shadow`, [
        "--sandbox",
        "-q",
      ], { cwd: "/" });
      assert.equal(boxed.code, 1, boxed.stderr);
      assert.match(boxed.record.text, /EACCES/);
      const passwd = await cat(`mcp+node://${script}?tool=read_file&path=/etc/passwd`, [
        "--sandbox",
        "-q",
      ], { cwd: "/" });
      assert.match(passwd.record.text, /^root:/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
