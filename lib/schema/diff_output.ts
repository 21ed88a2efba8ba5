/**
 * Compares a tool's `outputSchema`, old against new, from the reader's side:
 * a caller reads the fields of `structuredContent`, so what it may rely on
 * shrinking is breaking and what it gets in addition is not — the mirror of
 * the parameters (diff_params.ts), where the caller writes.
 *
 * - breaking: the output schema removed; a field removed or renamed (one
 *   removed and one of the same type added in the same object); a field's
 *   type changed; a required field became optional; an enum widened (a
 *   value the caller has not seen before);
 * - non-breaking: a field added; an enum narrowed;
 * - behavioural: any other difference (`additionalProperties`, `format`…),
 *   reported once per tool, so a change is never silent.
 *
 * Field paths are written like parameter paths (`hits[].title`); the kinds
 * (`output_*`) say they are output fields. Descriptions are not compared.
 *
 * @module
 */

import { type ChangeKind, makeChange, quote, type SchemaChange, toolChange } from "./change.ts";
import { isObject } from "./ref.ts";
import { sameSchema } from "./same.ts";
import {
  canonical,
  enumChange,
  MAX_COMPARED_NODES,
  type NodeView,
  own,
  typeLabel,
  typeValue,
  viewNode,
} from "./schema_view.ts";

interface OutputContext {
  tool: string;
  oldRoot: unknown;
  newRoot: unknown;
  out: SchemaChange[];
  /** Nodes compared so far (at most `MAX_COMPARED_NODES`). */
  visits: number;
}

/**
 * The changes of one tool's output schema; `old` is the profile's snapshot
 * (compared only when it has one), `now` the server's (absent: none).
 */
export function compareOutputSchemas(tool: string, old: unknown, now: unknown): SchemaChange[] {
  const out: SchemaChange[] = [];
  if (old === undefined || canonical(old) === canonical(now ?? null)) return out;
  if (now === undefined || now === null) {
    out.push(makeChange("output_schema_removed", tool, {
      old,
      new: null,
      message: `Tool ${quote(tool)}: Output schema removed (results are no longer structured)`,
    }));
    return out;
  }
  const ctx: OutputContext = { tool, oldRoot: old, newRoot: now, out, visits: 0 };
  compareNodes(ctx, "", viewNode(old, old, []), viewNode(now, now, []));
  if (out.length === 0 && !sameSchema(old, now)) {
    out.push(makeChange("output_schema_changed", tool, {
      old,
      new: now,
      message: `Tool ${quote(tool)}: Output schema changed`,
    }));
  }
  return out;
}

function compareNodes(ctx: OutputContext, path: string, old: NodeView, now: NodeView): void {
  if (++ctx.visits > MAX_COMPARED_NODES) return;
  if (path !== "" && typeLabel(old.type) !== typeLabel(now.type)) {
    const message = `Output field ${quote(path)} type changed from ${
      quote(typeLabel(old.type))
    } to ${quote(typeLabel(now.type))}`;
    push(ctx, "output_type_changed", path, typeValue(old.type), typeValue(now.type), message);
    return;
  }
  if (path !== "") compareEnums(ctx, path, old.enum, now.enum);
  if (old.cyclic || now.cyclic) return;
  if (old.properties !== undefined || now.properties !== undefined) {
    compareObjects(ctx, path, old, now);
  }
  if (old.items === undefined || now.items === undefined) return;
  if (Array.isArray(old.items) || Array.isArray(now.items)) return; // tuples: the fallback says it
  compareNodes(ctx, `${path}[]`, itemView(ctx.oldRoot, old), itemView(ctx.newRoot, now));
}

function compareObjects(ctx: OutputContext, path: string, old: NodeView, now: NodeView): void {
  const child = (name: string) => (path === "" ? name : `${path}.${name}`);
  const oldNames = Object.keys(old.properties ?? {});
  const newNames = Object.keys(now.properties ?? {});
  const oldView = (name: string) => viewNode(own(old.properties, name), ctx.oldRoot, old.chain);
  const newView = (name: string) => viewNode(own(now.properties, name), ctx.newRoot, now.chain);
  const removed = oldNames.filter((n) => !newNames.includes(n));
  const added = newNames.filter((n) => !oldNames.includes(n));
  const renamed = new Map<string, string>();
  for (const name of removed) {
    const type = typeLabel(oldView(name).type);
    const sameRemoved = removed.filter((n) => typeLabel(oldView(n).type) === type);
    const sameAdded = added.filter((n) => typeLabel(newView(n).type) === type);
    if (sameRemoved.length === 1 && sameAdded.length === 1) renamed.set(name, sameAdded[0]);
  }
  for (const [from, to] of renamed) {
    const message = `Output field ${quote(child(from))} renamed to ${quote(child(to))}`;
    push(ctx, "output_field_renamed", child(from), child(from), child(to), message);
  }
  for (const name of removed.filter((n) => !renamed.has(n))) {
    const p = child(name);
    push(
      ctx,
      "output_field_removed",
      p,
      own(old.properties, name),
      undefined,
      `Output field ${quote(p)} removed`,
    );
  }
  const renamedTo = new Set(renamed.values());
  for (const name of added.filter((n) => !renamedTo.has(n))) {
    const p = child(name);
    push(
      ctx,
      "output_field_added",
      p,
      undefined,
      own(now.properties, name),
      `New output field ${quote(p)} added`,
    );
  }
  for (const name of oldNames.filter((n) => newNames.includes(n))) {
    const p = child(name);
    if (old.required.includes(name) && !now.required.includes(name)) {
      push(
        ctx,
        "output_field_optional",
        p,
        true,
        false,
        `Output field ${quote(p)} may now be absent`,
      );
    }
    compareNodes(ctx, p, oldView(name), newView(name));
  }
}

function compareEnums(ctx: OutputContext, path: string, old?: unknown[], now?: unknown[]): void {
  if (old === undefined && now === undefined) return;
  const p = quote(path);
  const values = (list: unknown[]) => list.map(quote).join(", ");
  if (old === undefined) {
    push(
      ctx,
      "output_enum_narrowed",
      path,
      null,
      now,
      `Output field ${p} now only ${values(now!)}`,
    );
    return;
  }
  if (now === undefined) {
    const message = `Output field ${p} no longer restricted to ${values(old)}`;
    push(ctx, "output_enum_widened", path, old, null, message);
    return;
  }
  const { gained, lost } = enumChange(old, now);
  if (gained.length > 0) {
    const message = `Output field ${p} may now also be ${values(gained)}`;
    push(ctx, "output_enum_widened", path, old, now, message);
  } else if (lost.length > 0) {
    const message = `Output field ${p} is no longer ${values(lost)}`;
    push(ctx, "output_enum_narrowed", path, old, now, message);
  }
}

function itemView(root: unknown, parent: NodeView): NodeView {
  return viewNode(isObject(parent.items) ? parent.items : {}, root, parent.chain);
}

function push(
  ctx: OutputContext,
  kind: ChangeKind,
  path: string,
  old: unknown,
  now: unknown,
  message: string,
): void {
  ctx.out.push(toolChange(kind, ctx.tool, path, old, now, message));
}
