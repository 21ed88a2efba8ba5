/**
 * What start-up and each light command load, proved on the import graph
 * (`deno info --json`, dynamic `import()` edges cut where said): jn's entry
 * — the parser, the command tables, help — loads no npm package at all
 * before it knows the command (command modules are loaded by a computed
 * URL); the modules of `profile list|info`, `completions` and the
 * completion of `@profile` names reach none either, nor any SDK, ajv, zod
 * or jq; and `open()` and the call commands load the drift check, profiles,
 * the sandbox's plan, HTTP and OAuth only for a call that needs them; the
 * launchers' descriptors, which the URI parser reads, load nothing of Node's.
 */

import assert from "node:assert/strict";
import { ROOT } from "../helpers.ts";

const HEAVY = /@modelcontextprotocol|\bajv\b|\bzod\b|jq-wasm/;

/** The npm packages a module reaches through static imports only (or dynamic ones too). */
async function staticNpm(entry: string, dynamic = false): Promise<string[]> {
  return (await reach(entry, dynamic)).npm;
}

/** The npm packages, Node's modules and jn's own modules (paths from the root) a module reaches. */
async function reach(
  entry: string,
  dynamic: boolean,
): Promise<{ npm: string[]; node: string[]; own: string[] }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", `${ROOT}/${entry}`],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as GraphInfo;
  const modules = new Map(info.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const npm = new Set<string>();
  const stack = [...info.roots];
  while (stack.length > 0) {
    const raw = stack.pop()!;
    const specifier = info.redirects?.[raw] ?? raw;
    if (seen.has(specifier)) continue;
    seen.add(specifier);
    const module = modules.get(specifier);
    if (specifier.startsWith("npm:") || module?.kind === "npm") {
      npm.add(module?.npmPackage ?? specifier);
      continue;
    }
    for (const dep of module?.dependencies ?? []) {
      if (dep.code && (dynamic || !dep.isDynamic)) stack.push(dep.code.specifier);
    }
  }
  const root = new URL(`${ROOT}/`, "file:///").href;
  const own = [...seen].filter((url) => url.startsWith(root)).map((url) => url.slice(root.length));
  const node = [...seen].filter((specifier) => specifier.startsWith("node:"));
  return { npm: [...npm], node, own };
}

interface GraphInfo {
  roots: string[];
  redirects?: Record<string, string>;
  modules: {
    specifier: string;
    kind?: string;
    npmPackage?: string;
    dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[];
  }[];
}

Deno.test("the light paths load no heavy package", async (t) => {
  await t.step("the graph walk sees npm packages (the demo server imports the SDK)", async () => {
    assert.match((await staticNpm("lib/demo/server.ts")).join(" "), HEAVY);
  });
  await t.step(
    "main.ts (parser, tables, help), profile list|info, completion of @profile names: no npm",
    async () => {
      assert.deepEqual(await staticNpm("main.ts"), []);
      // Not even through a literal import(): `deno run` analyses those graphs at start-up
      // (~15 ms of npm resolution); the command modules are loaded by a computed URL.
      assert.deepEqual(await staticNpm("main.ts", true), []);
      assert.deepEqual(await staticNpm("lib/cli/help.ts"), []);
      assert.deepEqual(await staticNpm("lib/cli/commands/complete_word.ts"), []);
      assert.deepEqual(await staticNpm("lib/cli/commands/profile_list.ts"), []);
      assert.deepEqual(await staticNpm("lib/cli/commands/profile_info.ts"), []);
    },
  );
  for (const entry of ["lib/cli/commands/profile_trust.ts", "lib/cli/commands/completions.ts"]) {
    await t.step(`${entry}: no SDK, ajv, zod or jq`, async () => {
      const npm = await staticNpm(entry);
      assert.deepEqual(npm.filter((name) => HEAVY.test(name)), []);
    });
  }
});

/** What a call that needs none of it must not load: drift, profiles, sandbox plans, HTTP, OAuth. */
const CALL_EXTRAS =
  /^lib\/(drift\/(check|report)|schema\/|profile\/(resolve|trust|launch)\.|sandbox\/(plan|confine|bwrap|seatbelt|failure_hint)\.|session\/(http_channel|oauth_)|auth\/)/;

Deno.test("open() loads what a call needs, when it needs it", async (t) => {
  for (
    const entry of ["lib/client/open.ts", "lib/cli/commands/inspect.ts", "lib/cli/commands/cat.ts"]
  ) {
    await t.step(
      `${entry}: no drift, profile, sandbox plan, HTTP or OAuth module up front`,
      async () => {
        const { own } = await reach(entry, false);
        assert.ok(own.includes("lib/session/session.ts"), own.join("\n"));
        assert.deepEqual(own.filter((path) => CALL_EXTRAS.test(path)), []);
      },
    );
  }
  await t.step("each is a literal import(), seen by deno compile and the bundle", async () => {
    const { own } = await reach("lib/client/open.ts", true);
    for (
      const path of [
        "lib/drift/check.ts",
        "lib/profile/trust.ts",
        "lib/sandbox/confine.ts",
        "lib/client/sandbox_failure.ts",
        "lib/session/http_channel.ts",
        "lib/session/oauth_provider.ts",
        "lib/auth/token_store.ts",
      ]
    ) assert.ok(own.includes(path), path);
  });
});

Deno.test("the launchers' descriptors load with the URI parser, and nothing of Node's", async () => {
  // The parser reads every descriptor (lib/launch/registry.ts): they must stay light enough for
  // `jn __complete source WORD` and every call's start-up.
  const { node, own } = await reach("lib/launch/registry.ts", true);
  assert.deepEqual(node, []);
  assert.ok(own.includes("lib/launch/uvx.ts") && own.includes("lib/launch/http.ts"), own.join());
  assert.ok((await reach("lib/uri/parse.ts", false)).own.includes("lib/launch/registry.ts"));
});
