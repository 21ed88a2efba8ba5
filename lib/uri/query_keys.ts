/**
 * The query keys of a source, declared once: {@linkcode QUERY_KEYS} is what
 * the URI parser (query.ts), the reserved-key check (reserved.ts), the help
 * of `inspect`/`cat`/`head`/`tail` and the CLI's help footer read. A key not
 * listed here is an argument of the tool or prompt.
 *
 * Three kinds of key:
 * - `operation`: its value selects what to do (`tool=`, `resource=`, …); at
 *   most one per source, none twice (but `task=` may name its `tool=`).
 * - `argv`: each value is one word appended to the server's argv
 *   (`command=`); naked URIs only.
 * - `refines`: jn's only beside the operation it refines (`session=` beside
 *   `task=`); elsewhere it is an argument like any other.
 *
 * Operation and argv keys are reserved: a tool's own argument of that name
 * goes in `--arg NAME=VALUE` (reserved.ts). Keys are case-sensitive. Pure, no I/O.
 *
 * @module
 */

import { closest } from "../text/suggest.ts";
import type { Fail } from "./percent.ts";
import type { ListKind, Operation } from "./source.ts";

/** What a key's value is read with. */
export interface ValueContext {
  /** Offset of the value's first character in the input. */
  start: number;
  fail: Fail;
  /** Where a tool's own argument named like the key goes (for hints). */
  note: string;
}

interface KeyCommon {
  /** The key (case-sensitive). */
  name: string;
  /** Its value in help: `NAME`, `URI`, `WORD`. */
  value: string;
  /** One line of help. */
  help: string;
  /** Whether it may be given more than once (each value kept, in order). */
  repeatable: boolean;
}

/** A key whose value selects the operation (`tool=NAME`). */
export interface OperationKey extends KeyCommon {
  kind: "operation";
  /** The values it takes, when they are a fixed set. */
  values?: readonly string[];
  /** The operation `value` selects; a bad value fails at its offset. */
  read(value: string, ctx: ValueContext): Operation;
}

/** A key whose values are appended to the server's argv (`command=WORD`): naked URIs only. */
export interface ArgvKey extends KeyCommon {
  kind: "argv";
  /** The hint of a profile reference that gives it. */
  nakedOnly: string;
}

/** A key that is jn's only beside the operation it refines (`session=` beside `task=`). */
export interface RefiningKey extends KeyCommon {
  kind: "refines";
  /** The operation it refines. */
  refines: Operation["kind"];
  /** That operation with the key's (non-empty) value applied. */
  apply(operation: Operation, value: string): Operation;
}

/** One query key jn reads. */
export type QueryKey = OperationKey | ArgvKey | RefiningKey;

const LIST_KINDS: Record<string, ListKind> = {
  tools: "tools",
  resources: "resources",
  templates: "templates",
  resource_templates: "templates",
  prompts: "prompts",
};

/** Every query key jn reads, in the order help lists them. */
export const QUERY_KEYS: readonly QueryKey[] = [
  {
    kind: "operation",
    name: "tool",
    value: "NAME",
    help: "call a tool (also @server/NAME)",
    repeatable: false,
    read: (value, ctx) => ({ kind: "tool", name: nonEmpty(value, "tool name", ctx) }),
  },
  {
    kind: "operation",
    name: "resource",
    value: "URI",
    help: "read a resource",
    repeatable: false,
    read: (value, ctx) => ({ kind: "resource", uri: nonEmpty(value, "resource URI", ctx) }),
  },
  {
    kind: "operation",
    name: "prompt",
    value: "NAME",
    help: "get a prompt",
    repeatable: false,
    read: (value, ctx) => ({ kind: "prompt", name: nonEmpty(value, "prompt name", ctx) }),
  },
  {
    kind: "operation",
    name: "list",
    value: "KIND",
    help: "list tools, resources, templates or prompts",
    repeatable: false,
    values: ["tools", "resources", "templates", "prompts"],
    read: readListKind,
  },
  {
    kind: "operation",
    name: "task",
    value: "ID",
    help: "a task's result (waits for it), e.g. one --detach started",
    repeatable: false,
    read: (value, ctx) => ({ kind: "task", id: nonEmpty(value, "task id", ctx) }),
  },
  {
    kind: "refines",
    name: "session",
    value: "ID",
    help: "the HTTP session a task= lives in",
    repeatable: false,
    refines: "task",
    apply: (operation, value) => ({ ...operation, session: value }),
  },
  {
    kind: "argv",
    name: "command",
    value: "WORD",
    help: "append WORD to the server's command",
    repeatable: true,
    nakedOnly:
      "the profile's _meta.json owns the launch command; use a naked URI to pass server arguments",
  },
];

/** The key jn reads under `name`, if any. */
export function queryKey(name: string): QueryKey | undefined {
  return QUERY_KEYS.find((key) => key.name === name);
}

function nonEmpty(value: string, what: string, ctx: ValueContext): string {
  if (value === "") ctx.fail(ctx.start, `${what} is empty`);
  return value;
}

function readListKind(value: string, ctx: ValueContext): Operation {
  const what = Object.hasOwn(LIST_KINDS, value) ? LIST_KINDS[value] : undefined;
  if (what === undefined) {
    const near = closest(value, Object.keys(LIST_KINDS));
    ctx.fail(
      ctx.start,
      value === "" ? "list kind is empty" : `unknown list kind "${value}"`,
      near !== undefined
        ? `did you mean list=${near}?`
        : `list= takes tools, resources, templates or prompts (${ctx.note})`,
    );
  }
  return { kind: "list", what };
}
