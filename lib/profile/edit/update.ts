/**
 * `jn profile update`: rewrites a profile to the live schema by editing its
 * JSONC text (comments and formatting survive; see jsonc_edit.ts):
 *
 * - `_meta.json`: `schema_hash` (the seed's hash of the live tools) and
 *   `schema_updated`;
 * - each tool: the `inputSchema` snapshot and `parameters` where the profile
 *   records them (never added where it does not), with the `inputSchema`
 *   snapshot the `outputSchema` one, and the server's description with
 *   its digest `server_description_md5` (description.ts: a text the user
 *   wrote is kept, its digest still recorded), and the digests of its
 *   display fields `server_display_md5` (lib/schema/display.ts);
 * - a renamed parameter is renamed in the tool's `defaults`, `examples[].input`
 *   and `tested_with` (objects and `k=v&…` strings; also `_meta.json`'s
 *   per-tool `tested_with` map);
 * - tools the server dropped lose their tool files (and inline entries);
 *   tools the server added get one, when the profile records every tool;
 *   `server_version` follows the live server's (server_version.ts).
 *
 * Only the defining layer is written: a tool file inherited from a lower
 * layer that needs a change is copied into the defining directory first.
 *
 * @module
 */

import { basename, dirname, join } from "node:path";
import type { SchemaChange } from "../../schema/change.ts";
import { escapeValue } from "../expand.ts";
import { keepOrUpdateDescription } from "./description.ts";
import { serverVersionEdits } from "./server_version.ts";
import { displayDigests } from "../../schema/display.ts";
import { canonical } from "../../schema/schema_view.ts";
import { type JsonPath, setValue } from "./jsonc_edit.ts";
import { type Rename, renameEverywhere, renameInMetaTestedWith } from "./rename.ts";
import { parseJsonc } from "../load.ts";
import type { RawProfile, RawTool } from "../merge.ts";
import { isSafeToolFileName, mergeParameters, toolDefFromLive } from "./snapshot.ts";
import type { ToolDef } from "../types.ts";
import { assertNoSymlink, profileFileText, writeFileAtomic } from "./write.ts";
import type { ToolInfo } from "../../types.ts";

/** The live tools' hash and the changes from the profile to them (a drift report has both). */
export type LiveChanges = { current_hash: string; changes: readonly SchemaChange[] };

/** What an update will do. */
export interface UpdatePlan {
  /** New texts by absolute path (edited, copied down from a lower layer, or new). */
  writes: Map<string, string>;
  /** Files to delete. */
  removals: string[];
  /** One line per action, for the user. */
  actions: string[];
  /** What the update deliberately leaves alone (a description the user wrote), for stderr. */
  notes: string[];
  /** The profile's `schema_hash` after the update. */
  newHash: string;
}

/** Plans the rewrite of a profile (as written) to the live tools. */
export function planUpdate(
  raw: RawProfile,
  live: readonly ToolInfo[],
  report: LiveChanges,
  options: { now?: Date; server?: { name?: string; version?: string } } = {},
): UpdatePlan {
  const definingDir = raw.location.defining.layer.path(raw.name);
  const definingLayer = raw.location.defining.layer.name;
  const metaPath = raw.metaDoc.file;
  const texts = new Map<string, string>([[metaPath, raw.metaDoc.text]]);
  const plan: UpdatePlan = {
    writes: new Map(),
    removals: [],
    actions: [],
    notes: [],
    newHash: report.current_hash,
  };
  const edit = (path: string, base: string, change: (text: string) => string, action?: string) => {
    const before = texts.get(path) ?? base;
    const after = change(before);
    if (after === before) return;
    texts.set(path, after);
    if (action && !plan.actions.includes(action)) plan.actions.push(action);
  };
  const liveByName = new Map(live.map((tool) => [tool.name, tool]));
  const renames = new Map<string, Rename[]>();
  for (const change of report.changes) {
    if (change.kind !== "param_renamed") continue;
    const list = renames.get(change.tool) ?? [];
    list.push({ from: String(change.old), to: String(change.new) });
    renames.set(change.tool, list);
  }

  for (const tool of raw.tools) {
    const serverTool = (tool.inlineDef?.tool ?? tool.fileDef?.tool ?? tool.name) as string;
    const now = liveByName.get(serverTool);
    const sources = toolSources(tool, { definingDir, definingLayer, metaPath });
    if (now === undefined) {
      for (const source of sources) {
        if (source.prefix.length > 0) {
          edit(
            metaPath,
            raw.metaDoc.text,
            (t) => setValue(t, source.prefix, undefined),
            `remove tool "${tool.name}" from _meta.json: the server no longer has "${serverTool}"`,
          );
        } else if (source.copiedFrom === undefined) {
          plan.removals.push(source.path);
          plan.actions.push(
            `remove ${basename(source.path)}: the server no longer has "${serverTool}"`,
          );
        } else {
          plan.actions.push(
            `keep ${source.copiedFrom}: it calls the removed "${serverTool}"; delete it there`,
          );
        }
      }
      continue;
    }
    for (const source of sources) {
      const at = (...path: JsonPath) => [...source.prefix, ...path];
      const name = basename(source.path);
      const def = source.def;
      const run = (change: (text: string) => string, action: string) =>
        edit(
          source.path,
          source.base,
          change,
          source.copiedFrom ? `${action} (copied from ${source.copiedFrom})` : action,
        );
      if (def.inputSchema !== undefined) {
        run(
          (t) => setValue(t, at("inputSchema"), escapeValue(now.inputSchema)),
          `rewrite the inputSchema snapshot in ${name}`,
        );
        const output = now.outputSchema === undefined ? undefined : escapeValue(now.outputSchema);
        if (JSON.stringify(output) !== JSON.stringify(def.outputSchema)) {
          run(
            (t) => setValue(t, at("outputSchema"), output),
            output === undefined
              ? `remove the outputSchema snapshot from ${name}`
              : `rewrite the outputSchema snapshot in ${name}`,
          );
        }
        const digests = displayDigests(now);
        if (canonical(digests) !== canonical(def.server_display_md5 ?? null)) {
          run(
            (t) => setValue(t, at("server_display_md5"), digests),
            `record the digests of the server's title, annotations… in ${name}`,
          );
        }
        let described = false; // the digest goes with a written text, said once
        keepOrUpdateDescription(def, now.description, {
          name,
          replace: (text) => {
            described = true;
            run(
              (t) => setValue(t, at("description"), text),
              text === undefined
                ? `remove the description from ${name}: the server has none now`
                : `${def.description === undefined ? "add" : "update"} the description in ${name}`,
            );
          },
          record: (md5) => {
            const change = (t: string) => setValue(t, at("server_description_md5"), md5);
            if (described) edit(source.path, source.base, change);
            else run(change, `record the digest of the server's description in ${name}`);
          },
          note: (text) => plan.notes.includes(text) || plan.notes.push(text),
        });
      }
      if (def.parameters !== undefined) {
        const merged = mergeParameters(
          def.parameters,
          now,
          renames.get(serverTool) ?? [],
          def.inputSchema !== undefined,
        );
        run((t) => setValue(t, at("parameters"), merged), `rewrite the parameters in ${name}`);
      }
      for (const rename of renames.get(serverTool) ?? []) {
        const label =
          `rename "${rename.from}" to "${rename.to}" in the defaults/examples of ${name}`;
        run((t) => renameEverywhere(t, source.prefix, def, rename), label);
      }
    }
  }
  renameInMetaTestedWith(
    raw,
    renames,
    (change, action) => edit(metaPath, raw.metaDoc.text, change, action),
  );
  addNewTools(raw, report, liveByName, { definingDir, edit, plan, texts });
  const versions = serverVersionEdits(raw.meta, options.server ?? {});
  for (const { change, action } of versions) edit(metaPath, raw.metaDoc.text, change, action);
  edit(
    metaPath,
    raw.metaDoc.text,
    (t) => setValue(t, ["schema_hash"], report.current_hash),
    `set schema_hash to ${report.current_hash}`,
  );
  const stamp = (options.now ?? new Date()).toISOString().replace(/\.\d{3}Z$/, "Z");
  edit(metaPath, raw.metaDoc.text, (t) => setValue(t, ["schema_updated"], stamp));
  for (const [path, text] of texts) {
    if (path === metaPath && text === raw.metaDoc.text) continue;
    parseJsonc(text, path); // an edit must never leave a file unreadable
    plan.writes.set(path, text);
  }
  return plan;
}

