/** `jn --version` and `jn help [COMMAND…]`, black-box. */

import assert from "node:assert/strict";
import config from "../../deno.json" with { type: "json" };
import { runJn } from "../helpers.ts";

Deno.test("jn --version prints deno.json's version", async (t) => {
  for (const flag of ["--version", "-V"]) {
    await t.step(flag, async () => {
      const result = await runJn([flag]);
      assert.equal(result.code, 0);
      assert.equal(result.stdout, `${config.version}\n`);
      assert.equal(result.stderr, "");
    });
  }
});

Deno.test("jn help shows the help of jn or of a command", async (t) => {
  await t.step("jn help: usage, every command, sources and exit codes", async () => {
    const result = await runJn(["help"]);
    assert.equal(result.code, 0);
    assert.equal(result.stderr, "");
    assert.match(result.stdout, /^Usage: jn \[options\] \[command\]\n/);
    for (const command of ["inspect", "cat", "put", "profile", "mcp", "completions", "help"]) {
      assert.match(result.stdout, new RegExp(`\\n  ${command} `), command);
    }
    assert.match(result.stdout, /\nExit codes: 0 ok, 1 tool error/);
  });
  await t.step("jn help cat is jn cat --help", async () => {
    const help = await runJn(["help", "cat"]);
    const flag = await runJn(["cat", "--help"]);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: jn cat \[options\] <source> \[-- PROGRAM ARGS\.\.\.\]\n/);
    assert.match(help.stdout, /\n {2}--sandbox {2,}/);
    assert.equal(help.stdout, flag.stdout);
  });
  await t.step("jn help mcp schema reaches a subcommand", async () => {
    const result = await runJn(["help", "mcp", "schema"]);
    assert.equal(result.code, 0);
    assert.match(
      result.stdout,
      /^Usage: jn mcp schema \[options\] <source> <tool> \[-- PROGRAM ARGS\.\.\.\]\n/,
    );
  });
  await t.step("a profile or remote server has no -- PROGRAM form; any source does", async () => {
    for (const command of [["profile", "info"], ["host", "add"], ["auth", "login"]]) {
      const result = await runJn([...command, "--help"]);
      assert.equal(result.code, 0);
      assert.doesNotMatch(result.stdout.split("\n")[0], /PROGRAM/, command.join(" "));
    }
    const serve = await runJn(["serve", "--help"]);
    assert.match(serve.stdout, /^Usage: jn serve \[options\] <source\.\.\.> \[-- PROGRAM ARGS/);
    const info = await runJn(["profile", "info", "--", "node", "server.js"]);
    assert.equal(info.code, 2);
    assert.equal(info.stdout, "");
  });
  await t.step("an unknown command is a usage error listing the commands", async () => {
    const result = await runJn(["help", "mcp", "nosuch"]);
    assert.equal(result.code, 2);
    assert.equal(result.stdout, "");
    assert.equal(
      result.stderr,
      'jn: Unknown command "mcp nosuch"\nhint: jn mcp has: explore, tools, schema, hash, demo-server\n',
    );
  });
});
