/**
 * Parses the QUERY of a naked URI or a profile reference into the operation,
 * the server's extra argv words (`command=`) and the tool or prompt arguments.
 *
 * Rules (documented in README): `&`-separated `key=value` pairs; empty pairs
 * (`a=1&&b=2`, a trailing `&`) are skipped; a pair without `=` is an error
 * (write `flag=true`, or `flag=` for an empty string); keys and values are
 * strictly percent-decoded and `+` is a literal plus. Reserved keys are
 * case-sensitive. At most one of `tool`, `resource`, `prompt`, `list`, `task`
 * (except that `task` may name its `tool`, and comes with `session`, the
 * HTTP session it lives in); none of them twice. Every other key is an argument, in order, repeats kept.
 *
 * @module
 */

import type { ListKind, Operation, RawArg } from "./source.ts";
import { type Fail, percentDecode } from "./percent.ts";
import { argFlagNote } from "./reserved.ts";
import { closest } from "../text/suggest.ts";

/** What a query string asks for. */
export interface ParsedQuery {
  operation: Operation;
  /** Values of `command=`, in order. */
  command: string[];
  args: RawArg[];
}

/** How to parse a query, and where it sits in the input. */
export interface QueryOptions {
  /** Offset of the query's first character (after `?`) in the input. */
  start: number;
  fail: Fail;
  /** `command=` is allowed (naked URIs) or refused (profile references). */
  allowCommand: boolean;
  /** A tool already named by the path of a profile reference (`@server/tool`). */
  pathTool?: string;
}

const LIST_KINDS: Record<string, ListKind> = {
  tools: "tools",
  resources: "resources",
  templates: "templates",
  resource_templates: "templates",
  prompts: "prompts",
};

const OPERATION_KEYS = ["tool", "resource", "prompt", "list", "task"] as const;
type OperationKey = typeof OPERATION_KEYS[number];

/** Parses `query` (the text after `?`). */
export function parseQuery(query: string, options: QueryOptions): ParsedQuery {
  const fail: Fail = options.fail;
  let operation: Operation = options.pathTool === undefined
    ? { kind: "none" }
    : { kind: "tool", name: options.pathTool };
  let operationKey: OperationKey | undefined;
  const seen = new Set<OperationKey>();
  const command: string[] = [];
  const args: RawArg[] = [];

  let pairStart = options.start;
  for (const pair of query.split("&")) {
    const start = pairStart;
    pairStart += pair.length + 1;
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    if (eq === -1) {
      fail(
        start,
        `"${pair}" has no value`,
        `write ${pair}=VALUE (or ${pair}= for an empty string)`,
      );
    }
    if (eq === 0) fail(start, `an argument name is empty before "="`);
    const key = percentDecode(pair.slice(0, eq), { start, fail });
    const valueStart = start + eq + 1;
    const value = percentDecode(pair.slice(eq + 1), { start: valueStart, fail });

    if (key === "command") {
      if (!options.allowCommand) {
        fail(
          start,
          `"command=" is not allowed in a profile reference`,
          "the profile's _meta.json owns the launch command; use a naked URI to pass server arguments",
        );
      }
      if (value.includes("\0")) fail(valueStart, "command argument contains a NUL character");
      command.push(value);
      continue;
    }
    if (!isOperationKey(key)) {
      args.push({ key, value });
      continue;
    }
    if (key === "tool" && options.pathTool !== undefined) {
      fail(
        start,
        `the tool is named twice: "${options.pathTool}" in the path and "tool=" in the query`,
        `name the tool once: @server/tool or @server?tool=tool (${argFlagNote("tool")})`,
      );
    }
    if (seen.has(key)) fail(start, `"${key}=" is given twice`, argFlagNote(key));
    seen.add(key);
    // A task may name the tool it runs: `?tool=NAME&task=ID`, `@server/tool?task=ID`.
    const named: Operation | false | undefined = (key === "task" || key === "tool") &&
      taskOfTool(operation, toOperation(key, value, { valueStart, fail }));
    if (named) {
      operation = named;
      continue;
    }
    if (operation.kind !== "none") {
      const first = operationKey === undefined
        ? `the tool "${options.pathTool}" in the path`
        : `"${operationKey}="`;
      fail(
        start,
        `"${key}=" conflicts with ${first}`,
        `give at most one of tool, resource, prompt, list and task (${argFlagNote(key)})`,
      );
    }
    operation = toOperation(key, value, { valueStart, fail });
    operationKey = key;
  }
  // Beside task=, session= names the HTTP session the task lives in (not an argument).
  const session = args.findIndex((arg) => arg.key === "session");
  if (operation.kind === "task" && session !== -1 && args[session].value !== "") {
    operation = { ...operation, session: args[session].value };
    args.splice(session, 1);
  }
  return { operation, command, args };
}

/** A task and the tool it runs, when `first` and `next` are those two; else undefined. */
function taskOfTool(first: Operation, next: Operation): Operation | undefined {
  if (first.kind === "tool" && next.kind === "task") return { ...next, tool: first.name };
  if (first.kind === "task" && first.tool === undefined && next.kind === "tool") {
    return { ...first, tool: next.name };
  }
  return undefined;
}

function isOperationKey(key: string): key is OperationKey {
  return (OPERATION_KEYS as readonly string[]).includes(key);
}

function toOperation(
  key: OperationKey,
  value: string,
  ctx: { valueStart: number; fail: Fail },
): Operation {
  switch (key) {
    case "tool":
      if (value === "") ctx.fail(ctx.valueStart, "tool name is empty");
      return { kind: "tool", name: value };
    case "resource":
      if (value === "") ctx.fail(ctx.valueStart, "resource URI is empty");
      return { kind: "resource", uri: value };
    case "prompt":
      if (value === "") ctx.fail(ctx.valueStart, "prompt name is empty");
      return { kind: "prompt", name: value };
    case "task":
      if (value === "") ctx.fail(ctx.valueStart, "task id is empty");
      return { kind: "task", id: value };
    case "list": {
      const what = Object.hasOwn(LIST_KINDS, value) ? LIST_KINDS[value] : undefined;
      if (what === undefined) {
        const near = closest(value, Object.keys(LIST_KINDS));
        ctx.fail(
          ctx.valueStart,
          value === "" ? "list kind is empty" : `unknown list kind "${value}"`,
          near !== undefined
            ? `did you mean list=${near}?`
            : `list= takes tools, resources, templates or prompts (${argFlagNote("list")})`,
        );
      }
      return { kind: "list", what };
    }
    default: {
      const never: never = key;
      throw new Error(`Unhandled operation key ${never}`);
    }
  }
}