interface Source {
  path: string;
  base: string;
  prefix: JsonPath;
  def: ToolDef;
  copiedFrom?: string;
}

function toolSources(
  tool: RawTool,
  where: { definingDir: string; definingLayer: string; metaPath: string },
): Source[] {
  const out: Source[] = [];
  if (tool.fileDoc && tool.fileDef) {
    const own = tool.layer === where.definingLayer;
    out.push({
      path: own ? tool.fileDoc.file : join(where.definingDir, basename(tool.fileDoc.file)),
      base: tool.fileDoc.text,
      prefix: [],
      def: tool.fileDef,
      ...(own ? {} : { copiedFrom: tool.fileDoc.file }),
    });
  }
  if (tool.inlineDoc && tool.inlineDef && tool.inlineDoc.file === where.metaPath) {
    out.push({
      path: where.metaPath,
      base: tool.inlineDoc.text,
      prefix: ["tools", tool.name],
      def: tool.inlineDef,
    });
  }
  return out;
}

function addNewTools(
  raw: RawProfile,
  report: LiveChanges,
  live: Map<string, ToolInfo>,
  ctx: {
    definingDir: string;
    edit: (path: string, base: string, change: (text: string) => string, action?: string) => void;
    plan: UpdatePlan;
    texts: Map<string, string>;
  },
): void {
  for (const change of report.changes) {
    const tool = change.kind === "tool_added" ? live.get(change.tool) : undefined;
    if (tool === undefined) continue;
    const path = join(ctx.definingDir, `${tool.name}.json`);
    if (
      isSafeToolFileName(tool.name) && !raw.location.defining.files.includes(`${tool.name}.json`)
    ) {
      ctx.texts.set(path, profileFileText(toolDefFromLive(tool)));
      ctx.plan.actions.push(`add ${tool.name}.json: the server has a new tool "${tool.name}"`);
    } else {
      ctx.edit(
        raw.metaDoc.file,
        raw.metaDoc.text,
        (t) => setValue(t, ["tools", tool.name], toolDefFromLive(tool)),
        `add tool "${tool.name}" to _meta.json`,
      );
    }
  }
}

/**
 * Writes a planned update: every file replaced atomically, then removals.
 * `project` (the project directory, for a project-layer profile): nothing is
 * written or removed through a symlink below it (see write.ts).
 */
export async function applyUpdate(
  plan: UpdatePlan,
  options: { project?: string } = {},
): Promise<void> {
  if (options.project !== undefined) {
    for (const path of [...plan.writes.keys(), ...plan.removals]) {
      await assertNoSymlink(options.project, dirname(path));
    }
  }
  for (const [path, text] of plan.writes) await writeFileAtomic(path, text);
  for (const path of plan.removals) await Deno.remove(path).catch(() => {});
}
