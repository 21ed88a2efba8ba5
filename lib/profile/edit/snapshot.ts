/**
 * What a profile records about a live server's tools: per tool, the seed's
 * `parameters` form, the exact `inputSchema` snapshot (and `outputSchema`,
 * when the tool has one), the server's description and its MD5
 * (`server_description_md5`: what tells a description the user edited from
 * the server's, see lib/profile/edit/update.ts), the digests of its display
 * fields (`server_display_md5`: title, annotations, icons…, what pinning
 * compares, lib/schema/display.ts); and the file name a tool gets. Strings
 * from the server are escaped (`${` → `$${`) so that substitution gives them
 * back unchanged. An update's `parameters` keep the descriptions a profile
 * wrote for them ({@linkcode mergeParameters}), across a renamed parameter
 * too.
 *
 * @module
 */

import { descriptionMd5 } from "../../schema/hash.ts";
import { displayDigests } from "../../schema/display.ts";
import type { JsonSchema, ToolInfo } from "../../types.ts";
import { escapeValue } from "../expand.ts";
import { isPlainObject } from "../fields.ts";
import type { ToolDef } from "../types.ts";
import type { Rename } from "./rename.ts";

/** Tool names that can be a file name as they are; others stay in `_meta.json`'s `tools` map. */
const SAFE_FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** Whether a tool name can be its own tool file (`NAME.json`). */
export function isSafeToolFileName(name: string): boolean {
  return SAFE_FILE_NAME.test(name) && !/\.jsonc?$/i.test(name);
}

/**
 * The seed's `parameters` form of an input schema: per property its `type`,
 * `required: true` when required, `description` and `enum` when present.
 *
 * @example
 * seedParameters({ type: "object", properties: { gene: { type: "string" } }, required: ["gene"] });
 * // { gene: { type: "string", required: true } }
 */
export function seedParameters(schema: JsonSchema | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const required = new Set(Array.isArray(schema?.required) ? schema.required : []);
  const properties = schema?.properties;
  if (typeof properties !== "object" || properties === null) return out;
  for (const [name, prop] of Object.entries(properties)) {
    const param: Record<string, unknown> = {};
    const p = (typeof prop === "object" && prop !== null ? prop : {}) as JsonSchema;
    if (p.type !== undefined) param.type = p.type;
    if (required.has(name)) param.required = true;
    if (typeof p.description === "string") param.description = p.description;
    if (Array.isArray(p.enum)) param.enum = p.enum;
    Object.defineProperty(out, name, {
      value: param,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return escapeValue(out);
}

/** A tool file for a live tool (`tool` is set when the file name is not the tool's name). */
export function toolDefFromLive(tool: ToolInfo, fileName: string = tool.name): ToolDef {
  const def: ToolDef = {};
  if (fileName !== tool.name) def.tool = tool.name;
  if (tool.description !== undefined) {
    def.description = escapeValue(tool.description);
    def.server_description_md5 = descriptionMd5(tool.description);
  }
  def.parameters = seedParameters(tool.inputSchema);
  def.inputSchema = escapeValue(tool.inputSchema);
  if (tool.outputSchema !== undefined) def.outputSchema = escapeValue(tool.outputSchema);
  def.server_display_md5 = displayDigests(tool);
  return def;
}

/** The live parameters in the seed's form, keeping the profile's own descriptions when it has no snapshot. */
export function mergeParameters(
  old: Record<string, unknown>,
  live: ToolInfo,
  renames: Rename[],
  hasSnapshot: boolean,
): Record<string, unknown> {
  const fresh = seedParameters(live.inputSchema);
  if (hasSnapshot) return fresh;
  for (const [name, param] of Object.entries(fresh)) {
    const before = renames.find((r) => r.to === name)?.from ?? name;
    const previous = Object.hasOwn(old, before) ? old[before] : undefined;
    if (
      isPlainObject(previous) && typeof previous.description === "string" && isPlainObject(param)
    ) {
      param.description = previous.description;
    }
  }
  return fresh;
}
