/**
 * Deno servers run under Deno's permissions: by default they may read their
 * own directory and nothing else; the sandbox flags and a profile's
 * `deno_permissions` grant more, and exactly that. The fixture server runs
 * unchanged under `deno run`.
 */

import assert from "node:assert/strict";
import { ConfigError } from "../../lib/errors.ts";
import { buildLaunch } from "../../lib/launch/build.ts";
import type { StdioLaunch } from "../../lib/launch/spec.ts";
import {
  denoWrites,
  parseDenoPermissions,
  withDenoPermissions,
} from "../../lib/sandbox/deno_permissions.ts";
import { prepareLaunch } from "../../lib/sandbox/prepare.ts";
import { openSession } from "../../lib/session/session.ts";
import { parseSource } from "../../lib/uri/parse.ts";
import type { NakedSource } from "../../lib/uri/source.ts";
import { FIXTURES, parseNdjson, runJnHere, tempDir } from "../helpers.ts";
import { requireBwrap } from "./bwrap_support.ts";

const SCRIPT = `${FIXTURES}/servers/fixture.mjs`;
const FIXTURE = `mcp+deno://${SCRIPT}`;
const NO_BWRAP = await requireBwrap("tests/sandbox/deno_server_test.ts");

/** `jn cat` in this process: the permissions under test are the Deno server's own. */
async function call(tool: string, args: Record<string, string>, flags: string[] = []) {
  const query = new URLSearchParams({ tool, ...args }).toString();
  const result = await runJnHere(["cat", ...flags, `${FIXTURE}?${query}`]);
  const [record] = parseNdjson(result.stdout) as { text: string; isError?: boolean }[];
  return { ...result, record };
}

function serve(text: string) {
  return Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => new Response(text),
  );
}

