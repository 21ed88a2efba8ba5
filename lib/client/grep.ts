/**
 * `grep`: find tools, prompts, resources and templates by what they are
 * called and what they say, across servers.
 *
 * - No sources: offline, over every profile's saved snapshot — each
 *   profile tool's name, description and parameters (its `inputSchema` or
 *   seed-style `parameters`), and the profile's own description (kind
 *   `server`). No server is started and no variable needs to be set
 *   (profiles are read leniently, in their display form: a `${VAR}` value
 *   shows as `***`). A project profile is read, never launched.
 * - Sources, or `live`: each server is asked through {@linkcode open} (with
 *   every policy of a connection: trust, sandbox, environment) for its
 *   tools, resources, templates and prompts; with `live` and no sources,
 *   every profile's server.
 *
 * The pattern: a case-insensitive substring by default (like `grep -iF`);
 * `regex` makes it a JavaScript regular expression, `caseSensitive` makes
 * either case-sensitive. Fields searched: `name`, `title`, `description`,
 * `uri` (resources and templates), and `parameter` (`NAME: description` of
 * each tool or prompt parameter). Each match is one record
 * `{"type":"match","source","kind","name","field","text"}`, `text` being the
 * matching line of the field, cut to {@linkcode MATCH_CHARS} around the
 * match. A source that cannot be read or reached is one
 * `{"type":"error","source","error"}` record, and the search goes on.
 *
 * @module
 */

import { UsageError } from "../errors.ts";
import { listProfiles } from "./profile_list.ts";
import { loadProfile } from "../profile/resolve.ts";
import type { JsonSchema, PromptInfo, ToolInfo } from "../types.ts";
import { inspect } from "./inspect.ts";
import { open } from "./open.ts";
import type { OpenOptions } from "./options.ts";

/** How much of a matching line a record carries, around the match. */
export const MATCH_CHARS = 200;

/** What a match is of. */
export type GrepKind = "tool" | "prompt" | "resource" | "resource_template" | "server";

/** One match. */
export interface GrepMatch {
  /** Always `"match"`. */
  type: "match";
  /** `@profile`, or the source as given. */
  source: string;
  /** What matched. */
  kind: GrepKind;
  /** Its name (a resource's URI when it has no name). */
  name: string;
  /** The field that matched: `name`, `title`, `description`, `uri` or `parameter`. */
  field: string;
  /** The matching line of the field, cut around the match. */
  text: string;
}

/** A source that could not be searched. */
export interface GrepError {
  /** Always `"error"`. */
  type: "error";
  /** The source. */
  source: string;
  /** Why, in one line. */
  error: string;
}

/** Options of {@linkcode grep}: where to search, and how to connect when asking servers. */
export interface GrepOptions extends OpenOptions {
  /** Servers to ask (naked URIs or `@profile`); none: every profile. */
  sources?: string[];
  /** Ask the servers even with no sources (every profile's server, live). */
  live?: boolean;
  /** The pattern is a JavaScript regular expression. */
  regex?: boolean;
  /** Match case (default: ignore it). */
  caseSensitive?: boolean;
}

/**
 * Matches of `pattern`, source after source (see the module doc).
 *
 * @example
 * ```ts
 * import { grep } from "@jn/jn";
 *
 * for await (const record of grep("sum", { cwd: Deno.cwd(), env: Deno.env.toObject() })) {
 *   console.log(JSON.stringify(record)); // offline: every profile's saved tools
 * }
 * ```
 */
export async function* grep(
  pattern: string,
  options: GrepOptions,
): AsyncGenerator<GrepMatch | GrepError> {
  const find = matcher(pattern, options);
  const sources = options.sources ?? [];
  if (sources.length === 0 && !options.live) {
    yield* offline(find, options);
    return;
  }
  if (sources.length > 0) {
    for (const source of sources) yield* live(source, find, options);
    return;
  }
  for (const profile of await profiles(options)) {
    if ("error" in profile) yield profile;
    else yield* live(profile.source, find, options);
  }
}

/** `[start, end]` of the first match in `text`, or undefined. */
export type Matcher = (text: string) => [number, number] | undefined;

/** The matcher of a pattern; an invalid regular expression is a UsageError. */
export function matcher(
  pattern: string,
  options: { regex?: boolean; caseSensitive?: boolean } = {},
): Matcher {
  if (options.regex) {
    let re: RegExp;
    try {
      re = new RegExp(pattern, options.caseSensitive ? "u" : "iu");
    } catch (error) {
      throw new UsageError(`Invalid regular expression "${pattern}": ${(error as Error).message}`);
    }
    return (text) => {
      const found = re.exec(text);
      return found ? [found.index, found.index + found[0].length] : undefined;
    };
  }
  const needle = options.caseSensitive ? pattern : pattern.toLowerCase();
  return (text) => {
    const at = (options.caseSensitive ? text : text.toLowerCase()).indexOf(needle);
    return at < 0 ? undefined : [at, at + needle.length];
  };
}

