/**
 * The commands of README.md and docs/*.md run as pasted from the repository
 * root: every ```sh and ```console block (tests/docs/doc_blocks.ts says how
 * they are read) runs in bash, `jn` being this checkout's main.ts, and each
 * command must exit with the code the docs give (0 unless they say otherwise).
 * As in the reader's shell, a pipeline's code is its last command's; its
 * other commands may exit 0 or 1 (a tool error, failed records) but not with
 * the codes of a broken command (2 and up: usage, configuration, launch…).
 *
 * Blocks that need the network, credentials, a server left listening on a
 * port, a terminal or a differently built jn carry `<!-- no-run: why -->`;
 * `<!-- needs: jq -->` blocks are not run (saying so) where jq is missing, and
 * `<!-- needs: bwrap -->` ones where bubblewrap cannot sandbox. Everything runs with a throwaway HOME and XDG directories
 * (Deno's and npm's caches linked to lasting ones, so nothing is downloaded twice),
 * in a throwaway copy of the root (symlinks to its entries) so files the docs
 * write (odd.json, out/) land there. Blocks run concurrently, each one's
 * commands in order in one shell, as a reader pastes a block.
 *
 * @module
 */

import * as assert from "node:assert/strict";
import { spawn } from "node:child_process";
import process from "node:process";
import { bwrapUnavailable } from "../sandbox/bwrap_support.ts";
import { DENO_DIR, ROOT } from "../helpers.ts";
import { permissionFlags } from "../../lib/sandbox/permissions.ts";
import { type DocBlock, docBlocks, type DocCommand, runnable } from "./doc_blocks.ts";

/** How long one block may run before its process group is ended (the block then fails). */
const BLOCK_TIMEOUT_MS = 180_000;

/** What one command did. */
interface Outcome {
  command: DocCommand;
  /** The exit code of each command of the pipeline (one for a simple command). */
  codes: number[];
  stderr: string;
}

/** A throwaway place to paste commands in: root copy, HOME, `jn` on PATH. */
interface Place {
  dir: string;
  cwd: string;
  env: Record<string, string>;
}

async function makePlace(): Promise<Place> {
  const dir = await Deno.makeTempDir({ prefix: "jn-doc-commands-" });
  const cwd = `${dir}/repo`;
  const home = `${dir}/home`;
  const bin = `${dir}/bin`;
  await Deno.mkdir(cwd);
  await Deno.mkdir(home);
  await Deno.mkdir(bin);
  // Servers get a minimal environment (no DENO_DIR): a Deno server's default
  // cache under this HOME must be the real one, or it would download it all.
  await Deno.mkdir(`${home}/.cache`);
  await Deno.symlink(DENO_DIR, `${home}/.cache/deno`);
  // Likewise npm's cache (npx keeps its packages there): an `mcp+npx://` example
  // downloads its package on the first run only (~6 s of CPU and the network each
  // time otherwise). A test-owned cache, beside tests/remote/support.ts's installs.
  const npmCache = `${Deno.env.get("HOME") ?? "/tmp"}/.cache/jn-tests/doc-commands-npm`;
  await Deno.mkdir(npmCache, { recursive: true });
  await Deno.symlink(npmCache, `${home}/.npm`);
  for await (const entry of Deno.readDir(ROOT)) {
    if (entry.name === ".git") continue;
    await Deno.symlink(`${ROOT}/${entry.name}`, `${cwd}/${entry.name}`);
  }
  const flags = permissionFlags().map((flag) => `'${flag}'`).join(" ");
  await Deno.writeTextFile(
    `${bin}/jn`,
    `#!/bin/sh\nexec '${Deno.execPath()}' run --config '${ROOT}/deno.json' ${flags} ` +
      `'${ROOT}/main.ts' "$@"\n`,
    { mode: 0o755 },
  );
  await linkRealPython(bin);
  const env: Record<string, string> = {
    PATH: `${bin}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`,
    HOME: home,
    XDG_CONFIG_HOME: `${home}/.config`,
    XDG_CACHE_HOME: `${home}/.cache`,
    XDG_DATA_HOME: `${home}/.local/share`,
    XDG_STATE_HOME: `${home}/.local/state`,
    DENO_DIR,
    NO_COLOR: "1",
    LANG: "C.UTF-8",
  };
  return { dir, cwd, env };
}

/**
 * `python3` on PATH may be a version manager's shim (pyenv: a dozen shell
 * scripts, half a second of CPU a start): put the interpreter it runs first.
 */
