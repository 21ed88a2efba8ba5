/**
 * Adding a launcher is one file plus one entry in lib/launch/registry.ts,
 * and removing one is the reverse: in a copy of jn's source, a throwaway
 * `mcp+fake://NAME` (which starts a fixture server through a program on
 * PATH) is parsed by its own LOCATION rule, launched, completed, listed in
 * the help and the unknown-launcher hint, and gets its install hint; with
 * `node` removed the same way, nothing else names it (`deno check` passes)
 * and jn no longer knows `mcp+node://`.
 */

import assert from "node:assert/strict";
import { baseEnv, FIXTURES, parseNdjson } from "../helpers.ts";
import { repoCopy } from "../repo_copy.ts";

const FAKE = `/**
 * A throwaway launcher (tests/launch/add_launcher_test.ts): \`mcp+fake://NAME\`
 * starts the fixture server NAME through jn-fake-launcher.
 *
 * @module
 */

import type { LauncherDescriptor } from "./descriptor.ts";

/** \`mcp+fake://\`: a fixture server. */
export const fake: LauncherDescriptor = {
  schemes: ["fake"],
  usage: "mcp+fake://NAME",
  help: "a fixture server, started by jn-fake-launcher",
  location(raw, ctx) {
    const name = ctx.word(raw, "fixture name");
    if (!/^[a-z]+$/.test(name)) {
      ctx.fail(ctx.start, \`fixture name "\${name}" is not lowercase letters\`, "try mcp+fake://fixture");
    }
    return name;
  },
  build: (target) => ({
    transport: "stdio",
    command: "jn-fake-launcher",
    args: [target.location, ...target.command],
    env: {},
    label: \`fake \${target.location}\`,
  }),
  programs: ["jn-fake-launcher"],
  installHint: "put jn-fake-launcher on PATH",
};
`;

const LAUNCHER_SCRIPT = `#!/bin/sh
name="$1"; shift
exec python3 "${FIXTURES}/servers/$name.py" "$@"
`;

Deno.test("a launcher is added with one file and one registry entry", async (t) => {
  await using copy = await repoCopy();
  const bin = `${copy.dir}/bin`;
  await Deno.mkdir(bin);
  await Deno.writeTextFile(`${bin}/jn-fake-launcher`, LAUNCHER_SCRIPT, { mode: 0o755 });
  const withBin = { PATH: `${bin}:${baseEnv().PATH}` };

  await copy.write("lib/launch/fake.ts", FAKE);
  await copy.edit(
    "lib/launch/registry.ts",
    `import { uvx } from "./uvx.ts";`,
    `import { uvx } from "./uvx.ts";\nimport { fake } from "./fake.ts";`,
  );
  await copy.edit("lib/launch/registry.ts", "cmd, http];", "cmd, http, fake];");

  await t.step("parsed and launched: its argv starts the fixture server", async () => {
    const run = await copy.jn(["cat", "mcp+fake://fixture?list=tools"], withBin);
    assert.equal(run.code, 0, run.stderr);
    const names = parseNdjson(run.stdout).map((record) => (record as { name: string }).name);
    assert.deepEqual(names, ["echo", "env"]);
  });
  await t.step("its own LOCATION rule, with a caret", async () => {
    const run = await copy.jn(["cat", "mcp+fake://Fixture"], withBin);
    assert.equal(run.code, 2);
    assert.equal(
      run.stderr,
      `jn: Cannot parse URI "mcp+fake://Fixture": fixture name "Fixture" is not lowercase letters\n` +
        `  mcp+fake://Fixture\n             ^\nhint: try mcp+fake://fixture\n`,
    );
  });
  await t.step("its install hint when its program is not on PATH", async () => {
    const run = await copy.jn(["cat", "mcp+fake://fixture?list=tools"]);
    assert.equal(run.code, 4);
    assert.equal(
      run.stderr,
      `jn: Cannot start server "jn-fake-launcher fixture": jn-fake-launcher not found on PATH\n` +
        `hint: put jn-fake-launcher on PATH\n`,
    );
  });
  await t.step("completed", async () => {
    const run = await copy.jn(["__complete", "source", "mcp+f"]);
    assert.equal(run.stdout, "mcp+fake://\n");
  });
  await t.step("in the help and in the unknown-launcher hint", async () => {
    const help = await copy.jn(["cat", "--help"]);
    assert.match(
      help.stdout,
      /\n {2}mcp\+fake:\/\/NAME +a fixture server, started by jn-fake-launcher\n/,
    );
    const unknown = await copy.jn(["cat", "mcp+fak://x"]);
    assert.match(
      unknown.stderr,
      /\nhint: launchers: uvx, npx, python, node, deno, cmd, http, https, fake\n$/,
    );
  });

  await t.step("removed with its file and its registry entry: nothing else names it", async () => {
    await copy.remove("lib/launch/node.ts");
    await copy.edit("lib/launch/registry.ts", `import { node } from "./node.ts";\n`, "");
    await copy.edit("lib/launch/registry.ts", "python, node, deno", "python, deno");
    const check = await copy.deno(["check", "main.ts", "mod.ts"]);
    assert.equal(check.code, 0, check.stderr);
    const run = await copy.jn(["cat", "mcp+node://./server.js"]);
    assert.equal(run.code, 2);
    assert.match(
      run.stderr,
      /unknown launcher "node"\n[^]*hint: launchers: uvx, npx, python, deno,/,
    );
    assert.equal((await copy.jn(["__complete", "source", "mcp+n"])).stdout, "mcp+npx://\n");
    assert.doesNotMatch((await copy.jn(["cat", "--help"])).stdout, /mcp\+node:/);
  });
});
