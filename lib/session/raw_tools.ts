/**
 * Tools as the server sent them. The SDK parses a `tools/list` result with
 * its own types: the parse drops `__proto__` keys, and one tool its types
 * reject (an `inputSchema` whose `type` is not `"object"`, a `required` that
 * is not an array) fails the whole listing. The tap hands each page here
 * first (lib/session/tap.ts): the tools the SDK accepts go on to it, and are
 * kept raw — never copied, so `$schema`, `$defs`, `$ref`, unknown keywords
 * and `__proto__` keys stay as they came — while each rejected one is left out
 * with a warning naming the tool and the reason.
 *
 * @module
 */

import type { JsonObject, ToolInfo } from "../types.ts";

type Sdk = typeof import("@modelcontextprotocol/client");

/** The raw tools of one listing (its pages in order), and the pages for the SDK. */
export class RawToolListing {
  #sdk: Sdk;
  #onRejected: (message: string) => void;
  #raw: ToolInfo[] = [];
  #leftOut = new Map<string, string>();

  constructor(sdk: Sdk, onRejected: (message: string) => void) {
    this.#sdk = sdk;
    this.#onRejected = onRejected;
  }

  /** Starts a listing: forgets the pages of an earlier one. */
  start(): void {
    this.#raw = [];
    this.#leftOut = new Map();
  }

  /** The tools of the last listing that were left out, by name, with the reason. */
  get leftOut(): ReadonlyMap<string, string> {
    return this.#leftOut;
  }

  /** One page as the server sent it → the page to hand to the SDK. */
  page(result: Record<string, unknown>): Record<string, unknown> {
    const tools = result.tools;
    if (!Array.isArray(tools)) return result; // the SDK's error names what is wrong
    const accepted: unknown[] = [];
    for (const tool of tools) {
      const problem = toolProblem(this.#sdk, tool);
      if (problem === undefined) {
        accepted.push(tool);
        this.#raw.push(tool as ToolInfo);
        continue;
      }
      if (typeof tool?.name === "string") this.#leftOut.set(tool.name, problem);
      const name = typeof tool?.name === "string" ? `"${tool.name}"` : "without a name";
      this.#onRejected(
        `warning: the server's tool ${name} is left out: ${problem} (the other tools are listed)`,
      );
    }
    return accepted.length === tools.length ? result : { ...result, tools: accepted };
  }

  /**
   * The raw tool of each tool the SDK listed: the raw list holds every
   * accepted tool in server order, the SDK's is a subsequence of it (it may
   * leave some out, e.g. an invalid `x-mcp-header`). A tool the SDK served
   * from its cache has no raw copy and is given as the SDK has it.
   */
  finish(listed: ToolInfo[]): ToolInfo[] {
    const raw = this.#raw;
    this.#raw = [];
    let next = 0;
    return listed.map((tool) => {
      let at = next;
      while (at < raw.length && raw[at].name !== tool.name) at++;
      if (at === raw.length) return tool;
      next = at + 1;
      return raw[at];
    });
  }
}

/** Why the SDK would reject a listed tool (and the whole listing with it), if it would. */
export function toolProblem(sdk: Sdk, tool: unknown): string | undefined {
  const checked = sdk.specTypeSchemas.Tool["~standard"].validate(tool);
  if (checked instanceof Promise) return undefined;
  const issue = checked.issues?.[0];
  if (issue) {
    const path = (issue.path ?? []).map((p) => typeof p === "object" ? p.key : p).join(".");
    return `${path ? `${path}: ` : ""}${issue.message}`;
  }
  // The 2026-07-28 wire schema also wants a `$schema` to be a string.
  const value = tool as { inputSchema?: JsonObject; outputSchema?: JsonObject };
  for (const key of ["inputSchema", "outputSchema"] as const) {
    const schema = value[key];
    if (schema && Object.hasOwn(schema, "$schema") && typeof schema.$schema !== "string") {
      return `${key}.$schema: not a string`;
    }
  }
  return undefined;
}
