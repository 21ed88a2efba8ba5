/**
 * The shapes of a profile (SPEC §4): the fields of `_meta.json` and of tool
 * files as written, and a profile as resolved from the layers. Pure types.
 *
 * @module
 */

import type { JsonSchema } from "../types.ts";

/** Where a profile comes from, in search order. */
export type LayerName = "project" | "user" | "jn_home" | "bundled";

/** What a use of a profile does when the live schema differs (`schema_validation`). */
export type SchemaValidation = "warn" | "error" | "ignore";

/** One tool's definition: a tool file, or one entry of `_meta.json`'s `tools` map. */
export interface ToolDef {
  /** The server's tool name, when it differs from the profile's tool name. */
  tool?: string;
  /** What the tool does. */
  description?: string;
  /** The seed's hand-written form: `{gene: {type, required, description}}`. */
  parameters?: Record<string, unknown>;
  /** Arguments a call gets unless it gives them. */
  defaults?: Record<string, unknown>;
  /** The media type the tool answers with (a change is a behavioural drift). */
  output_format?: string;
  /** Notes for people. */
  notes?: unknown;
  /** Example calls (`input`); the parameters they use count as used by the profile. */
  examples?: unknown[];
  /** The snapshot of the server's `inputSchema` that makes diffs exact. */
  inputSchema?: JsonSchema;
  /**
   * MD5 of the server's description when the snapshot was taken: a
   * `description` that no longer hashes to it is the user's, and `profile
   * update` keeps it.
   */
  server_description_md5?: string;
  /**
   * Per display field of the server's tool when the snapshot was taken
   * (`title`, `annotations`, `icons`…: what a host shows or acts on), the
   * MD5 of its canonical JSON (lib/schema/display.ts); `{}` when it had
   * none. Absent in a snapshot an older jn wrote.
   */
  server_display_md5?: Record<string, string>;
  /** The snapshot of the server's `outputSchema` (written with `inputSchema`, when the tool has one). */
  outputSchema?: JsonSchema;
  /** Calls the profile was tested with. */
  tested_with?: unknown;
  /** Fields jn does not know, kept as written. */
  [key: string]: unknown;
}

/** `_meta.json`: the launch config and the profile-wide fields. */
export interface MetaDef {
  /** The program that starts the server (stdio; `jn` is this jn). */
  command?: string;
  /** Its arguments. */
  args?: string[];
  /** Variables for the server (all it gets besides the safe defaults). */
  env?: Record<string, string>;
  /** The server's working directory, relative to the profile's directory. */
  cwd?: string;
  /** How the server is reached. */
  transport?: "stdio" | "http" | "sse";
  /** A remote server's endpoint. */
  url?: string;
  /** HTTP headers for a remote server. */
  headers?: Record<string, string>;
  /** What the server is. */
  description?: string;
  /** The server's version (`serverInfo.version`) when the profile was written or last updated. */
  server_version?: string;
  /** The seed-compatible hash of the tools the profile was written for. */
  schema_hash?: string;
  /** When `schema_hash` was recorded. */
  schema_updated?: string;
  /** What a use does when the live schema differs. */
  schema_validation?: SchemaValidation;
  /** Tool definitions inline, by profile tool name. */
  tools?: Record<string, ToolDef>;
  /** The sandbox policy (see lib/sandbox/policy.ts). */
  sandbox?: unknown;
  /** Directories advertised to the server as MCP roots (relative to the caller's directory). */
  roots?: string[];
  /** A shell command answering the server's sampling requests (see lib/client/sampling.ts). */
  sampling_command?: string;
  /** Answers to the server's forms (an object, or one per question): lib/client/elicit_answers.ts. */
  elicit_answers?: Record<string, unknown> | Record<string, unknown>[];
  /** jn extension: `false` stops tool files of lower layers from extending this server. */
  inherit_tools?: boolean;
  /** Globs of the tool names offered (absent: every name); see lib/profile/tool_filter.ts. */
  allow_tools?: string[];
  /** Globs of the tool names never offered (they win over `allow_tools`). */
  deny_tools?: string[];
  /** Fields jn does not know, kept as written. */
  [key: string]: unknown;
}

/**
 * What `profile list` uses of a `_meta.json` (lib/client/profile_list.ts): the
 * bundled layer's are computed when its data is generated
 * (scripts/bundle_profiles.ts), so listing it parses nothing.
 */
export interface MetaSummary {
  /** Why the file cannot be used (then nothing else is set). */
  error?: string;
  /** The profile's `description`. */
  description?: string;
  /** The names of its inline `tools` map, sorted. */
  tools?: string[];
  /** Set when `inherit_tools` is `false`: lower layers' tool files do not extend it. */
  inherit_tools?: false;
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
