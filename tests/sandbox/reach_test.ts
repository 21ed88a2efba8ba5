/**
 * What a confined server can reach (issue #12), black-box with the probe
 * server copied where each case needs it: a script in $HOME does not expose
 * $HOME; an argument `/` or a socket path is not bound; the server has its
 * own /proc; a hidden working directory is an error when the server uses it
 * and a notice otherwise; a start that fails on a hidden path names the path
 * and the flag that shows it. Needs bubblewrap; ignored, saying so, without
 * it.
 */

import assert from "node:assert/strict";
import { tempDir } from "../helpers.ts";
import { requireBwrap } from "./bwrap_support.ts";
import { cat, probeAt, query } from "./probe.ts";

const NO_BWRAP = await requireBwrap("tests/sandbox/reach_test.ts");

Deno.test({
  name: "implicit mounts give the server's files, not their neighbours",
  ignore: NO_BWRAP,
  fn: async (t) => {
    const home = await tempDir("jn-reach-home-");
    const opts = { env: { HOME: home }, cwd: home };
    try {
      await Deno.writeTextFile(`${home}/secret.txt`, "the secret");
      const script = await probeAt(`${home}/server.mjs`);
      const read = (path: string, flags: string[] = ["--sandbox"]) =>
        cat(`mcp+node://${script}?${query({ tool: "read_file", path })}`, flags, opts);

      await t.step("a script in $HOME: its neighbours stay hidden", async () => {
        const open = await read(`${home}/secret.txt`, []);
        assert.equal(open.record.text, "the secret");
        const boxed = await read(`${home}/secret.txt`);
        assert.equal(boxed.code, 1);
        assert.match(boxed.record.text, /ENOENT/);
      });

      await t.step("an argument / does not expose the file system", async () => {
        const run = await cat(
          `mcp+node://${script}?${
            query({ command: "/", tool: "read_file", path: `${home}/secret.txt` })
          }`,
          ["--sandbox"],
          opts,
        );
        assert.equal(run.code, 1, run.stderr);
        assert.match(run.record.text, /ENOENT/);
        assert.match(
          run.stderr,
          /^jn: the sandbox hides "\/", an argument of the server: grant it with --sandbox-read \/ /m,
        );
      });

      await t.step("an argument naming a socket does not reach it", async () => {
        const dir = await tempDir("jn-reach-sock-");
        const socket = `${dir}/host.sock`;
        const listener = Deno.listen({ transport: "unix", path: socket });
        const accepted = (async () => {
          for await (const conn of listener) conn.close();
        })();
        try {
          const uri = `mcp+node://${script}?${
            query({ command: socket, tool: "connect_socket", path: socket })
          }`;
          const open = await cat(uri, [], opts);
          assert.equal(open.record.text, "connected", open.stderr);
          const boxed = await cat(uri, ["--sandbox"], opts);
          assert.equal(boxed.code, 1);
          assert.match(boxed.record.text, /ENOENT/);
          assert.match(
            boxed.stderr,
            new RegExp(`the sandbox hides "${socket}" \\(a socket or device\\)`),
          );
        } finally {
          listener.close();
          await accepted;
          await Deno.remove(dir, { recursive: true });
        }
      });

      await t.step("the server has its own /proc: no host process visible", async () => {
        const sleeper = new Deno.Command("sleep", {
          args: ["4242"],
          stdout: "null",
          stderr: "null",
        })
          .spawn();
        try {
          const path = `/proc/${sleeper.pid}/cmdline`;
          const open = await read(path, []);
          assert.match(open.record.text, /sleep.4242/);
          const boxed = await read(path);
          assert.equal(boxed.code, 1);
          assert.match(boxed.record.text, /ENOENT/);
          const list = await cat(
            `mcp+node://${script}?tool=list_dir&path=/proc`,
            ["--sandbox"],
            opts,
          );
          const pids = list.record.text.split("\n").filter((name) => /^\d+$/.test(name)).map(
            Number,
          );
          assert.ok(pids.length > 0 && pids.every((pid) => pid < 100), list.record.text);
        } finally {
          sleeper.kill("SIGKILL");
          await sleeper.status;
        }
      });
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  },
});

Deno.test({
  name: "a hidden working directory is never a silent change",
  ignore: NO_BWRAP,
  fn: async (t) => {
    const work = await tempDir("jn-reach-cwd-");
    const script = await probeAt(`${await tempDir("jn-reach-srv-")}/srv/server.mjs`);
    const opts = { cwd: work };
    try {
      await t.step('an argument "." is an error naming --sandbox-read . (exit 6)', async () => {
        const run = await cat(`mcp+node://${script}?command=.&tool=cwd`, ["--sandbox"], opts);
        assert.equal(run.code, 6);
        assert.equal(run.stdout, "");
        assert.equal(
          run.stderr,
          `jn: Cannot sandbox "node ${script}": its argument "." is a path in the working directory ${work}, which the sandbox hides\n` +
            "hint: show the directory with --sandbox-read . (--sandbox-write . to let the server write there), or pass a path you grant with --sandbox-read\n",
        );
      });
      await t.step("with --sandbox-read . it starts there", async () => {
        const run = await cat(
          `mcp+node://${script}?command=.&tool=cwd`,
          ["--sandbox-read", "."],
          opts,
        );
        assert.equal(run.code, 0, run.stderr);
        assert.equal(run.record.text, work);
        assert.equal(run.stderr, "");
      });
      await t.step("a server that does not use it starts in /, with a notice", async () => {
        const run = await cat(`mcp+node://${script}?tool=cwd`, ["--sandbox"], opts);
        assert.equal(run.code, 0, run.stderr);
        assert.equal(run.record.text, "/");
        assert.equal(
          run.stderr,
          `jn: the server starts in /: your working directory ${work} is hidden in the sandbox (--sandbox-read . shows it)\n`,
        );
        const quiet = await cat(`mcp+node://${script}?tool=cwd`, ["--sandbox", "--quiet"], opts);
        assert.equal(quiet.stderr, "");
      });
    } finally {
      await Deno.remove(work, { recursive: true });
      await Deno.remove(script.slice(0, script.lastIndexOf("/srv/")), { recursive: true });
    }
  },
});

Deno.test({
  name: "a server that fails on a hidden path: the line that names it and the flag that shows it",
  ignore: NO_BWRAP,
  fn: async () => {
    const home = await tempDir("jn-reach-home-");
    try {
      // A package hoisted into $HOME/node_modules: above the project, in a broad directory.
      await Deno.mkdir(`${home}/node_modules/jn-dep`, { recursive: true });
      await Deno.writeTextFile(
        `${home}/node_modules/jn-dep/package.json`,
        '{"name":"jn-dep","main":"index.js"}',
      );
      await Deno.writeTextFile(`${home}/node_modules/jn-dep/index.js`, "module.exports = 1;\n");
      await probeAt(`${home}/proj/probe.mjs`);
      await Deno.writeTextFile(
        `${home}/proj/server.mjs`,
        'import "jn-dep";\nimport "./probe.mjs";\n',
      );
      const uri = `mcp+node://${home}/proj/server.mjs?tool=echo&text=ok`;
      const opts = { env: { HOME: home }, cwd: `${home}/proj` };

      const failed = await cat(uri, ["--sandbox"], opts);
      assert.equal(failed.code, 4);
      const hint = failed.stderr.split("\n").find((line) => line.startsWith("hint: "));
      assert.equal(
        hint,
        `hint: the server's own output ("Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'jn-dep' ` +
          `imported from ${home}/proj/server.mjs") says it needs "${home}/node_modules/jn-dep", ` +
          `which the sandbox hides: if you trust that, --sandbox-read ${home}/node_modules shows it`,
      );
      const granted = await cat(uri, ["--sandbox-read", `${home}/node_modules`], opts);
      assert.equal(granted.code, 0, granted.stderr);
      assert.equal(granted.record.text, "ok");
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  },
});