/** Every profile in use (`@name`), and an error record for each invalid profile directory. */
async function profiles(options: GrepOptions): Promise<({ source: string } | GrepError)[]> {
  const out: ({ source: string } | GrepError)[] = [];
  for (const entry of await listProfiles(options)) {
    const source = `@${entry.name}`;
    if (entry.status === "active") out.push({ source });
    if (entry.status === "invalid") {
      out.push({ type: "error", source, error: entry.error ?? "invalid profile" });
    }
  }
  return out;
}

async function* offline(
  find: Matcher,
  options: GrepOptions,
): AsyncGenerator<GrepMatch | GrepError> {
  for (const entry of await profiles(options)) {
    if ("error" in entry) {
      yield entry;
      continue;
    }
    const { source } = entry;
    let profile;
    try {
      profile = await loadProfile(source.slice(1), { ...options, lenient: true });
    } catch (error) {
      yield { type: "error", source, error: (error as Error).message };
      continue;
    }
    const description = profile.displayMeta.description;
    yield* fields(source, "server", source, { description }, find);
    for (const tool of profile.tools) {
      const def = tool.display;
      yield* fields(
        source,
        "tool",
        tool.name,
        { name: tool.name, description: def.description },
        find,
      );
      yield* parameters(
        source,
        "tool",
        tool.name,
        parameterTexts(def.inputSchema, def.parameters),
        find,
      );
    }
  }
}

async function* live(
  source: string,
  find: Matcher,
  options: GrepOptions,
): AsyncGenerator<GrepMatch | GrepError> {
  let inventory;
  try {
    await using conn = await open(source, options);
    inventory = await inspect(conn);
  } catch (error) {
    yield { type: "error", source, error: (error as Error).message };
    return;
  }
  for (const tool of inventory.tools) {
    yield* fields(source, "tool", tool.name, pick(tool), find);
    yield* parameters(source, "tool", tool.name, parameterTexts(tool.inputSchema), find);
  }
  for (const prompt of inventory.prompts) {
    yield* fields(source, "prompt", prompt.name, pick(prompt), find);
    yield* parameters(source, "prompt", prompt.name, promptArguments(prompt), find);
  }
  for (const resource of inventory.resources) {
    const name = resource.name || resource.uri;
    yield* fields(source, "resource", name, { ...pick(resource), uri: resource.uri }, find);
  }
  for (const template of inventory.resource_templates) {
    const name = (template.name as string | undefined) || template.uriTemplate;
    yield* fields(source, "resource_template", name, {
      ...pick(template),
      uri: template.uriTemplate,
    }, find);
  }
}

function pick(item: ToolInfo | PromptInfo | Record<string, unknown>): Record<string, unknown> {
  return { name: item.name, title: item.title, description: item.description };
}

function* fields(
  source: string,
  kind: GrepKind,
  name: string,
  values: Record<string, unknown>,
  find: Matcher,
): Generator<GrepMatch> {
  for (const [field, value] of Object.entries(values)) {
    if (typeof value !== "string") continue;
    const text = matchingLine(value, find);
    if (text !== undefined) yield { type: "match", source, kind, name, field, text };
  }
}

function* parameters(
  source: string,
  kind: GrepKind,
  name: string,
  texts: string[],
  find: Matcher,
): Generator<GrepMatch> {
  for (const value of texts) {
    const text = matchingLine(value, find);
    if (text !== undefined) yield { type: "match", source, kind, name, field: "parameter", text };
  }
}

/** `NAME: description` of each parameter of an input schema or seed-style `parameters`. */
function parameterTexts(schema?: JsonSchema, seedStyle?: Record<string, unknown>): string[] {
  const entries = Object.entries(schema?.properties ?? seedStyle ?? {});
  return entries.map(([name, prop]) => {
    const description = (prop as { description?: unknown })?.description;
    return typeof description === "string" ? `${name}: ${description}` : name;
  });
}

function promptArguments(prompt: PromptInfo): string[] {
  return (prompt.arguments ?? []).map((a) =>
    a.description ? `${a.name}: ${a.description}` : a.name
  );
}

/** The line of `text` where `find` matches, cut to MATCH_CHARS around the match. */
function matchingLine(text: string, find: Matcher): string | undefined {
  for (const line of text.split(/\r?\n/)) {
    const found = find(line);
    if (!found) continue;
    if (line.length <= MATCH_CHARS) return line.trim();
    const middle = Math.floor((found[0] + found[1]) / 2);
    const start = Math.max(0, Math.min(line.length - MATCH_CHARS, middle - MATCH_CHARS / 2));
    const cut = line.slice(start, start + MATCH_CHARS);
    return `${start > 0 ? "…" : ""}${cut}${start + MATCH_CHARS < line.length ? "…" : ""}`;
  }
  return undefined;
}