async function linkRealPython(bin: string): Promise<void> {
  try {
    const output = await new Deno.Command("python3", {
      args: ["-c", "import sys; print(sys.executable)"],
      stdout: "piped",
      stderr: "null",
    }).output();
    const real = new TextDecoder().decode(output.stdout).trim();
    if (output.success && real.startsWith("/")) await Deno.symlink(real, `${bin}/python3`);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
}

/** Runs a block's commands in order in one bash; each one's exit code and stderr. */
async function runBlock(place: Place, commands: DocCommand[], id: string): Promise<Outcome[]> {
  const out = `${place.dir}/out-${id}`;
  await Deno.mkdir(out);
  const script: string[] = [];
  commands.forEach((command, i) => {
    script.push(
      `{ ${command.text}\n__codes="\${PIPESTATUS[*]}"; } </dev/null >'${out}/${i}.out' ` +
        `2>'${out}/${i}.err'; echo "$__codes" >'${out}/${i}.rc'`,
    );
  });
  await runGroup(script.join("\n"), place.cwd, place.env);
  const outcomes: Outcome[] = [];
  for (const [i, command] of commands.entries()) {
    const codes = (await readOr(`${out}/${i}.rc`, "-1")).trim().split(" ").map(Number);
    outcomes.push({ command, codes, stderr: await readOr(`${out}/${i}.err`, "") });
  }
  return outcomes;
}

/**
 * Runs a block's script in its own process group and ends the whole group when
 * the script ends or hangs (SIGTERM, so a jn still running tears its servers
 * down, then SIGKILL): nothing a documented command started outlives the test.
 */
function runGroup(script: string, cwd: string, env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", script], { cwd, env, stdio: "ignore", detached: true });
    const endGroup = (signal: NodeJS.Signals | 0): boolean => {
      try {
        process.kill(-child.pid!, signal);
        return true;
      } catch {
        return false; // the group is gone
      }
    };
    // A hung command ends its block (and fails it) instead of hanging the run.
    const hung = setTimeout(() => endGroup("SIGTERM"), BLOCK_TIMEOUT_MS);
    child.on("error", reject);
    child.on("exit", () => {
      clearTimeout(hung);
      if (!endGroup("SIGTERM")) return resolve();
      // Give a jn still running the time to end its servers, then kill what is left.
      const deadline = Date.now() + 5_000;
      const poll = setInterval(() => {
        if (endGroup(0) && Date.now() < deadline) return;
        clearInterval(poll);
        endGroup("SIGKILL");
        resolve();
      }, 50);
    });
  });
}

async function readOr(path: string, fallback: string): Promise<string> {
  try {
    return await Deno.readTextFile(path);
  } catch {
    return fallback;
  }
}

/** `limit` at a time, results in input order. */
async function pool<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** The failures among outcomes, as lines for an assertion message. */
function failures(file: string, outcomes: Outcome[]): string[] {
  return outcomes.filter((o) =>
    o.codes.at(-1) !== o.command.expect || o.codes.slice(0, -1).some((code) => code > 1)
  ).map((o) =>
    `${file}:${o.command.line}: \`${o.command.text}\` exited ${o.codes.join(" | ")}, ` +
    `the docs say ${o.command.expect}\n    ${o.stderr.trim().split("\n").slice(-4).join("\n    ")}`
  );
}

/** What the blocks need (`<!-- needs: … -->`) that this machine lacks, with why. */
async function missingNeeds(blocks: DocBlock[]): Promise<Map<string, string>> {
  const missing = new Map<string, string>();
  for (const need of new Set(blocks.flatMap((block) => block.needs))) {
    const why = need === "bwrap"
      ? await bwrapUnavailable()
      : onPath(need)
      ? undefined
      : `${need} is not on PATH`;
    if (why !== undefined) missing.set(need, why);
  }
  return missing;
}

function onPath(program: string): boolean {
  return (Deno.env.get("PATH") ?? "").split(":").some((dir) => {
    try {
      return Deno.statSync(`${dir}/${program}`).isFile;
    } catch {
      return false;
    }
  });
}

/** A block's rough cost in jn starts (`deno task demo` runs jn nine times). */
function cost(block: DocBlock): number {
  return runnable(block).reduce(
    (sum, command) =>
      sum +
      (command.text.startsWith("deno task demo")
        ? 9
        : 1 + (command.text.match(/\bjn /g)?.length ?? 0)),
    0,
  );
}

async function documentedFiles(): Promise<string[]> {
  const docs: string[] = [];
  for await (const entry of Deno.readDir(`${ROOT}/docs`)) {
    if (entry.isFile && entry.name.endsWith(".md")) docs.push(`docs/${entry.name}`);
  }
  return ["README.md", ...docs.sort()];
}

