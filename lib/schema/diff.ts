/**
 * lib/schema: the seed-compatible schema hash, the classified schema diff, the
 * one `$ref` resolver.
 *
 * Schema drift between a profile and a live server, classified as SPEC §5 says
 * (breaking, non-breaking, behavioural). Pure: the caller lists the server's
 * tools and reads the profile; this module only compares. The result is
 * deterministic: sorted by tool, then parameter path, without duplicates.
 *
 * @module
 */

import type { JsonSchema, ToolInfo } from "../types.ts";
import { makeChange, quote, type SchemaChange, sortChanges } from "./change.ts";
import { compareInputSchemas } from "./diff_params.ts";
import { compareOutputSchemas } from "./diff_output.ts";
import { descriptionMd5 } from "./hash.ts";
import { changedDisplayFields, displayFields, fieldList } from "./display.ts";
import { isObject } from "./ref.ts";
import { sameSchema } from "./same.ts";
import { schemaFromParameters } from "./schema_view.ts";

export { classify, SEVERITY } from "./change.ts";
export type { ChangeCounts, ChangeKind, SchemaChange, Severity } from "./change.ts";

/** What a profile recorded about one server tool. */
export interface ExpectedTool {
  /** The server's tool name (a tool file's `tool` field, else its file name). */
  name: string;
  /** The snapshot of the tool's `inputSchema`; exact diffs need it. */
  inputSchema?: JsonSchema;
  /** The seed's hand-written form, used when there is no snapshot: `{gene: {type, required}}`. */
  parameters?: Record<string, unknown>;
  /**
   * The server's tool description as recorded with the snapshot. Pass it only
   * when it is the server's text, not the profile's own prose; absent → not
   * compared; `""` → the tool had none (a missing description reads as `""`).
   */
  description?: string;
  /**
   * The MD5 of the server's description recorded with the snapshot, given
   * when the profile's own text replaced it (`description` is then absent):
   * a change is still seen, without the old text.
   */
  descriptionMd5?: string;
  /** The snapshot of the tool's `outputSchema`; absent → not compared. */
  outputSchema?: JsonSchema;
  /**
   * The digests of the tool's display fields recorded with the snapshot
   * (`server_display_md5`: title, annotations, icons…; lib/schema/display.ts);
   * absent → not compared.
   */
  displayMd5?: Record<string, string>;
  /**
   * The snapshot predates display digests: display fields the tool has now
   * are reported as not recorded (so that `profile update` records them).
   */
  displayUnrecorded?: boolean;
  /** The media type the profile expects results in (`text/plain`, `application/json`). */
  output_format?: string;
}

/** The profile's view of the server: one entry per server tool it knows. */
export type ExpectedTools = readonly ExpectedTool[];

/** Options of {@link diffSchemas}. */
export interface DiffOptions {
  /**
   * Per server tool, the parameter paths the profile's `defaults` and
   * `examples` use (`gene`, `filters.limit`): removing one is breaking even
   * when it was optional.
   */
  usedParams?: Record<string, readonly string[]>;
  /**
   * Whether `expected` lists every tool the server had (a snapshot). When
   * false, live tools the profile does not mention are not reported as added.
   * Default true.
   */
  complete?: boolean;
  /** Media types of results seen per tool, checked against each `output_format`. */
  observedMimeTypes?: Record<string, string>;
}

/**
 * Compares what the profile expects with the live tool list.
 *
 * @example
 * diffSchemas(
 *   [{ name: "search", parameters: { gene: { type: "string", required: true } } }],
 *   [{ name: "search", inputSchema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] } }],
 *   {},
 * )[0].message; // "Tool 'search': Required parameter 'gene' renamed to 'query'"
 */
export function diffSchemas(
  expected: ExpectedTools,
  live: readonly ToolInfo[],
  options: DiffOptions = {},
): SchemaChange[] {
  const out: SchemaChange[] = [];
  const liveByName = new Map<string, ToolInfo>();
  for (const tool of live) if (!liveByName.has(tool.name)) liveByName.set(tool.name, tool);
  const expectedNames = new Set(expected.map((t) => t.name));

  for (const want of expected) {
    const have = liveByName.get(want.name);
    if (have === undefined) {
      const message = `Tool ${quote(want.name)} removed`;
      out.push(makeChange("tool_removed", want.name, { old: want.name, message }));
      continue;
    }
    compareTool(want, have, { out, used: options.usedParams?.[want.name] ?? [] });
    const observed = options.observedMimeTypes?.[want.name];
    const behavioural = behaviouralChange(want.name, want.output_format, observed);
    if (behavioural !== undefined) out.push(behavioural);
  }
  if (options.complete !== false) {
    for (const name of liveByName.keys()) {
      if (expectedNames.has(name)) continue;
      out.push(makeChange("tool_added", name, { new: name, message: `Tool ${quote(name)} added` }));
    }
  }
  return sortChanges(out);
}

