/**
 * The argv buildLaunch() produces, run for real: each script prints the argv
 * it received, which must arrive intact (spaces, quotes, empty words) with no
 * shell in between; the Deno sandbox must confine the script to its directory.
 */
import assert from "node:assert/strict";
import { buildLaunch } from "../../lib/launch/build.ts";
import type { StdioLaunch } from "../../lib/launch/spec.ts";
import { parseSource } from "../../lib/uri/parse.ts";
import type { NakedSource } from "../../lib/uri/source.ts";

async function run(uri: string, options: { cwd: string }) {
  const launch = buildLaunch(parseSource(uri) as NakedSource, options) as StdioLaunch;
  const output = await new Deno.Command(launch.command, {
    args: launch.args,
    cwd: options.cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: output.code,
    stdout: new TextDecoder().decode(output.stdout),
    stderr: new TextDecoder().decode(output.stderr),
  };
}

const TRICKY = "?command=a%20b&command=&command=%24HOME&command=it's&command=%3Bls";
const EXPECTED_ARGS = ["a b", "", "$HOME", "it's", ";ls"];

Deno.test("a launched script receives its argv intact, without a shell", async (t) => {
  const root = await Deno.makeTempDir({ prefix: "jn launch " });
  try {
    const dir = `${root}/dir with space`;
    await Deno.mkdir(dir);
    await Deno.writeTextFile(
      `${dir}/echo.py`,
      "import json, sys\nprint(json.dumps(sys.argv[1:]))\n",
    );
    await Deno.writeTextFile(
      `${dir}/echo.js`,
      "console.log(JSON.stringify(process.argv.slice(2)));\n",
    );
    await Deno.writeTextFile(`${dir}/echo.ts`, "console.log(JSON.stringify(Deno.args));\n");

    for (
      const uri of [
        `mcp+python://./dir%20with%20space/echo.py${TRICKY}`,
        `mcp+node://dir%20with%20space/echo.js${TRICKY}`,
        `mcp+deno://./dir%20with%20space/echo.ts${TRICKY}`,
      ]
    ) {
      await t.step(uri, async () => {
        const result = await run(uri, { cwd: root });
        assert.equal(result.stderr, "");
        assert.equal(result.code, 0);
        assert.deepEqual(JSON.parse(result.stdout), EXPECTED_ARGS);
      });
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a deno server may read its own directory and nothing else", async (t) => {
  const root = await Deno.makeTempDir({ prefix: "jn_sandbox_" });
  try {
    await Deno.mkdir(`${root}/srv`);
    await Deno.writeTextFile(`${root}/srv/own.txt`, "mine");
    await Deno.writeTextFile(`${root}/secret.txt`, "secret");
    await Deno.writeTextFile(
      `${root}/srv/read.ts`,
      "console.log(await Deno.readTextFile(new URL(Deno.args[0], import.meta.url)));\n",
    );
    await t.step("its own file is readable", async () => {
      const result = await run("mcp+deno://srv/read.ts?command=own.txt", { cwd: root });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout, "mine\n");
    });
    await t.step("a file outside its directory is refused, without a prompt", async () => {
      const result = await run("mcp+deno://srv/read.ts?command=../secret.txt", { cwd: root });
      assert.notEqual(result.code, 0);
      assert.equal(result.stdout, "");
      assert.match(result.stderr, /NotCapable|PermissionDenied|Requires read access/);
    });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
