/**
 * The command and flag tables are the one place a command or flag is
 * declared: a throwaway flag and a throwaway command added to a copy of the
 * tables are parsed, helped and completed with nothing else touched; every
 * row is well formed (names unique per command, a module that exports
 * `run`, defaults that parse); a run without flags, read from the compiled
 * data alone, is the call the real rows make; and the parser reads every
 * argv form a user types.
 */

import assert from "node:assert/strict";
import { completeCall } from "../../lib/cli/call.ts";
import { completionScript } from "../../lib/cli/completion_scripts.ts";
import { completionSpec } from "../../lib/cli/completion_spec.ts";
import { openOptions } from "../../lib/cli/connect.ts";
import { helpText } from "../../lib/cli/help.ts";
import { helpTopic, parseArgs, plainCall } from "../../lib/cli/parse.ts";
import type { Run } from "../../lib/cli/parsed.ts";
import {
  command,
  type CommandDef,
  type HelpTables,
  type Invocation,
  type Tables,
} from "../../lib/cli/table/command.ts";
import { CAT, COMMANDS, HEAD, PUT } from "../../lib/cli/table/commands.ts";
import { flag } from "../../lib/cli/table/flag.ts";
import { CONNECTION_FLAGS, GLOBAL_FLAGS } from "../../lib/cli/table/flags.ts";
import { TABLES } from "../../lib/cli/table/tables.ts";
import { UsageError } from "../../lib/errors.ts";

/** `argv` parsed as jn parses it, both phases, against `tables` (default: the real ones). */
async function run(argv: string[], tables: Tables<CommandDef> = TABLES): Promise<Invocation> {
  const parsed = await parseArgs(argv, tables);
  assert.equal(parsed.kind, "run");
  return await completeCall(parsed as Run, undefined, tables.commands);
}

/** The hint of the UsageError `fn` rejects with. */
async function hintOf(fn: () => Promise<unknown>): Promise<string> {
  try {
    await fn();
  } catch (error) {
    assert.ok(error instanceof UsageError);
    return error.hint ?? "";
  }
  throw new Error("no error");
}

Deno.test("a throwaway flag and command, added through the tables alone", async (t) => {
  const SHOUT = flag({
    long: "shout",
    short: "S",
    value: "level",
    key: "shoutLevel",
    help: "how loud to be",
    apply: (_current: number | undefined, value: string) => Number(value),
    choices: ["1", "2", "3"],
    default: 1,
  });
  const cat = { ...CAT, flags: [...CAT.flags, SHOUT] };
  const ping = command({
    path: ["ping"],
    summary: "ping a server",
    args: [{ name: "source", help: "a source", completes: "source" }],
    flags: [SHOUT],
    module: "commands/ping.ts",
  });
  const tables: HelpTables<CommandDef> = {
    ...TABLES,
    commands: [...COMMANDS.map((c) => c === CAT ? cat : c), ping],
  };
  await t.step("parsed into its field, checked against its choices, defaulted", async () => {
    assert.equal((await run(["cat", "--shout", "3", "@demo"], tables)).options.shoutLevel, 3);
    assert.equal((await run(["cat", "-S2", "@demo"], tables)).options.shoutLevel, 2);
    assert.equal((await run(["cat", "@demo"], tables)).options.shoutLevel, 1);
    await assert.rejects(
      () => parseArgs(["cat", "--shout", "4", "x"], tables),
      /Invalid --shout "4"/,
    );
    assert.equal((await run(["ping", "--shout=2", "@demo"], tables)).args.source, "@demo");
  });
  await t.step("in help, with its choices and default", () => {
    const text = helpText(["cat"], tables);
    assert.match(text, /-S, --shout <level>\s+how loud to be \(one of: 1, 2, 3; default: 1\)/);
    assert.match(helpText([], tables), /^ {2}ping\s+ping a server$/m);
  });
  await t.step("in the completion scripts and did-you-mean", async () => {
    const spec = completionSpec(tables);
    const bash = completionScript("bash", spec);
    assert.match(bash, /"cat --shout"\) echo '1 2 3'/);
    assert.match(bash, /"ping"\) echo '--shout -S/);
    assert.match(await hintOf(() => parseArgs(["cat", "--shoot", "1", "x"], tables)), /--shout\?/);
    assert.match(await hintOf(() => parseArgs(["pong"], tables)), /did you mean 'jn ping'\?/);
  });
  await t.step("the real tables do not have it", async () => {
    await assert.rejects(() => parseArgs(["cat", "--shout", "1", "x"]), /Unknown option "--shout"/);
  });
});

Deno.test("every row of the tables is well formed", async (t) => {
  for (const c of COMMANDS) {
    await t.step(`jn ${c.path.join(" ")}`, async () => {
      const names = [...c.flags, ...GLOBAL_FLAGS].flatMap((f) => [
        `--${f.long}`,
        ...(f.short ? [`-${f.short}`] : []),
      ]);
      assert.equal(new Set(names).size, names.length, `a name twice: ${names.join(" ")}`);
      if (c.footer !== undefined) assert.ok(Object.hasOwn(TABLES.footers, c.footer), c.footer);
      if (c.module === "help") return;
      const module = await import(new URL(`../../lib/cli/${c.module}`, import.meta.url).href);
      assert.equal(typeof module.run, "function", c.module);
      const optional = c.args.findIndex((a) => a.optional || a.variadic);
      if (optional !== -1) {
        assert.ok(c.args.slice(optional).every((a) => a.optional || a.variadic), "order");
      }
    });
  }
});

