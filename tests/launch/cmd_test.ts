/**
 * Any program as a server, no profile: `mcp+cmd://PROGRAM?command=ARG…` and
 * its argv form `jn CMD [?QUERY] -- PROGRAM ARGS…` (one launch), under the
 * policy of every launcher — the minimal environment, `--env-passthrough`,
 * `--sandbox`, and the whole process tree ended with jn.
 */

import assert from "node:assert/strict";
import { buildLaunch } from "../../lib/launch/build.ts";
import { argvUri } from "../../lib/launch/registry.ts";
import { parseArgs } from "../../lib/cli/parse.ts";
import { parseSource } from "../../lib/uri/parse.ts";
import { FIXTURES, parseNdjson, runJn, runJnHere } from "../helpers.ts";
import { waitGone } from "../session/tree_support.ts";
import { bwrapUnavailable } from "../sandbox/bwrap_support.ts";

const FIXTURE = `${FIXTURES}/servers/fixture.mjs`;
type Rec = Record<string, unknown>;

Deno.test("the argv after -- is the naked URI of the cmd launcher", async (t) => {
  await t.step("argvUri() escapes what the URI grammar reads", () => {
    assert.equal(
      argvUri(["docker", "run", "-i", "--rm", "a b&c=d?#%"], "?tool=x&k=v"),
      "mcp+cmd://docker?command=run&command=-i&command=--rm&command=a%20b%26c%3Dd%3F%23%25" +
        "&tool=x&k=v",
    );
    const source = parseSource(argvUri(["./srv", "x y"]));
    assert.equal(source.kind === "naked" && source.location, "./srv");
    assert.deepEqual(source.kind === "naked" && source.command, ["x y"]);
    assert.deepEqual(buildLaunch(source as never, { cwd: "/p" }), {
      transport: "stdio",
      command: "/p/srv",
      args: ["x y"],
      env: {},
      label: "./srv x y",
    });
  });

  await t.step("the parser puts it in the SOURCE's place, joined to a query given there", () => {
    const args = (argv: string[]) => {
      const parsed = parseArgs(argv);
      assert.equal(parsed.kind, "run");
      return parsed.kind === "run" ? parsed.call.args : undefined;
    };
    assert.deepEqual(args(["inspect", "--", "node", "s.js"]), {
      source: "mcp+cmd://node?command=s.js",
    });
    assert.deepEqual(args(["cat", "?tool=add&a=2", "--json", "--", "node", "s.js", "--x"]), {
      source: "mcp+cmd://node?command=s.js&command=--x&tool=add&a=2",
    });
    assert.deepEqual(args(["mcp", "schema", "add", "--", "node", "s.js"]), {
      source: "mcp+cmd://node?command=s.js",
      tool: "add",
    });
    assert.deepEqual(args(["complete", "?prompt=p", "topic", "--", "srv"]), {
      source: "mcp+cmd://srv?prompt=p",
      argument: "topic",
    });
    assert.deepEqual(args(["grep", "sum", "@demo", "--", "srv"]), {
      pattern: "sum",
      source: ["@demo", "mcp+cmd://srv"],
    });
    // A command without a SOURCE keeps `--` as the end of its flags.
    assert.deepEqual(args(["filter", "--", "-x"]), { expr: "-x" });
  });

  await t.step("mistakes are usage errors saying what to write", async () => {
    const nothing = await runJnHere(["inspect", "--"]);
    assert.equal(nothing.code, 2);
    assert.match(nothing.stderr, /^jn: "--" must be followed by the server's command\n/);
    const after = await runJnHere(["cat", "--", "node", FIXTURE, "?tool=echo&text=hi"]);
    assert.equal(after.code, 2);
    assert.match(
      after.stderr,
      /is after --, where every word is the server's\nhint: put the query before --: jn cat '\?tool=echo&text=hi' -- node /,
    );
    const two = await runJnHere(["cat", "@demo/add", "--", "node", FIXTURE]);
    assert.equal(two.code, 2);
    assert.match(two.stderr, /^jn: Two servers: "@demo\/add" and the command after --\n/);
    const none = await runJnHere(["cat", "--", "node", FIXTURE]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /^jn: Nothing to read from "mcp\+cmd:\/\/node\?command=/);
    const missing = await runJnHere(["inspect", "--", "no-such-program-jn"]);
    assert.equal(missing.code, 4);
    assert.match(missing.stderr, /no-such-program-jn/);
    assert.match(missing.stderr, /hint: check the command name, or give its full path/);
  });
});

Deno.test("a cmd server gets the policy of every launcher", async (t) => {
  await t.step("a call, the same by URI and by argv", async () => {
    const argv = await runJnHere(["cat", "--json", "?tool=echo&text=hi", "--", "node", FIXTURE]);
    assert.equal(argv.code, 0, argv.stderr);
    const uri = await runJnHere([
      "cat",
      "--json",
      `mcp+cmd://node?command=${encodeURIComponent(FIXTURE)}&tool=echo&text=hi`,
    ]);
    assert.equal(uri.stdout, argv.stdout);
    assert.deepEqual(parseNdjson(argv.stdout), [{ text: "hi" }]);
  });

  await t.step("the minimal environment; --env-passthrough passes a variable", async () => {
    const env = async (flags: string[]) => {
      const result = await runJnHere([
        "cat",
        "--json",
        ...flags,
        "?tool=env",
        "--",
        "node",
        FIXTURE,
      ], {
        env: { JN_SECRET_TEST: "s3cret" },
      });
      assert.equal(result.code, 0, result.stderr);
      return (parseNdjson(result.stdout)[0] as Rec);
    };
    assert.equal((await env([])).JN_SECRET_TEST, undefined);
    assert.equal((await env(["--env-passthrough", "JN_SECRET_TEST"])).JN_SECRET_TEST, "s3cret");
  });

  await t.step("the process tree ends with jn", async () => {
    const result = await runJn([
      "cat",
      "--json",
      "?tool=spawn_grandchild&seconds=60",
      "--",
      "node",
      FIXTURE,
    ]);
    assert.equal(result.code, 0, result.stderr);
    const { pid } = parseNdjson(result.stdout)[0] as { pid: number };
    assert.ok(await waitGone(pid), `grandchild ${pid} survived jn`);
  });

  const noBwrap = await bwrapUnavailable();
  await t.step({
    name: "--sandbox confines it (your home is hidden)",
    ignore: noBwrap !== undefined,
    fn: async () => {
      const home = Deno.env.get("HOME") ?? "/root";
      const file = `${home}/.jn-cmd-test-${Deno.pid}`;
      await Deno.writeTextFile(file, "secret");
      try {
        const query = `?tool=read_file&path=${encodeURIComponent(file)}`;
        const open = await runJnHere(["cat", "--json", query, "--", "node", FIXTURE]);
        assert.match(open.stdout, /secret/);
        const boxed = await runJnHere(["cat", "--sandbox", query, "--", "node", FIXTURE]);
        assert.equal(boxed.code, 1, boxed.stderr);
        assert.match(boxed.stdout, /ENOENT/);
        assert.doesNotMatch(boxed.stdout, /secret/);
      } finally {
        await Deno.remove(file);
      }
    },
  });
  if (noBwrap !== undefined) {
    // deno-lint-ignore no-console
    console.error(`NOT RUN: the cmd --sandbox step (${noBwrap}); install bubblewrap to run it`);
  }
});
