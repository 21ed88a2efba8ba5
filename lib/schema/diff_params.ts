/**
 * Compares the parameters of one tool, old schema against new, recursing into
 * nested object properties and array items. Every difference becomes exactly
 * one change; a node whose type changed is not descended into (its children
 * would only repeat the same news).
 *
 * @module
 */

import { type ChangeKind, quote, type SchemaChange, toolChange } from "./change.ts";
import { isObject } from "./ref.ts";
import {
  enumChange,
  MAX_COMPARED_NODES,
  type NodeView,
  own,
  typeLabel,
  typeValue,
  viewNode,
} from "./schema_view.ts";

/** What one tool's comparison needs to know. */
export interface ParamContext {
  tool: string;
  /** Parameter paths the profile's defaults/examples use. */
  used: readonly string[];
  /**
   * The old side is the seed's hand-written `parameters` form: a missing
   * `type`, `enum` or nested structure there means "not recorded", not
   * "anything", and its descriptions are the profile's own prose.
   */
  loose: boolean;
  oldRoot: unknown;
  newRoot: unknown;
  out: SchemaChange[];
  /** Nodes compared so far (at most `MAX_COMPARED_NODES`). */
  visits?: number;
}

/** Compares two input schemas (the `inputSchema` roots) of the tool in `ctx`. */
export function compareInputSchemas(ctx: ParamContext, oldSchema: unknown, newSchema: unknown) {
  compareObjects(
    ctx,
    "",
    viewNode(oldSchema, ctx.oldRoot, []),
    viewNode(newSchema, ctx.newRoot, []),
  );
}

function compareObjects(ctx: ParamContext, path: string, old: NodeView, now: NodeView): void {
  const oldReq = new Set(old.required);
  const newReq = new Set(now.required);
  const oldNames = new Set([...Object.keys(old.properties ?? {}), ...old.required]);
  const newNames = new Set([...Object.keys(now.properties ?? {}), ...now.required]);
  const child = (name: string) => (path === "" ? name : `${path}.${name}`);
  const oldChild = (name: string) => viewNode(own(old.properties, name), ctx.oldRoot, old.chain);
  const newChild = (name: string) => viewNode(own(now.properties, name), ctx.newRoot, now.chain);

  const removed = [...oldNames].filter((n) => !newNames.has(n));
  const added = [...newNames].filter((n) => !oldNames.has(n));
  const renamed = pairRenames(
    removed.filter((n) => oldReq.has(n)).map((n) => [n, typeLabel(oldChild(n).type)]),
    added.filter((n) => newReq.has(n)).map((n) => [n, typeLabel(newChild(n).type)]),
  );

  for (const [from, to] of renamed) {
    const message = `Required parameter ${quote(child(from))} renamed to ${quote(child(to))}`;
    push(ctx, "param_renamed", child(from), child(from), child(to), message);
  }
  for (const name of removed.filter((n) => !renamed.has(n))) {
    const p = child(name);
    const schema = own(old.properties, name) ?? {};
    if (oldReq.has(name)) {
      push(ctx, "required_removed", p, schema, undefined, `Required parameter ${quote(p)} removed`);
    } else if (isUsed(ctx, p)) {
      push(
        ctx,
        "used_param_removed",
        p,
        schema,
        undefined,
        `Parameter ${quote(p)} removed, but the profile uses it`,
      );
    } else {push(
        ctx,
        "optional_removed",
        p,
        schema,
        undefined,
        `Optional parameter ${quote(p)} removed`,
      );}
  }
  const renamedTo = new Set(renamed.values());
  for (const name of added.filter((n) => !renamedTo.has(n))) {
    const p = child(name);
    const schema = own(now.properties, name) ?? {};
    if (newReq.has(name)) {
      push(ctx, "required_added", p, undefined, schema, `New required parameter ${quote(p)} added`);
    } else {push(
        ctx,
        "optional_added",
        p,
        undefined,
        schema,
        `New optional parameter ${quote(p)} added`,
      );}
  }
  for (const name of [...oldNames].filter((n) => newNames.has(n))) {
    const p = child(name);
    if (!oldReq.has(name) && newReq.has(name)) {
      push(ctx, "became_required", p, false, true, `Parameter ${quote(p)} became required`);
    } else if (oldReq.has(name) && !newReq.has(name)) {
      push(ctx, "became_optional", p, true, false, `Parameter ${quote(p)} became optional`);
    }
    compareNodes(ctx, p, oldChild(name), newChild(name));
  }
}

