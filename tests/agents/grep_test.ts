/**
 * `grep` (lib/client/grep.ts): offline over every profile's saved snapshot
 * (no server started, secrets shown as ***, a broken profile one error
 * record), live through open() for the sources given (the demo server,
 * server-everything), with its pattern semantics: case-insensitive substring
 * by default, a regular expression on request.
 */

import assert from "node:assert/strict";
import { grep, type GrepOptions, UsageError } from "../../mod.ts";
import { grepLine } from "../../lib/output/agent_lines.ts";
import { style } from "../../lib/output/style.ts";
import { baseEnv, runJn, tempDir } from "../helpers.ts";
import { serverEverything } from "../remote/support.ts";

const EVERYTHING = await serverEverything();

async function all(pattern: string, options: GrepOptions): Promise<Record<string, unknown>[]> {
  const records: Record<string, unknown>[] = [];
  for await (const record of grep(pattern, options)) records.push({ ...record });
  return records;
}

/** A private HOME with user profiles: `genes` (inline tools) and a broken `bad`. */
async function withProfiles(fn: (options: GrepOptions) => Promise<void>): Promise<void> {
  const home = await tempDir("jn-grep-home-");
  try {
    const root = `${home}/.local/jn/profiles/mcp`;
    await Deno.mkdir(`${root}/genes`, { recursive: true });
    await Deno.mkdir(`${root}/bad`, { recursive: true });
    await Deno.writeTextFile(
      `${root}/genes/_meta.json`,
      JSON.stringify({
        // A server that cannot start: offline grep must not need it.
        command: "/nonexistent/genes-server",
        description: "Gene lookups; token ${JN_GREP_SECRET}",
        tools: {
          gene_search: {
            description: "Search GENES by symbol.\nSecond line about variants.",
            inputSchema: {
              type: "object",
              properties: { symbol: { type: "string", description: "HGNC gene symbol" } },
            },
          },
          trial_search: { description: "Clinical trials", parameters: { phase: {} } },
        },
      }),
    );
    await Deno.writeTextFile(`${root}/bad/_meta.json`, "{ not json");
    await fn({ cwd: home, env: { ...baseEnv(), HOME: home, JN_GREP_SECRET: "hunter2" } });
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

Deno.test("offline grep searches every profile's saved tools without starting a server", async () => {
  await withProfiles(async (options) => {
    const records = await all("gene", options);
    const genes = records.filter((r) => r.source === "@genes");
    assert.deepEqual(genes, [
      {
        type: "match",
        source: "@genes",
        kind: "server",
        name: "@genes",
        field: "description",
        text: "Gene lookups; token ***",
      },
      {
        type: "match",
        source: "@genes",
        kind: "tool",
        name: "gene_search",
        field: "name",
        text: "gene_search",
      },
      {
        type: "match",
        source: "@genes",
        kind: "tool",
        name: "gene_search",
        field: "description",
        text: "Search GENES by symbol.",
      },
      {
        type: "match",
        source: "@genes",
        kind: "tool",
        name: "gene_search",
        field: "parameter",
        text: "symbol: HGNC gene symbol",
      },
    ]);
    assert.doesNotMatch(JSON.stringify(records), /hunter2/);
    const error = records.find((r) => r.type === "error");
    assert.equal(
      error?.source,
      "@bad",
      "a broken profile is one error record, the rest is searched",
    );
    // Bundled profiles are searched too: the demo profile's echo tool has a `repeat` parameter.
    const repeat = await all("how many times", options);
    assert.ok(
      repeat.some((r) => r.source === "@demo" && r.name === "echo" && r.field === "parameter"),
      JSON.stringify(repeat),
    );
    assert.ok((await all("phase", options)).some((r) => r.name === "trial_search"));
    // The CLI without a source is the same offline search.
    const cli = await runJn(["grep", "gene_search"], { cwd: options.cwd, env: options.env });
    assert.equal(cli.code, 0, cli.stderr);
    assert.match(cli.stdout, /"source":"@genes","kind":"tool","name":"gene_search"/);
  });
});

Deno.test("the pattern: substring ignoring case, or a regular expression; case on request", async () => {
  await withProfiles(async (options) => {
    const names = async (pattern: string, extra: Partial<GrepOptions> = {}) =>
      (await all(pattern, { ...options, ...extra }))
        .filter((r) => r.source === "@genes").map((r) => `${r.name}.${r.field}`);
    assert.deepEqual(await names("VARIANTS"), ["gene_search.description"]);
    assert.deepEqual(await names("genes", { caseSensitive: true }), []);
    assert.deepEqual(await names("^(gene|trial)_search$", { regex: true }), [
      "gene_search.name",
      "trial_search.name",
    ]);
    assert.deepEqual(await names("^gene_", {}), [], "without regex, ^ is a character");
    await assert.rejects(all("(", { ...options, regex: true }), UsageError);
  });
});

Deno.test("grep with sources asks the servers: the demo server's tools, prompts and resources", async () => {
  const records = await all("sum", {
    cwd: Deno.cwd(),
    env: baseEnv(),
    sources: ["@demo", "mcp+node:///nonexistent/server.js"],
  });
  const found = records.map((r) => `${r.source} ${r.kind} ${r.name} ${r.field}`);
  assert.ok(found.includes("@demo tool add description"), found.join("\n"));
  assert.ok(found.includes("@demo prompt summarize name"), found.join("\n"));
  const failed = records.find((r) => r.type === "error");
  assert.equal(failed?.source, "mcp+node:///nonexistent/server.js");
  assert.doesNotMatch(String(failed?.error), /\n/);
});

Deno.test({
  name: "grep with a source finds server-everything's tools and resources",
  ignore: EVERYTHING === undefined,
  fn: async () => {
    const records = await all("structure", {
      cwd: Deno.cwd(),
      env: baseEnv(),
      sources: [`mcp+node://${EVERYTHING}`],
    });
    const kinds = new Set(records.map((r) => r.kind));
    assert.ok(kinds.has("tool"), JSON.stringify(records));
    assert.ok(kinds.has("resource"), JSON.stringify(records));
  },
});

Deno.test("the text line of a match or an error is one visible line", () => {
  const hostile = "\x1b[2J\u202eevil\nnext";
  const plain = style(false);
  assert.equal(
    grepLine({
      type: "match",
      source: "@demo",
      kind: "tool",
      name: "add",
      field: "description",
      text: "Adds a and b.",
    }, plain),
    "@demo tool add (description): Adds a and b.",
  );
  const bad = grepLine({
    type: "match",
    source: hostile,
    kind: "tool",
    name: hostile,
    field: "name",
    text: hostile,
  }, plain);
  // deno-lint-ignore no-control-regex
  assert.doesNotMatch(bad, /[\x00-\x1f\u202e]/);
  assert.equal(grepLine({ type: "error", source: "@x", error: "boom" }, plain), "@x: error: boom");
});
