/**
 * Every naked URI form, end to end: uvx and npx through fakes on PATH that
 * record the exact argv jn starts (there is no network for the real ones),
 * python, node and deno through real scripts, relative and absolute paths.
 */

import assert from "node:assert/strict";
import { baseEnv, FIXTURES, parseNdjson, ROOT, runJn, runJnHere } from "../helpers.ts";

type Rec = Record<string, unknown>;

async function withFakeLaunchers(
  fn: (
    run: (args: string[]) => ReturnType<typeof runJnHere>,
    argvLog: () => Promise<string[][]>,
  ) => Promise<void>,
): Promise<void> {
  const home = await Deno.makeTempDir();
  const env = { HOME: home, PATH: `${FIXTURES}/bin:${baseEnv().PATH}` };
  const log = async () =>
    (await Deno.readTextFile(`${home}/.fake_launcher.log`)).trim().split("\n").map((l) =>
      JSON.parse(l)
    );
  try {
    await fn((args) => runJnHere(args, { env }), log);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

// SPEC §2's npx argv, with `--prefix /dev/null` so that npm reads no .npmrc or node_modules of
// the working directory (lib/launch/isolation.ts).
Deno.test("uvx and npx URIs start exactly the argv of SPEC §2", async (t) => {
  await withFakeLaunchers(async (run, argvLog) => {
    await t.step("mcp+uvx://PKG/CMD?command=… → uvx --from PKG CMD ARGS…", async () => {
      const result = await run([
        "cat",
        "mcp+uvx://biomcp-python/biomcp?command=run&command=--&tool=echo&text=hi",
      ]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal((parseNdjson(result.stdout)[0] as Rec).text, '{"text":"hi"}');
      assert.deepEqual((await argvLog()).at(-1), [
        "uvx",
        "--from",
        "biomcp-python",
        "biomcp",
        "run",
        "--",
      ]);
    });

    await t.step("mcp+uvx://PKG without /CMD → uvx PKG ARGS…", async () => {
      const result = await run(["cat", "mcp+uvx://mcp-server-time?command=--&list=tools"]);
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual((await argvLog()).at(-1), ["uvx", "mcp-server-time", "--"]);
    });

    await t.step("a scoped npm package with a version is a package, not user-info", async () => {
      const result = await run([
        "cat",
        "mcp+npx://@upstash/context7-mcp@latest?command=--&tool=echo&library=fastapi",
      ]);
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(JSON.parse((parseNdjson(result.stdout)[0] as Rec).text as string), {
        library: "fastapi",
      });
      assert.deepEqual((await argvLog()).at(-1), [
        "npx",
        "--prefix",
        "/dev/null",
        "-y",
        "@upstash/context7-mcp@latest",
        "--",
      ]);
    });

    await t.step("repeated command= values are appended in order, one argv word each", async () => {
      const result = await run([
        "cat",
        "mcp+npx://pkg@1.2.3?command=--flag&command=two%20words&command=--&command=--schema&command=v2-type&list=tools",
      ]);
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual((await argvLog()).at(-1), [
        "npx",
        "--prefix",
        "/dev/null",
        "-y",
        "pkg@1.2.3",
        "--flag",
        "two words",
        "--",
        "--schema",
        "v2-type",
      ]);
      // --schema v2-type reached the fixture: search's limit became a string.
      const search = (parseNdjson(result.stdout) as Rec[]).find((tool) => tool.name === "search");
      const limit = ((search!.inputSchema as Rec).properties as Record<string, Rec>).limit;
      assert.equal(limit.type, "string");
    });
  });
});

Deno.test("script launchers run real servers from relative and absolute paths", async (t) => {
  await t.step("mcp+python://./PATH relative to the working directory", async () => {
    const result = await runJnHere(["cat", "mcp+python://./servers/fixture.py?tool=echo&text=py"], {
      cwd: FIXTURES,
    });
    assert.equal(result.code, 0, result.stderr);
    const [record] = parseNdjson(result.stdout) as Rec[];
    assert.equal(record.tool, "echo");
    assert.match(record.text as string, /py/);
  });

  await t.step("mcp+python:///ABS/PATH", async () => {
    const result = await runJnHere([
      "cat",
      `mcp+python://${FIXTURES}/servers/fixture.py?tool=echo&text=abs`,
    ]);
    assert.equal(result.code, 0, result.stderr);
  });

  await t.step("mcp+node://../PATH climbs out of the working directory", async () => {
    // A started jn: the server inherits the working directory of jn's process.
    const result = await runJn(["cat", "mcp+node://../servers/fixture.mjs?tool=cwd"], {
      cwd: `${FIXTURES}/bin`,
    });
    assert.equal(result.code, 0, result.stderr);
    // The server runs in jn's working directory.
    assert.equal((parseNdjson(result.stdout)[0] as Rec).text, `${FIXTURES}/bin`);
  });

  await t.step("mcp+deno://PATH runs under deno with the minimal sandbox", async () => {
    const result = await runJnHere([
      "cat",
      "mcp+deno://tests/fixtures/demo_server_main.ts?tool=echo&text=d",
    ], {
      cwd: ROOT,
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal((parseNdjson(result.stdout)[0] as Rec).text, "d");
  });

  await t.step("a script that does not exist: the interpreter's message is shown", async () => {
    const result = await runJnHere(["cat", "mcp+node://./missing.mjs?tool=x"], { cwd: FIXTURES });
    assert.equal(result.code, 4);
    assert.match(result.stderr, /exited with code 1 before the MCP handshake completed/);
    assert.match(result.stderr, /Cannot find module/);
  });
});