Deno.test("the deno launcher enforces Deno permissions", async (t) => {
  const dir = await tempDir("jn-deno-");
  await Deno.writeTextFile(`${dir}/outside.txt`, "outside");
  const allowed = serve("allowed host");
  const other = serve("other host");
  const allowedHost = `127.0.0.1:${allowed.addr.port}`;
  try {
    await t.step("by default it reads its own directory", async () => {
      const run = await call("read_file", { path: `${FIXTURES}/servers/fixture_flags.mjs` });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.record.text, /The fixture server's switches/);
    });
    await t.step("by default read_file outside the script's directory fails", async () => {
      const run = await call("read_file", { path: `${dir}/outside.txt` });
      assert.equal(run.code, 1);
      assert.match(run.record.text, /^Requires read access to ".*outside\.txt"/);
    });
    await t.step("by default fetch_url fails", async () => {
      const run = await call("fetch_url", { url: `http://${allowedHost}/` });
      assert.equal(run.code, 1);
      assert.match(run.record.text, /Requires net access to "127\.0\.0\.1:\d+"/);
    });
    await t.step("by default env fails", async () => {
      const run = await call("env", {});
      assert.equal(run.code, 1);
      assert.match(run.record.text, /Requires env access/);
    });
    await t.step({
      name: "--sandbox-read grants reading that path (Deno flag and bubblewrap)",
      ignore: NO_BWRAP,
      fn: async () => {
        const run = await call("read_file", { path: `${dir}/outside.txt` }, [
          "--sandbox-read",
          dir,
        ]);
        assert.equal(run.code, 0, run.stderr);
        assert.equal(run.record.text, "outside");
      },
    });
    await t.step({
      name: "--sandbox-host grants that host and no other",
      ignore: NO_BWRAP,
      fn: async () => {
        const ok = await call("fetch_url", { url: `http://${allowedHost}/` }, [
          "--sandbox-host",
          allowedHost,
        ]);
        assert.equal(ok.code, 0, ok.stderr);
        assert.equal(JSON.parse(ok.record.text).body, "allowed host");
        const refused = await call("fetch_url", { url: `http://127.0.0.1:${other.addr.port}/` }, [
          "--sandbox-host",
          allowedHost,
        ]);
        assert.equal(refused.code, 1);
        assert.match(refused.record.text, /Requires net access/);
      },
    });
    await t.step("a profile's deno_permissions reach the server (launch side)", async () => {
      const source = parseSource(`${FIXTURE}?tool=env`) as NakedSource;
      const launch = await prepareLaunch(buildLaunch(source, { cwd: dir }), {
        cwd: dir,
        callerEnv: { PATH: Deno.env.get("PATH") ?? "", HOME: Deno.env.get("HOME") ?? "/" },
        denoPermissions: { env: true, net: [allowedHost] },
      });
      const session = await openSession(launch, {
        timeoutMs: 30_000,
        connectTimeoutMs: 30_000,
        callerEnv: { PATH: Deno.env.get("PATH") ?? "", HOME: Deno.env.get("HOME") ?? "/" },
      });
      try {
        const env = await session.callTool("env", {});
        assert.equal(env.isError, undefined, JSON.stringify(env));
        const fetched = await session.callTool("fetch_url", { url: `http://${allowedHost}/` });
        assert.equal(fetched.isError, undefined, JSON.stringify(fetched));
        const refused = await session.callTool("read_file", { path: `${dir}/outside.txt` });
        assert.equal(refused.isError, true);
      } finally {
        await session.close();
      }
    });
  } finally {
    await allowed.shutdown();
    await other.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

const DENO_LAUNCH: StdioLaunch = {
  transport: "stdio",
  command: "deno",
  args: ["run", "--no-prompt", "--allow-read=/srv", "/srv/main.ts", "--allow-net", "x"],
  env: {},
  label: "deno main.ts",
};

Deno.test("withDenoPermissions() merges grants into one flag per permission", async (t) => {
  await t.step("lists are joined; the script's own arguments are left alone", () => {
    const launch = withDenoPermissions(DENO_LAUNCH, [{ read: ["/data"], net: ["a.example"] }]);
    assert.deepEqual(launch.args, [
      "run",
      "--no-prompt",
      "--allow-read=/srv,/data",
      "--allow-net=a.example",
      "/srv/main.ts",
      "--allow-net",
      "x",
    ]);
  });
  await t.step("true wins over a list (Deno would not widen a later bare flag)", () => {
    const launch = withDenoPermissions(DENO_LAUNCH, [{ read: true }, { read: ["/x"] }]);
    assert.deepEqual(launch.args.slice(0, 4), [
      "run",
      "--no-prompt",
      "--allow-read",
      "/srv/main.ts",
    ]);
  });
  await t.step("a profile's own deno run gets --no-prompt, options with values are skipped", () => {
    const launch = withDenoPermissions(
      { ...DENO_LAUNCH, args: ["run", "--config", "deno.json", "server.ts"] },
      [{ env: ["API_KEY"] }],
    );
    assert.deepEqual(launch.args, [
      "run",
      "--no-prompt",
      "--allow-env=API_KEY",
      "--config",
      "deno.json",
      "server.ts",
    ]);
  });
  await t.step("a launch that is not deno run is unchanged", () => {
    const node = { ...DENO_LAUNCH, command: "node", args: ["s.js"] };
    assert.equal(withDenoPermissions(node, [{ net: true }]), node);
  });
});

Deno.test("denoWrites(): where a Deno server may write; none for one Deno does not confine", () => {
  const deno = (...flags: string[]): StdioLaunch => ({
    transport: "stdio",
    command: "deno",
    args: ["run", ...flags, "/s/m.ts", "--allow-write"],
    env: {},
    label: "deno m.ts",
  });
  assert.deepEqual(denoWrites(deno("--no-prompt", "--allow-read=/s")), []);
  assert.deepEqual(denoWrites(deno("--allow-write=./out,/data", "--allow-net")), [
    "./out",
    "/data",
  ]);
  for (const flag of ["-A", "--allow-all", "-W", "-RW", "--allow-write", "--allow-run=git"]) {
    assert.equal(denoWrites(deno(flag)), undefined, flag);
  }
  assert.equal(denoWrites({ ...deno(), command: "node", args: ["/s/m.js"] }), undefined);
});

Deno.test("parseDenoPermissions() validates the profile field", () => {
  const file = "/p/_meta.json";
  assert.deepEqual(parseDenoPermissions({ net: ["api.example.com"], env: true }, { file }), {
    net: ["api.example.com"],
    env: true,
  });
  assert.equal(parseDenoPermissions(undefined, { file }), undefined);
  for (const bad of [[], { network: true }, { net: "x" }, { read: ["a,b"] }]) {
    assert.throws(() => parseDenoPermissions(bad, { file }), ConfigError);
  }
});
