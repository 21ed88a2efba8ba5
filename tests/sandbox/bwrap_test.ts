/**
 * `--sandbox` on Linux, black-box: the fixture server tries to read a file it
 * was not given, write outside its allowed path and open a network
 * connection. Each attempt works without the sandbox and is stopped under it;
 * declaring the path or the network lets it through again. Needs bubblewrap
 * (`apt-get install bubblewrap`) and user namespaces; ignored, saying so,
 * without them. jn runs in the fixture's directory (visible in the sandbox),
 * so the server starts there without a notice.
 */

import assert from "node:assert/strict";
import { FIXTURES, parseNdjson, runJn, runJnHere, tempDir } from "../helpers.ts";
import { requireBwrap } from "./bwrap_support.ts";

const SERVERS = `${FIXTURES}/servers`;
const FIXTURE = `mcp+node://${SERVERS}/fixture.mjs`;
const NO_BWRAP = await requireBwrap("tests/sandbox/bwrap_test.ts");

type ToolRecord = { text: string; isError?: boolean };

/**
 * `jn cat FLAGS… FIXTURE?tool=…`: in this process (what is confined is the
 * server, started under bwrap either way), or as its own process (`process`).
 */
async function call(
  tool: string,
  args: Record<string, string>,
  flags: string[] = [],
  options: { process?: boolean } = {},
) {
  const query = new URLSearchParams({ tool, ...args }).toString();
  const run = options.process ? runJn : runJnHere;
  const result = await run(["cat", ...flags, `${FIXTURE}?${query}`], { cwd: SERVERS });
  const records = parseNdjson(result.stdout) as ToolRecord[];
  return { ...result, record: records[0] };
}