Deno.test("a run without flags, from the compiled data alone, is the real rows' call", async () => {
  for (const c of COMMANDS) {
    const words = c.args.filter((a) => !a.optional).map((a) => a.choices?.[0] ?? "x");
    const argv = [...c.path, ...words];
    const parsed = await parseArgs(argv);
    assert.equal(parsed.kind, "run", argv.join(" "));
    const plain = await plainCall(parsed as Run);
    assert.ok(plain !== undefined, argv.join(" "));
    const real = await run(argv);
    assert.deepEqual([plain.args, plain.options], [real.args, real.options], argv.join(" "));
    assert.deepEqual(plain.command.path, real.command.path);
  }
});

Deno.test("each connection flag sets the client's option of its name", async () => {
  const call = await run([
    "cat",
    "@demo",
    ...["--timeout", "5s", "--connect-timeout", "2s", "--protocol", "legacy"],
    ...["--env-passthrough", "A", "--log-level", "debug", "--ignore-schema"],
    ...["--header", "X-A: 1", "--token-env", "T", "--allow-http", "--sampling-command", "x"],
    ...["--root", ".", "--sandbox-read", "r", "--sandbox-write", "w", "--sandbox-host", "h.io"],
    ...["--progress", "--elicit", "decline", "--no-session"],
  ]);
  const io = {
    stdout: { write: (b: Uint8Array) => Promise.resolve(b.length) },
    stderr: { write: (b: Uint8Array) => Promise.resolve(b.length) },
    stdin: new ReadableStream<Uint8Array>(),
    env: {},
    cwd: "/",
    tty: { stdin: false, stdout: false, stderr: false },
  };
  const options = openOptions(
    { io, debug: false, quiet: false, outcome: "ok" },
    "demo",
    call.options,
  );
  for (const { key } of CONNECTION_FLAGS) {
    if (key === "progress") continue; // the CLI's own: how progress is drawn
    assert.ok(key in options, `no OpenOptions field for ${key}`);
  }
  assert.equal(options.timeoutMs, 5000);
  assert.deepEqual(options.sandbox, { network: ["h.io"], read: ["r"], write: ["w"] });
  assert.deepEqual(options.headers, { "X-A": "1" });
  assert.equal(typeof options.elicit, "function");
  assert.equal("json" in options, false, "a command's own flag does not reach open()");
});

Deno.test("the parser reads every form of a command line", async (t) => {
  await t.step("global flags anywhere before --", async () => {
    const parsed = await parseArgs(["--debug", "cat", "x", "-q"]);
    assert.deepEqual(parsed.globals, { debug: true, quiet: true });
  });
  await t.step("--x=v, --x v, -n5, -n 5, and the last value of a flag given twice", async () => {
    assert.equal((await run(["head", "-n5", "x"])).options.lines, 5);
    const seven = await run(["head", "-n", "7", "x"]) as Invocation<typeof HEAD>;
    assert.equal(seven.options.lines, 7);
    const four = await run(["cat", "--timeout=3s", "--timeout", "4s", "x"]);
    assert.equal(four.options.timeoutMs, 4000);
  });
  await t.step("grouped switches and a repeatable flag", async () => {
    const call = await run(["put", "-c", "4", "--arg", "a=1", "--arg", "b=2", "t.json"]);
    assert.equal((call as Invocation<typeof PUT>).options.concurrency, 4);
    assert.deepEqual((call as Invocation<typeof PUT>).options.arg, ["a=1", "b=2"]);
  });
  await t.step(
    "-- ends the flags (a SOURCE command's server argv follows); lone - is an argument",
    async () => {
      assert.deepEqual((await run(["filter", "--", "--json"])).args, { expr: "--json" });
      assert.equal((await run(["cat", "--", "--json"])).args.source, "mcp+cmd://--json");
      assert.equal((await run(["cat", "-"])).args.source, "-");
    },
  );
  await t.step("a value flag takes the next word whatever it looks like", async () => {
    assert.equal((await run(["cat", "--args", "--x", "s"])).options.args, "--x");
  });
  await t.step("given fields are told from defaulted ones", async () => {
    assert.ok((await run(["cat", "--timeout", "60s", "x"])).given.has("timeoutMs"));
    assert.ok(!(await run(["cat", "x"])).given.has("timeoutMs"));
  });
  await t.step("help and version", async () => {
    const help = await run(["help", "mcp", "schema"]);
    assert.deepEqual(help.args, { command: ["mcp", "schema"] });
    assert.deepEqual(await helpTopic(["mcp", "schema"]), ["mcp", "schema"]);
    await assert.rejects(() => helpTopic(["nope"]), /Unknown command "nope"/);
    assert.equal((await parseArgs(["profile", "list", "-h"])).kind, "help");
    assert.equal((await parseArgs(["-V"])).kind, "version");
    assert.equal((await parseArgs([])).kind, "help");
  });
  await t.step("every mistake is a UsageError before anything runs", async () => {
    for (
      const argv of [
        ["nope"],
        ["profile"],
        ["profile", "lst"],
        ["cat"],
        ["cat", "a", "b"],
        ["cat", "--nope", "x"],
        ["cat", "--json=1", "x"],
        ["cat", "--timeout"],
        ["cat", "--timeout", "soon", "x"],
        ["inspect", "--format", "yaml", "x"],
        ["completions", "tcsh"],
        ["--timeout", "5s", "cat", "x"],
      ]
    ) await assert.rejects(() => run(argv), UsageError, argv.join(" "));
  });
});
