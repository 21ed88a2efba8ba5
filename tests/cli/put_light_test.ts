/**
 * A plain `jn put TARGET` runs without commander (lib/cli/put_light.ts):
 * the parser takes only the argv it fully knows, with commander's values;
 * main.ts prints byte for byte what the CLI prints (lib/cli/main.ts in this
 * process, on the same stdin and environment), errors and exit codes
 * included; and the run loads no commander and not the CLI's program.
 */

import assert from "node:assert/strict";
import { DEFAULT_CALL_FLAGS } from "../../lib/cli/light_calls.ts";
import { parsePutLight as parse } from "../../lib/cli/put_light.ts";
import { baseEnv, loadedModules, ROOT, runJn, runJnHere } from "../helpers.ts";
import { fixtureUri, ndjson } from "../put/put_helpers.ts";

const URI = "mcp+uvx://x?tool=echo";
const parsePutLight = (args: string[]) => parse(args, DEFAULT_CALL_FLAGS);

Deno.test("parsePutLight() takes only the argv it fully knows", () => {
  const plain = { raw: { ...DEFAULT_CALL_FLAGS }, debug: false, quiet: false };
  assert.deepEqual(parsePutLight(["put", URI]), { target: URI, ...plain });
  assert.deepEqual(parsePutLight(["put", "@srv/tool"])?.target, "@srv/tool");
  assert.deepEqual(
    parsePutLight(["-q", "put", "-c", "16", URI, "--fail-fast", "--max-timeouts=0", "--json"]),
    {
      target: URI,
      raw: {
        ...DEFAULT_CALL_FLAGS,
        concurrency: "16",
        failFast: true,
        maxTimeouts: "0",
        json: true,
      },
      debug: false,
      quiet: true,
    },
  );
  assert.deepEqual(parsePutLight(["put", "--concurrency=4", "--debug", URI]), {
    target: URI,
    raw: { ...DEFAULT_CALL_FLAGS, concurrency: "4" },
    debug: true,
    quiet: false,
  });
  // Invalid values are parsed: put's action reports them, as under commander.
  assert.equal(parsePutLight(["put", "-c", "0", URI])?.raw.concurrency, "0");
  for (
    const args of [
      [],
      ["put"],
      ["put", URI, "extra"],
      ["put", "out.json"],
      ["put", "out.ndjson"],
      ["put", "nowhere"],
      ["put", ""],
      ["cat", URI],
      ["-c", "4", "put", URI],
      ["put", "-c", URI],
      ["put", URI, "-c"],
      ["put", URI, "-c", "-1"],
      ["put", URI, "--concurrency="],
      ["put", URI, "--json=yes"],
      ["put", URI, "--arg", "a=1"],
      ["put", URI, "--timeout", "5s"],
      ["put", URI, "--help"],
      ["put", URI, "-h"],
      ["put", "--", URI],
      ["put", URI, "-qc", "4"],
      ["help", "put"],
    ]
  ) {
    assert.equal(parsePutLight(args), undefined, JSON.stringify(args));
  }
});

Deno.test("main.ts runs a plain put as the CLI does", async (t) => {
  const stdin = ndjson([{ text: "a" }, [1], { nope: 1 }, { text: "b" }]) + "not json\n";
  const cases: string[][] = [
    ["put", "-q", fixtureUri("echo")],
    ["put", "-q", "-c", "1", "--json", fixtureUri("echo")],
    ["-q", "put", fixtureUri("echo"), "--fail-fast"],
    ["put", "-q", "--max-timeouts", "1", fixtureUri("fail")],
    // Errors reported by put's action: a bad --concurrency (2), a target with no tool (2),
    // a server that cannot start (4).
    ["put", "-c", "0", fixtureUri("echo")],
    ["put", fixtureUri("echo").replace("tool=echo", "")],
    ["put", "mcp+node:///no/such/server.mjs?tool=echo"],
  ];
  const codes = new Set<number>();
  for (const args of cases) {
    await t.step(args.join(" ").replace(/mcp\+node:\/\/\S+\/fixture\.mjs/, "…"), async () => {
      const light = await runJn(args, { stdin });
      const cli = await runJnHere(args, { stdin });
      assert.deepEqual(light, cli);
      codes.add(light.code);
    });
  }
  await t.step("the cases cover put's exit codes", () => {
    assert.deepEqual([...codes].sort((a, b) => a - b), [1, 2, 4]);
  });
  await t.step("the summary on stderr is the CLI's (timings aside)", async () => {
    const args = ["put", fixtureUri("echo")];
    const timing = / in [\d.]+s \(\d+ calls\/s\)/g;
    const light = await runJn(args, { stdin });
    const cli = await runJnHere(args, { stdin });
    assert.match(light.stderr, timing);
    assert.deepEqual(
      { ...light, stderr: light.stderr.replace(timing, "") },
      { ...cli, stderr: cli.stderr.replace(timing, "") },
    );
  });
  await t.step("the run loads no commander and not the CLI's program", async () => {
    const out = await loadedModules(["put", fixtureUri("echo")], {
      cwd: ROOT,
      env: baseEnv(),
      stdin: ndjson([{ text: "a" }]),
    });
    assert.equal(out.code, 0);
    const loaded = out.loaded;
    assert.ok(loaded.includes(`file://${ROOT}/lib/cli/put_light.ts`), "the light path ran");
    assert.ok(loaded.some((url) => url.includes("@modelcontextprotocol")), "the log lists npm");
    assert.deepEqual(loaded.filter((url) => /commander|lib\/cli\/main\.ts/.test(url)), []);
  });
});