Deno.test({
  name: "--sandbox confines a node server with bubblewrap",
  ignore: NO_BWRAP,
  fn: async (t) => {
    const dir = await tempDir("jn-sandbox-");
    const secret = `${dir}/secret.txt`;
    await Deno.writeTextFile(secret, "the secret");
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      () => new Response("hello from the host"),
    );
    const url = `http://127.0.0.1:${server.addr.port}/`;
    try {
      await t.step("reading a file it was not given", async (t) => {
        await t.step("works without the sandbox", async () => {
          const run = await call("read_file", { path: secret });
          assert.equal(run.code, 0, run.stderr);
          assert.equal(run.record.text, "the secret");
        });
        await t.step("fails under --sandbox: the file is not there", async () => {
          const run = await call("read_file", { path: secret }, ["--sandbox"]);
          assert.equal(run.code, 1);
          assert.equal(run.record.isError, true);
          assert.match(run.record.text, /ENOENT: no such file or directory/);
          assert.match(run.stderr, /^jn: Tool "read_file" answered with an error: ENOENT/);
          assert.match(
            run.stderr,
            /\nhint: the server runs sandboxed \(no network; writable: \/tmp only/,
          );
        });
        await t.step("works with --sandbox-read DIR", async () => {
          const run = await call("read_file", { path: secret }, ["--sandbox-read", dir]);
          assert.equal(run.code, 0, run.stderr);
          assert.equal(run.record.text, "the secret");
        });
      });

      await t.step("writing outside the allowed path", async (t) => {
        const target = `${dir}/out.txt`;
        await t.step("works without the sandbox", async () => {
          const run = await call("write_file", { path: target, text: "1" });
          assert.equal(run.code, 0, run.stderr);
          assert.equal(await Deno.readTextFile(target), "1");
        });
        await t.step("fails under --sandbox when the directory is only readable", async () => {
          const run = await call("write_file", { path: target, text: "2" }, [
            "--sandbox-read",
            dir,
          ]);
          assert.equal(run.code, 1);
          assert.match(run.record.text, /EROFS: read-only file system/);
          assert.equal(await Deno.readTextFile(target), "1");
        });
        await t.step("fails under --sandbox for the rest of the system", async () => {
          const run = await call("write_file", { path: `${FIXTURES}/servers/x.txt`, text: "2" }, [
            "--sandbox",
          ]);
          assert.equal(run.code, 1);
          assert.match(run.record.text, /EROFS: read-only file system/);
        });
        await t.step("works with --sandbox-write DIR", async () => {
          const run = await call("write_file", { path: target, text: "3" }, [
            "--sandbox-write",
            dir,
          ]);
          assert.equal(run.code, 0, run.stderr);
          assert.equal(await Deno.readTextFile(target), "3");
        });
        await t.step("fails under --sandbox in an undeclared directory of /tmp", async () => {
          const run = await call("write_file", { path: target, text: "4" }, ["--sandbox"]);
          assert.equal(run.code, 1);
          assert.match(run.record.text, /ENOENT: no such file or directory/);
          assert.equal(await Deno.readTextFile(target), "3");
        });
        await t.step("/tmp itself is private and writable", async () => {
          const scratch = `/tmp/jn-scratch-${crypto.randomUUID()}.txt`;
          const run = await call("write_file", { path: scratch, text: "5" }, ["--sandbox"]);
          assert.equal(run.code, 0, run.stderr);
          await assert.rejects(Deno.stat(scratch), Deno.errors.NotFound);
        });
      });

      await t.step("opening a network connection", async (t) => {
        await t.step("works without the sandbox", async () => {
          const run = await call("fetch_url", { url });
          assert.equal(run.code, 0, run.stderr);
          assert.equal(JSON.parse(run.record.text).body, "hello from the host");
        });
        await t.step("fails under --sandbox", async () => {
          const run = await call("fetch_url", { url }, ["--sandbox"]);
          assert.equal(run.code, 1);
          assert.equal(run.record.isError, true);
          assert.match(run.stderr, /hint: the server runs sandboxed \(no network;/);
        });
        await t.step("works with --sandbox-net", async () => {
          const run = await call("fetch_url", { url }, ["--sandbox-net"]);
          assert.equal(run.code, 0, run.stderr);
          assert.equal(JSON.parse(run.record.text).body, "hello from the host");
        });
        await t.step("a host list is refused for a non-Deno server (exit 6)", async () => {
          const run = await call("fetch_url", { url }, ["--sandbox-host", "127.0.0.1"]);
          assert.equal(run.code, 6);
          assert.equal(run.stdout, "");
          assert.match(run.stderr, /only Deno servers can be limited to hosts/);
        });
      });

      await t.step(
        "a server that dies under the sandbox: exit 4, its stderr, the sandbox hint",
        async () => {
          const result = await runJn([
            "cat",
            "--sandbox",
            `${FIXTURE}?tool=echo&command=--exit-before-handshake`,
          ], { cwd: SERVERS });
          assert.equal(result.code, 4);
          assert.match(result.stderr, /exited with code 3 before the MCP handshake completed/);
          assert.match(result.stderr, /fixture: exiting before the handshake/);
          assert.match(
            result.stderr,
            /\nhint: the server runs sandboxed \(no network; writable: \/tmp only; your files hidden\)/,
          );
        },
      );

      await t.step("the server's whole process tree stays inside and ends with it", async () => {
        const run = await call(
          "spawn_grandchild",
          { seconds: "4711", ignore_sigterm: "true" },
          ["--sandbox"],
          { process: true },
        );
        assert.equal(run.code, 0, run.stderr);
        // A pid namespace of its own: the grandchild's pid is small there.
        assert.ok(JSON.parse(run.record.text).pid < 100);
        // The kernel kills the namespace's processes as its init dies: allow it a moment.
        let left = await processesWith("4711000");
        for (let i = 0; i < 30 && left.length > 0; i++) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          left = await processesWith("4711000");
        }
        assert.deepEqual(left, []);
      });
    } finally {
      await server.shutdown();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "--sandbox never runs a server unconfined",
  ignore: Deno.build.os !== "linux",
  fn: async (t) => {
    await t.step(
      "without bubblewrap on PATH it refuses with an install hint (exit 6)",
      async () => {
        const bin = await tempDir("jn-nobwrap-");
        // node is reachable, bwrap is not.
        await Deno.symlink(which("node"), `${bin}/node`);
        try {
          const result = await runJn(["cat", "--sandbox", `${FIXTURE}?tool=echo`], {
            env: { PATH: bin },
          });
          assert.equal(result.code, 6);
          assert.equal(result.stdout, "");
          const lines = result.stderr.split("\n");
          assert.match(
            lines[0],
            /^jn: Cannot sandbox "node .*fixture\.mjs": bubblewrap \(bwrap\) is not installed$/,
          );
          assert.match(lines[1], /^hint: install bubblewrap: sudo apt-get install bubblewrap/);
        } finally {
          await Deno.remove(bin, { recursive: true });
        }
      },
    );
    await t.step({
      name: "without --allow-run for bwrap it names the flag (exit 6)",
      ignore: NO_BWRAP,
      fn: async () => {
        const result = await runJn(["cat", "--sandbox", `${FIXTURE}?tool=echo`], {
          permissions: ["--allow-read", "--allow-env", "--allow-run=node", "--no-prompt"],
        });
        assert.equal(result.code, 6);
        assert.match(
          result.stderr,
          /^jn: Permission refused: run access to ".*bwrap" needs --allow-run=.*bwrap/,
        );
      },
    });
    await t.step("a remote server cannot be sandboxed (exit 2)", async () => {
      const result = await runJn(["cat", "--sandbox", "mcp+https://example.com/mcp?tool=x"]);
      assert.equal(result.code, 2);
      assert.match(result.stderr, /^jn: Cannot sandbox "[^"]+": it is a remote server/);
    });
  },
});

function which(name: string): string {
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    try {
      if (Deno.statSync(`${dir}/${name}`).isFile) return `${dir}/${name}`;
    } catch { /* next */ }
  }
  throw new Error(`${name} not found on PATH`);
}

/** Pids of processes whose command line contains `marker` (from `ps`; /proc needs -A in Deno). */
async function processesWith(marker: string): Promise<number[]> {
  const output = await new Deno.Command("ps", { args: ["-eo", "pid=,args="], stdout: "piped" })
    .output();
  return new TextDecoder().decode(output.stdout).split("\n")
    .filter((line) => line.includes(marker) && !line.includes("ps -eo"))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}
