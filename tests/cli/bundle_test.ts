/**
 * jn's bundle (scripts/bundle.ts, what `deno task compile` compiles) behaves
 * as the source tree does: the same commands, run through the bundle's
 * main.js and through main.ts with the same permissions, environment and
 * working folder, print the same stdout and stderr and exit with the same
 * code — version, help, completions, profile list, the calls (inspect,
 * cat, filter with jq), and errors of each layer.
 */

import assert from "node:assert/strict";
import { permissionFlags } from "../../lib/sandbox/permissions.ts";
import { buildBundle } from "../../scripts/bundle.ts";
import { baseEnv, finish, FIXTURES, MAIN, ROOT, type RunResult, tempDir } from "../helpers.ts";

const FIXTURE = `mcp+node://${FIXTURES}/servers/fixture.mjs`;

/** Each case: jn's arguments, and its stdin if any. */
const CASES: { args: string[]; stdin?: string }[] = [
  { args: ["--version"] },
  { args: ["--help"] },
  { args: ["help", "inspect"] },
  { args: ["cat", "--help"] },
  { args: ["help", "mcp"] },
  { args: ["completions", "bash"] },
  { args: ["profile", "list"] },
  { args: ["profile", "list", "--format", "json"] },
  { args: ["inspect", FIXTURE] },
  { args: ["inspect", "--format", "json", FIXTURE] },
  // A server's argv after --: the parser's second phase, built beside the commands.
  { args: ["inspect", "--", "node", `${FIXTURES}/servers/fixture.mjs`] },
  { args: ["cat", `${FIXTURE}?tool=echo&text=hi`] },
  { args: ["cat", `${FIXTURE}?list=tools`] },
  { args: ["filter", ".a"], stdin: '{"a":1}\n{"a":[2]}\n' },
  // jn starting itself: the bundle (in a temporary folder, not dist/bundle) runs its own main.js.
  { args: ["cat", "@demo/add?a=2&b=40"] },
  // Errors: a tool's error, a JSON-RPC error, an unknown tool, a bad URI, an unknown command.
  { args: ["cat", `${FIXTURE}?tool=fail`] },
  { args: ["cat", `${FIXTURE}?tool=rpc_error`] },
  { args: ["cat", `${FIXTURE}?tool=no_such_tool`] },
  { args: ["cat", "mcp+nope://x"] },
  { args: ["nope"] },
  { args: ["inspect"] },
  // A bad value, found when the second phase applies it.
  { args: ["cat", "--timeout", "soon", FIXTURE] },
];

async function runEntry(
  entry: string[],
  args: string[],
  options: { home: string; stdin?: string },
): Promise<RunResult> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...entry.slice(0, -1), ...permissionFlags(), entry.at(-1)!, ...args],
    cwd: options.home,
    env: { ...baseEnv(), HOME: options.home },
    clearEnv: true,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  return await finish(child, { stdin: options.stdin });
}

Deno.test("the bundle prints what the source tree prints", async (t) => {
  const bundle = await tempDir("jn-bundle-");
  const moved = `${bundle}-moved`;
  const home = await tempDir("jn-bundle-home-");
  try {
    const main = await buildBundle(bundle);
    const source = ["--config", `${ROOT}/deno.json`, MAIN];
    const bundled = ["--no-config", main];
    const codes = new Set<number>();
    for (const { args, stdin } of CASES) {
      await t.step(`jn ${args.join(" ").replaceAll(FIXTURES, "…")}`, async () => {
        const [expected, actual] = await Promise.all([
          runEntry(source, args, { home, stdin }),
          runEntry(bundled, args, { home, stdin }),
        ]);
        assert.deepEqual(actual, expected);
        codes.add(expected.code);
      });
    }
    await t.step("the cases cover success, usage errors and a server's errors", () => {
      assert.deepEqual([...codes].sort((a, b) => a - b), [0, 1, 2, 5]);
    });
    await t.step("@demo runs from the bundle moved elsewhere after it was built", async () => {
      await Deno.rename(bundle, moved);
      const args = ["cat", "@demo/add?a=2&b=40"];
      const result = await runEntry(["--no-config", `${moved}/main.js`], args, { home });
      assert.deepEqual(result, await runEntry(source, args, { home }));
      assert.equal(result.code, 0, result.stderr);
    });
  } finally {
    await Deno.remove(bundle, { recursive: true }).catch(() => {});
    await Deno.remove(moved, { recursive: true }).catch(() => {});
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("the bundle keeps the source tree's lazy loading", async (t) => {
  const bundle = await tempDir("jn-bundle-");
  try {
    const main = await buildBundle(bundle);
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", "--no-config", main],
      env: baseEnv(),
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
    const info = JSON.parse(new TextDecoder().decode(output.stdout)) as GraphInfo;
    const modules = new Map(info.modules.map((m) => [m.specifier, m]));
    await t.step("what --version evaluates: no command module, no npm or node: module", () => {
      const seen = closure(modules, info.roots[0], false);
      // The start-up is built apart from the commands: none of its files is theirs.
      assert.ok(!seen.some((url) => url.includes("/lib/cli/")), seen.join("\n"));
      assert.ok(seen.every((url) => !url.startsWith("node:")), seen.join("\n"));
      assert.ok(!seen.some((url) => url.includes("/lib/cli/commands/")), seen.join("\n"));
      for (const url of seen.filter((url) => url.startsWith("file:"))) {
        assert.doesNotMatch(Deno.readTextFileSync(new URL(url)), /^\/\/ \S*\/npm\//m, url);
      }
    });
    await t.step("what deno run analyses at start: no command module, no npm code", () => {
      const seen = closure(modules, info.roots[0], true);
      assert.ok(seen.length > 3, "the graph walk sees the dynamic imports");
      assert.ok(!seen.some((url) => url.includes("/lib/cli/commands/")), seen.join("\n"));
      // The SDK is in the bundle (the call commands' chunks), just not in this graph.
      // The bundler heads each module's code with its path: npm ones are in Deno's npm cache.
      const npm = /^\/\/ \S*\/npm\/\S*\/@modelcontextprotocol\//m;
      const commands = `${bundle}/lib/cli`;
      const chunks = [...Deno.readDirSync(commands)].filter((e) => e.name.endsWith(".js"));
      assert.ok(
        chunks.some((e) => npm.test(Deno.readTextFileSync(`${commands}/${e.name}`))),
        "no chunk of the commands holds the SDK",
      );
      for (const url of seen.filter((url) => url.startsWith("file:"))) {
        assert.doesNotMatch(Deno.readTextFileSync(new URL(url)), /^\/\/ \S*\/npm\//m, url);
      }
    });
  } finally {
    await Deno.remove(bundle, { recursive: true });
  }
});

interface GraphInfo {
  roots: string[];
  modules: {
    specifier: string;
    size?: number;
    dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[];
  }[];
}

/** The modules `root` reaches through static imports (and dynamic ones too). */
function closure(
  modules: Map<string, GraphInfo["modules"][number]>,
  root: string,
  dynamic: boolean,
): string[] {
  const seen = new Set<string>();
  const stack = [root];
  while (stack.length > 0) {
    const url = stack.pop()!;
    if (seen.has(url)) continue;
    seen.add(url);
    for (const dep of modules.get(url)?.dependencies ?? []) {
      if (dep.code && (dynamic || !dep.isDynamic)) stack.push(dep.code.specifier);
    }
  }
  return [...seen];
}
