/**
 * The simple verbs of a connection: list what the server offers, read a
 * resource (one the server does not have gets a hint naming its closest
 * resource), get a prompt (its arguments checked against what the prompt
 * declares, lib/args/prompt.ts). Errors come back explained and redacted.
 *
 * @module
 */

import { type ArgPairs, typedArgs } from "../args/collect.ts";
import { promptArguments } from "../args/prompt.ts";
import type {
  PromptInfo,
  PromptResult,
  ResourceContents,
  ResourceInfo,
  ResourceTemplateInfo,
  ToolInfo,
} from "../types.ts";
import type { ListKind } from "../uri/source.ts";
import { ProtocolError } from "../errors.ts";
import { visibleLine } from "../output/visible.ts";
import { closest } from "../text/suggest.ts";
import { profileFilter } from "../profile/tool_filter.ts";
import type { Connection } from "./connection.ts";

/** What {@linkcode list} returns for each kind. */
export interface Listing {
  /** `tools/list`. */
  tools: ToolInfo[];
  /** `resources/list`. */
  resources: ResourceInfo[];
  /** `resources/templates/list`. */
  templates: ResourceTemplateInfo[];
  /** `prompts/list`. */
  prompts: PromptInfo[];
}

/**
 * Lists the server's tools, resources, resource templates or prompts. The
 * tools are those the profile's `allow_tools`/`deny_tools` let callers use.
 *
 * @example
 * ```ts
 * import { list, open } from "@jn/jn";
 *
 * await using conn = await open("@demo", { cwd: Deno.cwd(), env: Deno.env.toObject() });
 * const prompts = await list(conn, "prompts");
 * console.log(prompts.map((prompt) => prompt.name));
 * ```
 */
export async function list<K extends ListKind>(conn: Connection, kind: K): Promise<Listing[K]> {
  const { session } = conn;
  try {
    switch (kind) {
      case "tools": {
        const { allows } = profileFilter(conn.target.profile);
        return (await session.listTools()).filter((tool) => allows(tool.name)) as Listing[K];
      }
      case "resources":
        return await session.listResources() as Listing[K];
      case "templates":
        return await session.listResourceTemplates() as Listing[K];
      case "prompts":
        return await session.listPrompts() as Listing[K];
    }
    throw new TypeError(`Unknown list kind "${kind}"`);
  } catch (error) {
    throw conn.explain(error);
  }
}

/**
 * Every tool the server lists, whatever the profile's `allow_tools` and
 * `deny_tools` say: what a profile records and compares (its snapshot, its
 * schema hash), never what a caller is offered ({@linkcode list} is that).
 *
 * @example
 * ```ts
 * import { liveTools, open } from "@jn/jn";
 *
 * await using conn = await open("@demo", { cwd: Deno.cwd(), env: Deno.env.toObject() });
 * console.log((await liveTools(conn)).length);
 * ```
 */
export async function liveTools(conn: Connection): Promise<ToolInfo[]> {
  try {
    return await conn.session.listTools();
  } catch (error) {
    throw conn.explain(error);
  }
}

/**
 * Reads a resource.
 *
 * @example
 * ```ts
 * import { open, read } from "@jn/jn";
 *
 * await using conn = await open("@demo", { cwd: Deno.cwd(), env: Deno.env.toObject() });
 * const [readme] = await read(conn, "demo://readme");
 * console.log(readme.mimeType, readme.text?.length);
 * ```
 */
export async function read(conn: Connection, uri: string): Promise<ResourceContents[]> {
  try {
    return await conn.session.readResource(uri);
  } catch (error) {
    if (error instanceof ProtocolError && error.hint === undefined && /\{[^}]*\}/.test(uri)) {
      // A template pasted as is (`demo://items/{id}`): its variables want values.
      error.hint = "that is a resource template: give each {…} a value " +
        "('jn complete' lists values where the server offers them)";
    }
    if (isNotFound(error) && error.hint === undefined) {
      error.hint = await nearResource(conn, uri);
    }
    throw conn.explain(error);
  }
}

/** A server's "resource not found" (-32002, or -32602 saying so, as many servers answer). */
function isNotFound(error: unknown): error is ProtocolError {
  return error instanceof ProtocolError &&
    (error.code === -32002 || (error.code === -32602 && /not found/i.test(error.message)));
}

/** "did you mean …?" with the server's resource closest to `uri` (by URI or name), if any. */
async function nearResource(conn: Connection, uri: string): Promise<string | undefined> {
  let resources: ResourceInfo[];
  try {
    resources = await conn.session.listResources();
  } catch {
    return undefined;
  }
  const byName = new Map(resources.map((r) => [r.name, r.uri]));
  const near = closest(uri, resources.map((r) => r.uri)) ??
    byName.get(closest(uri, byName.keys()) ?? "");
  return near === undefined
    ? "see 'jn inspect SOURCE' for the server's resources"
    : `did you mean "${visibleLine(near)}"?`;
}

/** Options of {@linkcode getPrompt}. */
export interface GetPromptOptions {
  /** Send arguments the prompt does not declare; by default each is a UsageError. */
  allowUnknown?: boolean;
}

/**
 * Gets a prompt, its arguments given as values or as pairs from a query.
 *
 * @example
 * ```ts
 * import { getPrompt, open } from "@jn/jn";
 *
 * await using conn = await open("@demo", { cwd: Deno.cwd(), env: Deno.env.toObject() });
 * const prompt = await getPrompt(conn, "summarize", { topic: "MCP" });
 * console.log(prompt.messages.length);
 * ```
 */
export async function getPrompt(
  conn: Connection,
  name: string,
  args: ArgPairs | Record<string, unknown> = {},
  options: GetPromptOptions = {},
): Promise<PromptResult> {
  try {
    const prompts = await conn.session.listPrompts();
    const prepared = promptArguments(prompts, name, typedArgs(args), conn.target.name, options);
    return await conn.session.getPrompt(name, prepared);
  } catch (error) {
    throw conn.explain(error);
  }
}
