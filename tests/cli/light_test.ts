/**
 * `profile list` and `profile info` run without commander (lib/cli/light.ts),
 * and so do `inspect SOURCE` and `cat SOURCE` (lib/cli/light_calls.ts):
 * main.ts's output is byte for byte the CLI's (lib/cli/main.ts run in this
 * process on the same HOME, project and environment), errors included (they
 * are handed back to the CLI); the argv parser takes only what it knows; and
 * the profile commands load no npm package and not Deno's Node
 * compatibility layer, the calls no commander; the flags the calls give the
 * commands' actions are commander's defaults.
 */

import assert from "node:assert/strict";
import { Command } from "commander";
import { registerCat } from "../../lib/cli/commands/cat.ts";
import { registerInspect } from "../../lib/cli/commands/inspect.ts";
import type { Cli } from "../../lib/cli/context.ts";
import type { Io } from "../../lib/cli/io.ts";
import { parseLight } from "../../lib/cli/light.ts";
import { DEFAULT_CALL_FLAGS } from "../../lib/cli/light_calls.ts";
import { main } from "../../lib/cli/main.ts";
import { permissionFlags } from "../../lib/sandbox/permissions.ts";
import { baseEnv, FIXTURES, loadedModules, MAIN, ROOT } from "../helpers.ts";
import { denoCacheDir, fixtureMeta, sandbox } from "../profile/sandbox.ts";

/** The CLI (commander) in this process, on an Io of the given environment. */
async function viaCli(args: string[], env: Record<string, string>, cwd: string) {
  const out: number[][] = [[], []];
  const writer = (i: number) => ({
    write: (bytes: Uint8Array) => {
      out[i].push(...bytes);
      return Promise.resolve(bytes.length);
    },
  });
  const io: Io = {
    stdout: writer(0),
    stderr: writer(1),
    stdin: new ReadableStream({ start: (controller) => controller.close() }),
    env,
    cwd,
    tty: { stdin: false, stdout: false, stderr: false },
  };
  const code = await main(args, io);
  const text = (bytes: number[]) => new TextDecoder().decode(new Uint8Array(bytes));
  return { code, stdout: text(out[0]), stderr: text(out[1]) };
}

Deno.test("parseLight() takes only the argv it fully knows", () => {
  const plain = { format: "text", debug: false, quiet: false };
  assert.deepEqual(parseLight(["profile", "list"]), { command: "profile list", ...plain });
  assert.deepEqual(parseLight(["--debug", "profile", "-q", "info", "@x", "--format=json"]), {
    command: "profile info",
    server: "@x",
    format: "json",
    debug: true,
    quiet: true,
  });
  assert.equal(parseLight(["profile", "list", "--format", "json"])?.format, "json");
  assert.deepEqual(parseLight(["inspect", "mcp+uvx://x"]), {
    command: "inspect",
    source: "mcp+uvx://x",
    ...plain,
  });
  assert.deepEqual(parseLight(["-q", "inspect", "--format", "json", "@x"]), {
    command: "inspect",
    source: "@x",
    format: "json",
    debug: false,
    quiet: true,
  });
  assert.deepEqual(parseLight(["cat", "@x/echo?text=hi", "--debug"]), {
    command: "cat",
    source: "@x/echo?text=hi",
    ...plain,
    debug: true,
  });
  for (
    const args of [
      ["profile"],
      ["profile", "list", "extra"],
      ["profile", "info"],
      ["profile", "list", "--format", "xml"],
      ["profile", "list", "--format"],
      ["profile", "list", "--format", "-q"],
      ["profile", "--format", "json", "list"],
      ["profile", "list", "--help"],
      ["profile", "list", "--"],
      ["profile", "info", "-x"],
      ["profile", "list", "--fromat", "json"],
      ["profile", "create", "x"],
      ["cat", "profile", "list"],
      ["inspect"],
      ["inspect", "a", "b"],
      ["--format", "json", "inspect", "x"],
      ["inspect", "x", "--format", "xml"],
      ["inspect", "x", "--timeout", "5s"],
      ["cat", "x", "--format", "json"],
      ["cat", "x", "--json"],
      ["cat", "x", "-"],
      ["cat"],
      ["head", "x"],
      ["cat", "x", "--"],
    ]
  ) assert.equal(parseLight(args), undefined, args.join(" "));
});