Deno.test("every command of README.md and docs/*.md runs as pasted", async (t) => {
  const blocks: DocBlock[] = [];
  for (const file of await documentedFiles()) {
    blocks.push(...docBlocks(file, await Deno.readTextFile(`${ROOT}/${file}`)));
  }
  const toRun = blocks.filter((block) => runnable(block).length > 0);
  const missing = await missingNeeds(toRun);
  const unmet = toRun.filter((block) => block.needs.some((need) => missing.has(need)));
  for (const [need, why] of missing) {
    const where = unmet.filter((block) => block.needs.includes(need));
    // deno-lint-ignore no-console
    console.error(
      `NOT RUN (${why}): the examples that need ${need} at ` +
        where.map((block) => `${block.file}:${block.line}`).join(", "),
    );
  }
  const place = await makePlace();
  try {
    // The longest blocks first, so that the run ends soon after its longest block.
    const runs = toRun.filter((block) => !unmet.includes(block))
      .sort((a, b) => cost(b) - cost(a));
    const outcomes = await pool(
      runs,
      3,
      (block) =>
        runBlock(place, runnable(block), `${block.file.replace(/\W/g, "_")}-${block.line}`),
    );
    assert.ok(runs.length >= 10, `only ${runs.length} blocks run: the reader lost its way`);
    const files = [...new Set(blocks.map((block) => block.file))];
    for (const file of files) {
      await t.step(file, () => {
        const problems = runs.flatMap((block, i) =>
          block.file === file ? failures(file, outcomes[i]) : []
        );
        assert.deepEqual(problems, [], `\n${problems.join("\n")}`);
      });
    }
  } finally {
    await Deno.remove(place.dir, { recursive: true });
  }
});

Deno.test("the doc test catches a command that fails or exits otherwise than documented", async () => {
  const markdown = [
    "```sh",
    "true",
    "false",
    "sh -c 'exit 3'   # exit 3",
    "sh -c 'exit 1' | cat",
    "sh -c 'exit 4' | cat",
    "```",
    "",
    "```console",
    "$ sh -c 'exit 4'",
    "oops",
    "[exit 2]",
    "```",
    "",
    "<!-- no-run: not for this test -->",
    "```sh",
    "false",
    "```",
  ].join("\n");
  const blocks = docBlocks("x.md", markdown);
  assert.equal(blocks.length, 3);
  assert.deepEqual(runnable(blocks[2]), []);
  assert.equal(blocks[2].noRun, "not for this test");
  const place = await makePlace();
  try {
    const problems = [
      ...failures("x.md", await runBlock(place, runnable(blocks[0]), "a")),
      ...failures("x.md", await runBlock(place, runnable(blocks[1]), "b")),
    ];
    assert.equal(problems.length, 3, problems.join("\n"));
    assert.match(problems[0], /^x\.md:3: `false` exited 1, the docs say 0/);
    assert.match(problems[1], /^x\.md:6: `sh -c 'exit 4' \| cat` exited 4 \| 0, the docs say 0/);
    assert.match(problems[2], /^x\.md:10: `sh -c 'exit 4'` exited 4, the docs say 2/);
  } finally {
    await Deno.remove(place.dir, { recursive: true });
  }
});

Deno.test("doc blocks: sh lines, $ prompts with output, continuations, skipped prefixes", () => {
  const markdown = [
    '<!-- no-run "deno task test": the suite itself -->',
    "<!-- needs: bwrap -->",
    "",
    "```sh",
    "# a comment",
    "deno task demo    # the tour",
    "deno task test",
    "$ jn cat x \\",
    "    --json",
    '{"a":1}',
    "# exit 5",
    "",
    "jn put y.json   # exit 1: no input",
    "$ jn put z.json",
    "$ echo $?",
    "1",
    "```",
  ].join("\n");
  const [block] = docBlocks("y.md", markdown);
  assert.deepEqual(block.needs, ["bwrap"]);
  assert.deepEqual(
    block.commands.map((c) => [c.line, c.text, c.expect]),
    [
      [6, "deno task demo    # the tour", 0],
      [7, "deno task test", 0],
      [8, "jn cat x \\\n    --json", 5],
      [13, "jn put y.json   # exit 1: no input", 1],
      [14, "jn put z.json", 1],
    ],
  );
  assert.deepEqual(runnable(block).map((c) => c.line), [6, 8, 13, 14]);
});
