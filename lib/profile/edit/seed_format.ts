/**
 * The seed's one-document profile (`jn profile create NAME < profile.json`)
 * split into `_meta.json` and one tool file per tool:
 *
 * - `launcher: {command, args, transport, …}` is lifted to the top level
 *   (the launch fields may also be given at the top level directly);
 * - each entry of `tools` becomes `TOOL.json` (names that cannot be file
 *   names stay in `_meta.json`'s `tools` map);
 * - `tested_with: {TOOL: […]}` goes into each tool's file;
 * - `server` is dropped (the profile's name is NAME); other fields stay in
 *   `_meta.json`.
 *
 * Before anything is written, the document is checked with the rules of
 * files on disk, and every problem is reported at once, each at its JSON
 * path (`$.tools.search.defaults.limit: expected a number, got "ten"`), so
 * that one round of fixes is enough.
 *
 * @module
 */

import { ConfigError } from "../../errors.ts";
import {
  checkMeta,
  checkToolFile,
  type FieldProblem,
  isPlainObject,
  jsonPath,
  metaProblems,
} from "../fields.ts";
import { parseJsonc } from "../load.ts";
import { isSafeToolFileName } from "./snapshot.ts";
import type { MetaDef, ToolDef } from "../types.ts";
import type { ProfileFiles } from "./write.ts";

const LAUNCH_FIELDS = ["command", "args", "env", "cwd", "transport", "url", "headers"];

/**
 * Splits a seed-format document (already parsed from `source`) into profile
 * files. Every problem of the document is reported at once, each with its
 * JSON path ({@linkcode seedProblems}), as one ConfigError (exit 3).
 */
export function splitSeedProfile(value: unknown, options: { source: string }): ProfileFiles {
  const problems = seedProblems(value);
  if (problems.length > 0) throw documentError(problems, options.source);
  const { launcher, tools, tested_with: testedWith, server: _server, ...rest } = value as Record<
    string,
    unknown
  >;
  const meta: Record<string, unknown> = { ...rest, ...(launcher as object | undefined) };
  const out = new Map<string, ToolDef>();
  const inline: Record<string, ToolDef> = {};
  const perTool = isPlainObject(testedWith) ? { ...testedWith } : undefined;
  if (testedWith !== undefined && perTool === undefined) meta.tested_with = testedWith;
  for (const [name, def] of Object.entries((tools ?? {}) as Record<string, ToolDef>)) {
    const tool: ToolDef = { ...def };
    if (perTool && name in perTool && tool.tested_with === undefined) {
      tool.tested_with = perTool[name];
      delete perTool[name];
    }
    if (isSafeToolFileName(name)) out.set(name, tool);
    else inline[name] = tool;
  }
  if (perTool && Object.keys(perTool).length > 0) meta.tested_with = perTool;
  if (Object.keys(inline).length > 0) meta.tools = inline;
  return { meta: meta as MetaDef, tools: out };
}

/**
 * Every problem of a seed-format document, each at its JSON path: the
 * rules of `_meta.json` and of tool files (lib/profile/fields.ts) on the
 * fields where the document has them, the launch fields in `launcher` or at
 * the top level (not both), a `command` or a `url`, and each tool's
 * `defaults` of the types its `parameters` or `inputSchema` declare.
 */
export function seedProblems(value: unknown): FieldProblem[] {
  if (!isPlainObject(value)) {
    return [{ path: [], message: "must be a JSON object", subject: "the document" }];
  }
  const { launcher, tested_with: _tested, server: _server, ...rest } = value;
  const problems = metaProblems(rest, [], { seed: true });
  if (launcher !== undefined && !isPlainObject(launcher)) {
    problems.push({ path: ["launcher"], message: "must be an object" });
  } else if (launcher !== undefined) {
    for (const key of Object.keys(launcher)) {
      if (!LAUNCH_FIELDS.includes(key)) {
        problems.push({ path: ["launcher", key], message: "is not a launch field" });
      } else if (key in rest) {
        problems.push({
          path: ["launcher", key],
          message: `is given both at the top level and in "launcher"`,
        });
      }
    }
    problems.push(...metaProblems(launcher, ["launcher"], { seed: true }));
  }
  const launch = { ...rest, ...(isPlainObject(launcher) ? launcher : {}) };
  if (launch.command === undefined && launch.url === undefined) {
    problems.push({
      path: [],
      subject: "the document",
      message: `needs "command" (a local server) or "url" (a remote one)`,
      hint: 'e.g. {"command": "uvx", "args": ["my-server"]}',
    });
  }
  return problems;
}

/** One ConfigError naming every problem of a document, one line each (`$.path: what`). */
function documentError(problems: FieldProblem[], source: string): ConfigError {
  const lines = problems.map((problem) => `${jsonPath(problem.path)}: ${problem.message}`);
  const count = problems.length === 1 ? "1 problem" : `${problems.length} problems`;
  return new ConfigError(`Invalid profile in ${source}: ${count}\n${lines.join("\n")}`, {
    problems: lines,
    hint: problems.length === 1 && problems[0].hint
      ? problems[0].hint
      : "fix each line above in the document, then create it again",
  });
}

/** Checks profile files with the rules of files on disk. */
export function checkProfileFiles(files: ProfileFiles, source: string): void {
  checkMeta(parseJsonc(JSON.stringify(files.meta), `${source} (_meta.json)`));
  for (const [name, def] of files.tools) {
    checkToolFile(parseJsonc(JSON.stringify(def), `${source} (${name}.json)`));
  }
}