Deno.test("main.ts answers profile list/info as the CLI does, without commander", async (t) => {
  const box = await sandbox();
  try {
    await box.write(
      `${box.user}/srv/_meta.json`,
      fixtureMeta({ description: "a stdio server", env: { TOKEN: "${SRV_TOKEN}" } }),
    );
    await box.write(`${box.user}/srv/echo.json`, `{"tool": "echo", "description": "says it"}`);
    await box.write(`${box.projectProfiles}/srv/extra.json`, `{}`);
    await box.write(`${box.user}/broken/_meta.json`, `{"command": "x",,}`);
    const env = { ...baseEnv(), HOME: box.home, DENO_DIR: await denoCacheDir() };
    const secret = { SRV_TOKEN: "sk-light-0123456789" };
    const cases: string[][] = [
      ["profile", "list"],
      ["profile", "list", "--format", "json"],
      ["-q", "profile", "info", "@srv"],
      ["profile", "info", "srv", "--format=json"],
      ["profile", "info", "@demo"],
      // Errors: handed back to the CLI.
      ["profile", "info", "@nope"],
      ["profile", "info", "@broken"],
      ["profile", "info", "bad/name"],
      ["profile", "list", "--format", "xml"],
    ];
    for (const args of cases) {
      await t.step(args.join(" "), async () => {
        const light = await box.run(args, { env: secret });
        const cli = await viaCli(args, { ...env, ...secret }, box.project);
        assert.deepEqual(light, cli);
        if (args.includes("@srv")) {
          assert.match(light.stdout, /TOKEN=\*\*\*/);
          assert.doesNotMatch(light.stdout, /sk-light/);
        }
      });
    }
    await t.step("the run loads no npm package, no node: module", async () => {
      const out = await loadedModules(["profile", "info", "@srv"], {
        cwd: box.project,
        env: { ...env, ...secret },
      });
      assert.equal(out.code, 0);
      const loaded = out.loaded;
      assert.ok(loaded.includes(`file://${ROOT}/lib/cli/light.ts`), "the light path ran");
      assert.ok(loaded.includes(`file://${ROOT}/lib/profile/trust.ts`), "the log lists modules");
      assert.deepEqual(loaded.filter((url) => /npm|node:|ext:deno_node|commander/.test(url)), []);
    });
  } finally {
    await box.dispose();
  }
});

Deno.test("the light calls give the actions commander's defaults", async (t) => {
  const io = {} as Io;
  const cli: Cli = { io, debug: false, quiet: false, outcome: "ok" };
  const program = new Command("jn").exitOverride();
  registerInspect(program, cli);
  registerCat(program, cli);
  let given: unknown;
  for (const command of program.commands) {
    command.action((_source: string, options: unknown) => void (given = options));
  }
  await t.step("inspect SOURCE", async () => {
    await program.parseAsync(["inspect", "x"], { from: "user" });
    assert.deepEqual(given, { ...DEFAULT_CALL_FLAGS, format: "text" });
  });
  await t.step("cat SOURCE", async () => {
    await program.parseAsync(["cat", "x"], { from: "user" });
    assert.deepEqual(given, DEFAULT_CALL_FLAGS);
  });
});

Deno.test("main.ts answers inspect SOURCE and cat SOURCE as the CLI does", async (t) => {
  const fixture = `mcp+node://${FIXTURES}/servers/fixture.mjs`;
  const env = baseEnv();
  const cases: string[][] = [
    ["inspect", fixture],
    ["inspect", fixture, "--format", "json"],
    ["-q", "inspect", "--format=json", fixture],
    ["cat", `${fixture}?tool=echo&text=hi`],
    ["cat", `${fixture}?list=tools`],
    // Errors, reported by the light path itself: a tool error (1), a JSON-RPC error (5),
    // an unknown tool (2), a bad URI (2, with its caret line), a server that cannot start (4).
    ["cat", `${fixture}?tool=fail`],
    ["cat", `${fixture}?tool=rpc_error`],
    ["cat", `${fixture}?tool=no_such_tool`],
    ["cat", "mcp+nope://x"],
    ["inspect", `mcp+node://${FIXTURES}/servers/no_such_server.mjs`],
  ];
  const codes = new Set<number>();
  for (const args of cases) {
    await t.step(args.join(" ").replaceAll(FIXTURES, "…"), async () => {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", ...permissionFlags(), MAIN, ...args],
        cwd: ROOT,
        env,
        clearEnv: true,
        stdout: "piped",
        stderr: "piped",
      }).output();
      const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
      const light = { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
      assert.deepEqual(light, await viaCli(args, env, ROOT));
      codes.add(light.code);
    });
  }
  await t.step("the cases cover every exit code of a call", () => {
    assert.deepEqual([...codes].sort((a, b) => a - b), [0, 1, 2, 4, 5]);
  });
  await t.step("the run loads no commander and not the CLI's program", async () => {
    const out = await loadedModules(["inspect", fixture], { cwd: ROOT, env });
    assert.equal(out.code, 0);
    const loaded = out.loaded;
    assert.ok(loaded.includes(`file://${ROOT}/lib/cli/light_calls.ts`), "the light path ran");
    assert.ok(loaded.some((url) => url.includes("@modelcontextprotocol")), "the log lists npm");
    assert.deepEqual(loaded.filter((url) => /commander|lib\/cli\/main\.ts/.test(url)), []);
  });
});