function compareNodes(ctx: ParamContext, path: string, old: NodeView, now: NodeView): void {
  ctx.visits = (ctx.visits ?? 0) + 1;
  if (ctx.visits > MAX_COMPARED_NODES) return;
  const typeKnown = !(ctx.loose && old.type === undefined);
  if (typeKnown && typeLabel(old.type) !== typeLabel(now.type)) {
    const kind = path.endsWith("]") ? "items_type_changed" : "type_changed";
    const message = `Parameter ${quote(path)} type changed from ${quote(typeLabel(old.type))} to ${
      quote(typeLabel(now.type))
    }`;
    push(ctx, kind, path, typeValue(old.type), typeValue(now.type), message);
    return;
  }
  if (!(ctx.loose && old.enum === undefined)) compareEnums(ctx, path, old.enum, now.enum);
  if (!ctx.loose && old.description !== now.description) {
    const message = `Description of parameter ${quote(path)} changed`;
    push(
      ctx,
      "description_changed",
      path,
      old.description ?? null,
      now.description ?? null,
      message,
    );
  }
  if (old.cyclic || now.cyclic) return;
  const hasShape = (v: NodeView) => v.properties !== undefined || v.required.length > 0;
  if (hasShape(old) || (hasShape(now) && !ctx.loose)) compareObjects(ctx, path, old, now);
  if (old.items === undefined && (now.items === undefined || ctx.loose)) return;
  if (Array.isArray(old.items) || Array.isArray(now.items)) {
    const length = Math.max(tupleLength(old.items), tupleLength(now.items));
    for (let i = 0; i < length; i++) {
      compareNodes(
        ctx,
        `${path}[${i}]`,
        itemView(ctx.oldRoot, old, i),
        itemView(ctx.newRoot, now, i),
      );
    }
  } else {
    compareNodes(ctx, `${path}[]`, itemView(ctx.oldRoot, old), itemView(ctx.newRoot, now));
  }
}

function compareEnums(ctx: ParamContext, path: string, old?: unknown[], now?: unknown[]): void {
  if (old === undefined && now === undefined) return;
  const p = quote(path);
  const values = (list: unknown[]) => list.map(quote).join(", ");
  if (old === undefined) {
    push(ctx, "enum_narrowed", path, null, now, `Parameter ${p} now accepts only ${values(now!)}`);
    return;
  }
  if (now === undefined) {
    push(
      ctx,
      "enum_widened",
      path,
      old,
      null,
      `Parameter ${p} no longer restricted to ${values(old)}`,
    );
    return;
  }
  const { gained, lost } = enumChange(old, now);
  if (lost.length > 0) {
    push(ctx, "enum_narrowed", path, old, now, `Parameter ${p} no longer accepts ${values(lost)}`);
  } else if (gained.length > 0) {
    push(ctx, "enum_widened", path, old, now, `Parameter ${p} now also accepts ${values(gained)}`);
  }
}

/**
 * Pairs removed and added required parameters into renames: within one object,
 * a removed and an added required parameter of the same type, when that type
 * has exactly one of each. Returns old name → new name.
 */
function pairRenames(removed: [string, string][], added: [string, string][]): Map<string, string> {
  const pairs = new Map<string, string>();
  for (const [name, type] of removed) {
    const sameRemoved = removed.filter(([, t]) => t === type);
    const sameAdded = added.filter(([, t]) => t === type);
    if (sameRemoved.length === 1 && sameAdded.length === 1) pairs.set(name, sameAdded[0][0]);
  }
  return pairs;
}

function itemView(root: unknown, parent: NodeView, index?: number): NodeView {
  const items = parent.items;
  const node = Array.isArray(items) ? (index === undefined ? undefined : items[index]) : items;
  return viewNode(isObject(node) ? node : {}, root, parent.chain);
}

function tupleLength(items: unknown): number {
  return Array.isArray(items) ? items.length : 0;
}

function isUsed(ctx: ParamContext, path: string): boolean {
  return ctx.used.some((u) => u === path || u.startsWith(`${path}.`) || u.startsWith(`${path}[`));
}

function push(
  ctx: ParamContext,
  kind: ChangeKind,
  path: string,
  old: unknown,
  now: unknown,
  message: string,
): void {
  ctx.out.push(toolChange(kind, ctx.tool, path, old, now, message));
}
