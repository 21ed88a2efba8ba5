// deno-lint-ignore-file no-console
/**
 * Measures jn's import graph: import cycles among jn's own modules (strongly
 * connected components), imports that run back up a layer (STYLE.md's
 * dependency direction, ranked below), modules over 300 lines, and whether
 * a given entry point loads `lib/cli`. The default entries are main.ts,
 * mod.ts, the library's other entries (mod/), every command module of the
 * command table and the other modules lib/cli/main.ts loads beside them
 * (`LOADED`: main.ts loads these by a computed URL, which `deno info` does
 * not follow).
 *
 * Usage: `deno run --allow-read --allow-run scripts/import_graph.ts [ENTRY…]`
 * (default: the entries above), from the repository root.
 *
 * @module
 */

import { LOADED } from "../lib/cli/main.ts";
import { COMMANDS } from "../lib/cli/table/commands.ts";

/** Layers from the bottom up: a module may import its own layer and those below. */
const RANKS: [prefix: string, rank: number][] = [
  ["deno.json", 0],
  ["lib/errors.ts", 0],
  ["lib/types.ts", 0],
  ["lib/version.ts", 0],
  ["lib/output/", 1],
  ["lib/text/", 1],
  ["lib/ndjson/", 2],
  // The launchers' descriptors sit below the URI parser, which reads them (lib/launch/descriptor.ts).
  ["lib/launch/", 3],
  ["lib/uri/", 4],
  ["lib/schema/", 5],
  ["lib/args/", 6],
  // Imports nothing: the sandbox reads from it where the user's sessions live.
  ["lib/profile/paths.ts", 6],
  // Imports nothing: the sandbox reads from it who runs jn (its uid, its home in /etc/passwd).
  ["lib/profile/own_user.ts", 6],
  ["lib/sandbox/", 7],
  ["lib/profile/", 8],
  ["lib/drift/", 9],
  ["lib/auth/", 11],
  ["lib/session/", 12],
  ["lib/put/", 13],
  ["lib/filter/", 13],
  ["lib/demo/", 13],
  ["lib/serve/", 13],
  ["lib/client/", 14],
  ["mod.ts", 15],
  ["mod/", 15],
  ["lib/cli/", 16],
  ["main.ts", 17],
];

function rankOf(path: string): number | undefined {
  let best: [string, number] | undefined;
  for (const entry of RANKS) {
    if (path.startsWith(entry[0]) && (best === undefined || entry[0].length > best[0].length)) {
      best = entry;
    }
  }
  return best?.[1];
}

interface Info {
  modules: {
    specifier: string;
    size?: number;
    dependencies?: { code?: { specifier?: string }; type?: { specifier?: string } }[];
  }[];
}

function graphOf(entry: string): { edges: Map<string, Set<string>>; external: Set<string> } {
  const out = new Deno.Command("deno", { args: ["info", "--json", entry], stdout: "piped" })
    .outputSync();
  const info: Info = JSON.parse(new TextDecoder().decode(out.stdout));
  const prefix = `file://${Deno.cwd()}/`;
  const edges = new Map<string, Set<string>>();
  const external = new Set<string>();
  for (const module of info.modules) {
    if (!module.specifier?.startsWith(prefix)) {
      if (module.specifier) external.add(module.specifier);
      continue;
    }
    const from = module.specifier.slice(prefix.length);
    const to = new Set<string>();
    for (const dep of module.dependencies ?? []) {
      for (const s of [dep.code?.specifier, dep.type?.specifier]) {
        if (s?.startsWith(prefix)) to.add(s.slice(prefix.length));
      }
    }
    edges.set(from, to);
  }
  return { edges, external };
}

function cycles(edges: Map<string, Set<string>>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const found: string[][] = [];
  const strong = (v: string) => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    on.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!idx.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of edges.keys()) if (!idx.has(v)) strong(v);
  return found;
}

const commandModules = [...new Set([...COMMANDS.map((c) => c.module), ...Object.values(LOADED)])]
  .filter((module) => module.endsWith(".ts"))
  .map((module) => `lib/cli/${module}`);
const libraryEntries = [...Deno.readDirSync("mod")].map((entry) => `mod/${entry.name}`).sort();
const entries = Deno.args.length > 0
  ? Deno.args
  : ["main.ts", "mod.ts", ...libraryEntries, ...commandModules];
const all = new Map<string, Set<string>>();
for (const entry of entries) {
  const { edges, external } = graphOf(entry);
  for (const [from, to] of edges) all.set(from, new Set([...(all.get(from) ?? []), ...to]));
  const cli = [...edges.keys()].filter((m) => m.startsWith("lib/cli/"));
  const npm = [...external].filter((s) => s.startsWith("npm:")).length;
  console.log(
    `${entry}: ${edges.size} jn modules; lib/cli modules: ${cli.length}; npm modules: ${npm}`,
  );
}

const found = cycles(all);
console.log(`\ncycles: ${found.length}`);
for (const c of found) console.log(`  ${c.length} modules: ${c.join(" ")}`);

const upward: string[] = [];
for (const [from, tos] of all) {
  const a = rankOf(from);
  for (const to of tos) {
    const b = rankOf(to);
    if (a !== undefined && b !== undefined && b > a) upward.push(`${from} -> ${to}`);
  }
}
console.log(`\nupward imports: ${upward.length}`);
for (const line of upward.sort()) console.log(`  ${line}`);

const unranked = [...all.keys()].filter((m) => rankOf(m) === undefined);
if (unranked.length > 0) console.log(`\nunranked: ${unranked.join(" ")}`);

const sizes: [string, number, boolean][] = [];
for (const path of all.keys()) {
  if (!path.endsWith(".ts")) continue;
  const text = Deno.readTextFileSync(path);
  const lines = text.split("\n").length - 1;
  const head = text.slice(0, 2000);
  if (lines > 300) {
    sizes.push([path, lines, /over ~?300 lines|long because|why .* long/i.test(head)]);
  }
}
sizes.sort((a, b) => b[1] - a[1]);
console.log(`\nmodules over 300 lines: ${sizes.length}`);
for (const [path, lines, reason] of sizes) {
  console.log(`  ${lines} ${path}${reason ? " (reason stated)" : ""}`);
}

const folders = new Map<string, { files: number; lines: number }>();
for (const path of all.keys()) {
  if (!path.startsWith("lib/")) continue;
  const folder = path.includes("/", 4) ? path.slice(0, path.lastIndexOf("/")) : "lib";
  const entry = folders.get(folder) ?? { files: 0, lines: 0 };
  entry.files++;
  entry.lines += Deno.readTextFileSync(path).split("\n").length - 1;
  folders.set(folder, entry);
}
console.log("\nfolders (modules reached from the entries):");
for (const [folder, { files, lines }] of [...folders].sort()) {
  console.log(`  ${folder}: ${files} files, ${lines} lines`);
}
