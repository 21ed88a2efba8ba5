/**
 * `complete` as a verb: `completion/complete` for an argument of the prompt
 * (`?prompt=NAME`) or a variable of the resource template
 * (`?resource=TEMPLATE`) that the connection's target names; the target's
 * other query keys are the context (arguments already chosen), so a
 * server can narrow one argument by another.
 *
 * Guarantees: a server without the `completions` capability, a target that
 * names neither a prompt nor a resource template, a prompt or template the
 * server does not have, and an argument the prompt or template does not
 * declare are errors that name what there is; the listing that checks them
 * goes out together with the completion request (no extra round trip). The
 * server's `total` is kept only when it can be true (a whole number, more
 * than the values sent when it says there are more); the names of its
 * prompts, templates and arguments reach messages on one line each.
 *
 * @module
 */

import type { ArgPairs } from "../args/collect.ts";
import { ProtocolError, UsageError } from "../errors.ts";
import { visibleLine, visibleNames } from "../output/visible.ts";
import { closest } from "../text/suggest.ts";
import type { CompletionRef, CompletionResult } from "../types.ts";
import type { Connection } from "./connection.ts";
import type { Target } from "./resolve.ts";

/**
 * Completes `argument` of the target's prompt or resource template from
 * `partial` (default empty: every value the server offers). The context —
 * the arguments already chosen — is the target's other query keys, with
 * `options.context` over them (`jn complete --arg k=v`).
 *
 * @example
 * ```ts
 * import { complete, open } from "@jn/jn";
 *
 * await using conn = await open("@demo?prompt=summarize", {
 *   cwd: Deno.cwd(),
 *   env: Deno.env.toObject(),
 * });
 * const { values } = await complete(conn, "topic", "mc");
 * console.log(values); // ["MCP", "MCP sampling"]
 * ```
 */
export async function complete(
  conn: Connection,
  argument: string,
  partial = "",
  options: CompleteOptions = {},
): Promise<CompletionResult> {
  const { target, session } = conn;
  const operation = target.operation;
  try {
    if (operation.kind !== "prompt" && operation.kind !== "resource") {
      throw new UsageError(`Nothing to complete in "${target.source.raw}"`, {
        hint: "name a prompt (?prompt=NAME) or a resource template (?resource=TEMPLATE)",
      });
    }
    if (!session.server.capabilities.completions) {
      throw new ProtocolError(
        `The server "${target.name}" does not offer completions (no "completions" capability)`,
      );
    }
    const context: Record<string, string> = {};
    for (const { key, value } of target.queryArgs) if (key !== argument) context[key] = value;
    for (const [key, value] of Object.entries(contextStrings(options.context))) {
      if (key !== argument) context[key] = value;
    }
    const ref = completionRef(target)!;
    const known = operation.kind === "prompt"
      ? session.listPrompts().then((prompts) => promptNames(prompts, operation.name))
      : session.listResourceTemplates().then((templates) =>
        templateNames(templates.map((t) => t.uriTemplate), operation.uri)
      );
    const answer = session.complete(ref, { name: argument, value: partial }, context);
    answer.catch(() => {}); // observed below, unless the check throws first
    // Checked first: a missing prompt or argument explains the server's error, if any.
    const names = await known.catch(() => undefined);
    const what = operation.kind === "prompt" ? operation.name : operation.uri;
    // The context's names are arguments too: strict like the one completed.
    for (const name of [argument, ...Object.keys(context)]) {
      checkArgument(names, name, what, { kind: operation.kind, server: target.name });
    }
    return countable(await answer);
  } catch (error) {
    throw conn.explain(error);
  }
}

/** Options of {@linkcode complete}. */
export interface CompleteOptions {
  /**
   * Arguments already chosen, over the target's query keys: strings, or
   * values of `collectArgs()` (a repeated key counts with its last value; a
   * JSON value that is not a string is sent as its JSON text).
   */
  context?: ArgPairs | Record<string, unknown>;
}

/** The context as the strings `completion/complete` carries. */
function contextStrings(context: CompleteOptions["context"]): Record<string, string> {
  const strings: Record<string, string> = {};
  const entries = context instanceof Map
    ? [...context].map(([key, v]) => [key, v.kind === "raw" ? v.values.at(-1) : v.value] as const)
    : Object.entries(context ?? {});
  for (const [key, value] of entries) {
    strings[key] = typeof value === "string" ? value : JSON.stringify(value) ?? String(value);
  }
  return strings;
}

/**
 * The server's answer, with its `total` only when it can be true: a whole
 * number no smaller than the values sent (and larger, when the server says
 * there are more). A server that sends 8 values and a total of 3 has no
 * count worth repeating.
 */
function countable(result: CompletionResult): CompletionResult {
  const { total, ...rest } = result;
  const least = result.values.length + (result.hasMore ? 1 : 0);
  return Number.isSafeInteger(total) && total! >= least ? { ...rest, total } : rest;
}

/** What the target completes in: its prompt or resource template (undefined for anything else). */
export function completionRef(target: Target): CompletionRef | undefined {
  const operation = target.operation;
  if (operation.kind === "prompt") return { type: "ref/prompt", name: operation.name };
  if (operation.kind === "resource") return { type: "ref/resource", uri: operation.uri };
  return undefined;
}

/** The argument names of prompt `name`, or null when the server has no such prompt. */
function promptNames(
  prompts: { name: string; arguments?: { name: string }[] }[],
  name: string,
): { names: string[] | null; all: string[] } {
  const prompt = prompts.find((p) => p.name === name);
  return {
    names: prompt ? (prompt.arguments ?? []).map((a) => a.name) : null,
    all: prompts.map((p) => p.name),
  };
}

/** The variables of template `uri`, or null when the server lists no such template. */
function templateNames(
  templates: string[],
  uri: string,
): { names: string[] | null; all: string[] } {
  return { names: templates.includes(uri) ? templateVariables(uri) : null, all: templates };
}

/** The variable names of an RFC 6570 template: `{a}`, `{+b}`, `{?c,d*}`, `{e:3}`. */
export function templateVariables(template: string): string[] {
  const names: string[] = [];
  for (const match of template.matchAll(/\{([^}]*)\}/g)) {
    for (const spec of match[1].replace(/^[+#./;?&]/, "").split(",")) {
      const name = spec.replace(/(\*|:\d+)$/, "").trim();
      if (name !== "" && !names.includes(name)) names.push(name);
    }
  }
  return names;
}

function checkArgument(
  known: { names: string[] | null; all: string[] } | undefined,
  argument: string,
  what: string,
  where: { kind: "prompt" | "resource"; server: string },
): void {
  if (known === undefined) return;
  const noun = where.kind === "prompt" ? "Prompt" : "Resource template";
  if (known.names === null) {
    const near = closest(what, known.all);
    throw new UsageError(`${noun} "${visibleLine(what)}" not found on server "${where.server}"`, {
      hint: near !== undefined
        ? `did you mean "${visibleLine(near)}"?`
        : `its ${where.kind === "prompt" ? "prompts" : "resource templates"}: ${
          visibleNames(known.all) || "none"
        }`,
    });
  }
  if (!known.names.includes(argument)) {
    const near = closest(argument, known.names);
    throw new UsageError(
      `${noun} "${visibleLine(what)}" has no argument "${visibleLine(argument)}"`,
      {
        hint: near !== undefined
          ? `did you mean "${visibleLine(near)}"?`
          : `its arguments: ${visibleNames(known.names) || "none"}`,
      },
    );
  }
}
