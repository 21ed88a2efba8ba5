/**
 * The shapes of a profile (SPEC §4): the fields of `_meta.json` and of tool
 * files as written, and a profile as resolved from the layers. Pure types.
 *
 * @module
 */

import type { JsonSchema } from "../types.ts";

/** Where a profile comes from, in search order. */
export type LayerName = "project" | "user" | "jn_home" | "bundled";

/** Every layer, highest precedence first. */
export const LAYER_NAMES: readonly LayerName[] = ["project", "user", "jn_home", "bundled"];

/** What a use of a profile does when the live schema differs (`schema_validation`). */
export type SchemaValidation = "warn" | "error" | "ignore";

/** One tool's definition: a tool file, or one entry of `_meta.json`'s `tools` map. */
export interface ToolDef {
  /** The server's tool name, when it differs from the profile's tool name. */
  tool?: string;
  description?: string;
  /** The seed's hand-written form: `{gene: {type, required, description}}`. */
  parameters?: Record<string, unknown>;
  /** Arguments a call gets unless it gives them. */
  defaults?: Record<string, unknown>;
  output_format?: string;
  notes?: unknown;
  examples?: unknown[];
  /** The snapshot of the server's `inputSchema` that makes diffs exact. */
  inputSchema?: JsonSchema;
  tested_with?: unknown;
  [key: string]: unknown;
}

/** `_meta.json`: the launch config and the profile-wide fields. */
export interface MetaDef {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  transport?: "stdio" | "http" | "sse";
  url?: string;
  headers?: Record<string, string>;
  description?: string;
  schema_hash?: string;
  schema_updated?: string;
  schema_validation?: SchemaValidation;
  tools?: Record<string, ToolDef>;
  sandbox?: unknown;
  /** Directories advertised to the server as MCP roots (relative to the caller's directory). */
  roots?: string[];
  /** jn extension: `false` stops tool files of lower layers from extending this server. */
  inherit_tools?: boolean;
  [key: string]: unknown;
}

/** One tool of a resolved profile. */
export interface ProfileTool {
  /** The profile's tool name (the file name without extension, or the inline key). */
  name: string;
  /** The server's tool it calls (`tool` field, else `name`). */
  serverTool: string;
  /** The definition after `${VAR}` substitution. */
  def: ToolDef;
  /** The definition as written, with substituted values shown as `***`. */
  display: ToolDef;
  /** The layer the definition comes from. */
  layer: LayerName;
  /** The tool file (absolute, or `bundled:…`), when there is one. */
  file?: string;
  /** The definition in the tool file as written (no substitution), when there is one. */
  fileDef?: ToolDef;
  /** The entry of `_meta.json`'s `tools` map as written, when there is one. */
  inlineDef?: ToolDef;
}

/** A profile resolved from the layers, variables substituted. */
export interface Profile {
  /** The server name (`@name`). */
  name: string;
  /** The layer whose `_meta.json` defines the server. */
  layer: LayerName;
  /** That layer's directory of the server (absolute, or `bundled:NAME`), as named. */
  dir: string;
  /**
   * Its real path (symlinks resolved), through which its files were read: a
   * relative `cwd` resolves against it, and trust is recorded for it.
   */
  realDir: string;
  /**
   * Every entry of that directory as read (project profiles only): relative
   * path → fingerprint (`sha256:HEX`, `dir`, `symlink:HEX`, `other`).
   */
  entries?: Record<string, string>;
  /** `sha256:HEX` over `entries`: what `jn profile trust` records (project profiles only). */
  digest?: string;
  /** Whether jn may write the profile (not bundled). */
  writable: boolean;
  /** Path of `_meta.json` (or `_meta.jsonc`). */
  metaFile: string;
  /** `_meta.json` after substitution. */
  meta: MetaDef;
  /** `_meta.json` as written: what `profile update` edits (trust covers every file). */
  rawMeta: MetaDef;
  /** `_meta.json` with substituted values shown as `***`. */
  displayMeta: MetaDef;
  /** The tools, sorted by name. */
  tools: ProfileTool[];
  /** Every value substituted from the environment: never printed. */
  secrets: string[];
  /** Unset variables kept as `${VAR}` (a lenient load only; empty otherwise). */
  missing: string[];
  /** Directories of higher layers that hold tool files for this server but no `_meta.json` (ignored). */
  ignored: string[];
}
