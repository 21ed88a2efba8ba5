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
import { parseJsonc } from "../load.ts";
import { isSafeToolFileName } from "./snapshot.ts";
import type { MetaDef, ToolDef } from "../types.ts";
import type { ProfileFiles } from "./write.ts";

const LAUNCH_FIELDS = ["command", "args", "env", "cwd", "transport", "url", "headers"];

/** Splits a seed-format document (already parsed from `source`) into profile files. */
export function splitSeedProfile(value: unknown, options: { source: string }): ProfileFiles {
  const fail = (message: string, hint?: string): never => {
    throw new ConfigError(`Invalid profile in ${options.source}: ${message}`, { hint });
  };
  if (!isPlainObject(value)) fail("expected a JSON object");
  const { launcher, tools, tested_with: testedWith, server: _server, ...rest } = value as Record<
    string,
    unknown
  >;
  const meta: Record<string, unknown> = { ...rest };
  if (launcher !== undefined) {
    if (!isPlainObject(launcher)) fail(`"launcher" must be an object`);
    for (const [key, field] of Object.entries(launcher as Record<string, unknown>)) {
      if (!LAUNCH_FIELDS.includes(key)) fail(`"launcher.${key}" is not a launch field`);
      if (key in meta) fail(`"${key}" is given both at the top level and in "launcher"`);
      meta[key] = field;
    }
  }
  if (meta.command === undefined && meta.url === undefined) {
    fail(
      `it needs "command" (a local server) or "url" (a remote one)`,
      'e.g. {"command": "uvx", "args": ["my-server"]}',
    );
  }
  const out = new Map<string, ToolDef>();
  const inline: Record<string, ToolDef> = {};
  const perTool = isPlainObject(testedWith) ? { ...testedWith } : undefined;
  if (testedWith !== undefined && perTool === undefined) meta.tested_with = testedWith;
  if (tools !== undefined) {
    if (!isPlainObject(tools)) fail(`"tools" must be an object of tool definitions`);
    for (const [name, def] of Object.entries(tools as Record<string, unknown>)) {
      if (!isPlainObject(def)) fail(`"tools.${name}" must be an object`);
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
  checkProfileFiles(files, options.source);
  return files;
}

/** Checks profile files with the rules of files on disk. */
export function checkProfileFiles(files: ProfileFiles, source: string): void {
  checkMeta(parseJsonc(JSON.stringify(files.meta), `${source} (_meta.json)`));
  for (const [name, def] of files.tools) {
    checkToolFile(parseJsonc(JSON.stringify(def), `${source} (${name}.json)`));
  }
}
