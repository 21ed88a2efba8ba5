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
 * The result is checked with the same rules as files on disk before anything
 * is written.
 *
 * @module
 */

import { ConfigError } from "../../errors.ts";
import { checkMeta, checkToolFile, isPlainObject } from "../fields.ts";
import { type JsoncDoc, parseJsonc } from "../load.ts";
import type { JsonPath } from "./jsonc_edit.ts";
import { isSafeToolFileName } from "./snapshot.ts";
import type { MetaDef, ToolDef } from "../types.ts";
import type { ProfileFiles } from "./write.ts";

const LAUNCH_FIELDS = ["command", "args", "env", "cwd", "transport", "url", "headers"];

/**
 * Splits a seed-format document (already parsed from `source`) into profile
 * files. Every problem of the document is reported at once, each at its JSON
 * path in the document (`launcher.args`, `tools.search.notes`), so that
 * whoever wrote it — often an LLM — fixes them all in one round.
 */
export function splitSeedProfile(value: unknown, options: { source: string }): ProfileFiles {
  const { source } = options;
  const problems: ConfigError[] = [];
  const problem = (path: JsonPath, message: string, hint?: string) =>
    problems.push(new ConfigError(`Invalid profile ${at(source, path)}: ${message}`, { hint }));
  if (!isPlainObject(value)) {
    throw new ConfigError(`Invalid profile in ${source}: expected a JSON object`);
  }
  const { launcher, tools, tested_with: testedWith, server: _server, ...rest } = value as Record<
    string,
    unknown
  >;
  const meta: Record<string, unknown> = { ...rest };
  const lifted = new Set<string>();
  if (launcher !== undefined && !isPlainObject(launcher)) {
    problem(["launcher"], `"launcher" must be an object`);
  } else if (launcher !== undefined) {
    for (const [key, field] of Object.entries(launcher as Record<string, unknown>)) {
      if (!LAUNCH_FIELDS.includes(key)) {
        problem(
          ["launcher", key],
          `"${key}" is not a launch field`,
          `launch fields: ${LAUNCH_FIELDS.join(", ")}`,
        );
      } else if (key in meta) {
        problem(["launcher", key], `"${key}" is given both at the top level and in "launcher"`);
      } else {
        meta[key] = field;
        lifted.add(key);
      }
    }
  }
  if (meta.command === undefined && meta.url === undefined && !problems.length) {
    problem(
      [],
      `it needs "command" (a local server) or "url" (a remote one)`,
      'e.g. {"launcher": {"command": "uvx", "args": ["my-server"]}}',
    );
  }
  const out = new Map<string, ToolDef>();
  const inline: Record<string, ToolDef> = {};
  const perTool = isPlainObject(testedWith) ? { ...testedWith } : undefined;
  if (testedWith !== undefined && perTool === undefined) meta.tested_with = testedWith;
  if (tools !== undefined && !isPlainObject(tools)) {
    problem(["tools"], `"tools" must be an object of tool definitions`);
  } else if (tools !== undefined) {
    for (const [name, def] of Object.entries(tools as Record<string, unknown>)) {
      if (!isPlainObject(def)) {
        problem(["tools", name], `"tools.${name}" must be an object`);
        continue;
      }
      const tool: ToolDef = { ...(def as ToolDef) };
      if (perTool && name in perTool && tool.tested_with === undefined) {
        tool.tested_with = perTool[name];
        delete perTool[name];
      }
      if (isSafeToolFileName(name)) out.set(name, tool);
      else inline[name] = tool;
    }
  }
  if (perTool && Object.keys(perTool).length > 0) meta.tested_with = perTool;
  if (Object.keys(inline).length > 0) meta.tools = inline;
  const files: ProfileFiles = { meta: meta as MetaDef, tools: out };
  // The files' own rules, each problem at its path in the submitted document.
  checkMeta(
    seedDoc(meta, source, (path) => lifted.has(String(path[0])) ? ["launcher", ...path] : path),
    { problems },
  );
  for (const [name, def] of out) {
    checkToolFile(seedDoc(def, source, (path) => ["tools", name, ...path]), { problems });
  }
  if (problems.length === 1) throw problems[0];
  if (problems.length > 1) {
    const lines = problems.map((p) => p.message.replace(/^Invalid profile /, ""));
    throw new ConfigError(
      `Invalid profile ${source}: ${problems.length} problems\n${lines.join("\n")}`,
      { hint: "fix them all, then run jn profile create again" },
    );
  }
  return files;
}

/** A JSON path as read in messages: `launcher.args[1]`, `tools["a b"].notes`. */
function pathText(path: JsonPath): string {
  return path.map((key, i) =>
    typeof key === "number"
      ? `[${key}]`
      : /^[A-Za-z_][A-Za-z0-9_-]*$/.test(key)
      ? `${i === 0 ? "" : "."}${key}`
      : `[${JSON.stringify(key)}]`
  ).join("");
}

function at(source: string, path: JsonPath): string {
  return path.length === 0 ? source : `${source} at ${pathText(path)}`;
}

/** A profile file made of part of the document: its problems are placed by `place`. */
function seedDoc(value: unknown, source: string, place: (path: JsonPath) => JsonPath): JsoncDoc {
  return { file: source, text: "", value, where: (path) => at(source, place(path)) };
}

/** Checks profile files with the rules of files on disk. */
export function checkProfileFiles(files: ProfileFiles, source: string): void {
  checkMeta(parseJsonc(JSON.stringify(files.meta), `${source} (_meta.json)`));
  for (const [name, def] of files.tools) {
    checkToolFile(parseJsonc(JSON.stringify(def), `${source} (${name}.json)`));
  }
}