/**
 * The behavioural change of a tool whose result came back in another media
 * type than the profile's `output_format`, or undefined when they agree or
 * either is unknown. Parameters (`; charset=utf-8`) and case are ignored;
 * `json`, `text` and `markdown` stand for their media types.
 */
export function behaviouralChange(
  tool: string,
  expectedOutputFormat: string | undefined,
  observedMimeType: string | undefined,
): SchemaChange | undefined {
  const want = mediaType(expectedOutputFormat);
  const got = mediaType(observedMimeType);
  if (want === undefined || got === undefined || want === got) return undefined;
  return makeChange("output_format_changed", tool, {
    old: expectedOutputFormat,
    new: observedMimeType,
    message: `Tool ${quote(tool)}: Output format changed from ${quote(want)} to ${quote(got)}`,
  });
}

function compareTool(
  want: ExpectedTool,
  have: ToolInfo,
  ctx: { out: SchemaChange[]; used: readonly string[] },
): void {
  const tool = want.name;
  if (want.description !== undefined && want.description !== (have.description ?? "")) {
    ctx.out.push(makeChange("description_changed", tool, {
      old: want.description,
      new: have.description ?? null,
      message: `Tool ${quote(tool)}: Description changed`,
    }));
  } else if (
    want.description === undefined && want.descriptionMd5 !== undefined &&
    want.descriptionMd5 !== descriptionMd5(have.description ?? "")
  ) {
    ctx.out.push(makeChange("description_changed", tool, {
      new: have.description ?? null,
      message: `Tool ${quote(tool)}: Description changed (the profile keeps its own)`,
    }));
  }
  const display = displayChange(want, have);
  if (display !== undefined) ctx.out.push(display);
  ctx.out.push(...compareOutputSchemas(tool, want.outputSchema, have.outputSchema));
  if (
    want.inputSchema !== undefined && want.outputSchema === undefined &&
    have.outputSchema !== undefined
  ) {
    // The snapshot recorded a tool without one (`profile create` records it whenever there is one).
    ctx.out.push(makeChange("output_schema_changed", tool, {
      new: have.outputSchema,
      message: `Tool ${quote(tool)}: Output schema added (results are now structured)`,
    }));
  }
  const loose = want.inputSchema === undefined;
  const oldSchema = want.inputSchema ??
    (isObject(want.parameters) ? schemaFromParameters(want.parameters) : undefined);
  if (oldSchema === undefined) return; // nothing recorded about the parameters
  const before = ctx.out.length;
  compareInputSchemas(
    { tool, used: ctx.used, loose, oldRoot: oldSchema, newRoot: have.inputSchema, out: ctx.out },
    oldSchema,
    have.inputSchema,
  );
  // A snapshot that differs in a way no row names (a pattern, a minimum, a default…): said once.
  if (!loose && ctx.out.length === before && !sameSchema(want.inputSchema, have.inputSchema)) {
    ctx.out.push(makeChange("input_schema_changed", tool, {
      old: want.inputSchema,
      new: have.inputSchema,
      message: `Tool ${quote(tool)}: Input schema changed (in a way no classified change names)`,
    }));
  }
}

/**
 * What a host shows of the tool or acts on (its display fields), against the
 * digests the snapshot recorded: the fields that changed, with their values
 * now (`null`: gone); or, for a snapshot without digests, the fields it has.
 */
function displayChange(want: ExpectedTool, have: ToolInfo): SchemaChange | undefined {
  const fields = displayFields(have);
  const names = want.displayMd5 !== undefined
    ? changedDisplayFields(want.displayMd5, have)
    : want.displayUnrecorded
    ? Object.keys(fields)
    : [];
  if (names.length === 0) return undefined;
  const now: Record<string, unknown> = {};
  for (const name of names) {
    Object.defineProperty(now, name, {
      value: Object.hasOwn(fields, name) ? fields[name] : null,
      enumerable: true,
    });
  }
  const list = fieldList(names);
  const what = `${list[0].toUpperCase()}${list.slice(1)}`;
  return makeChange("display_changed", want.name, {
    new: now,
    message: want.displayMd5 !== undefined
      ? `Tool ${quote(want.name)}: ${what} changed (what a host shows or acts on)`
      : `Tool ${quote(want.name)}: ${what} not recorded (the snapshot predates display digests)`,
  });
}

const MEDIA_ALIASES: Record<string, string> = {
  json: "application/json",
  text: "text/plain",
  markdown: "text/markdown",
};

function mediaType(value: string | undefined): string | undefined {
  const bare = value?.split(";")[0].trim().toLowerCase();
  if (!bare) return undefined;
  return Object.hasOwn(MEDIA_ALIASES, bare) ? MEDIA_ALIASES[bare] : bare;
}
