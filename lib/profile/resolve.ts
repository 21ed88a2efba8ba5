/**
 * lib/profile: profiles: layers, JSONC loading, merging, `${VAR}` substitution,
 * trust.
 *
 * A profile by name, resolved: located in the layers, read, merged, checked
 * and with every `${VAR}` substituted from the caller's environment. The
 * substituted values are collected as secrets; "display" copies show them as
 * `***` for `profile info`.
 *
 * @module
 */

import { ConfigError } from "../errors.ts";
import { closest } from "../text/suggest.ts";
import { allServerDirs, locateServer } from "./discover.ts";
import { expandValue } from "./expand.ts";
import { type LayerOptions, profileLayers } from "./layers.ts";
import { mergeToolDefs, type RawProfile, readProfile } from "./merge.ts";
import type { MetaDef, Profile, ProfileTool, ToolDef } from "./types.ts";

/** Loads `@name` as written (no substitution): for commands that edit or list profiles. */
export async function loadRawProfile(name: string, options: LayerOptions): Promise<RawProfile> {
  const layers = profileLayers(options);
  const location = await locateServer(name, layers);
  if (location !== undefined) return readProfile(location);
  const partial = (await allServerDirs(layers)).find((dir) => dir.server === name);
  if (partial !== undefined) {
    throw new ConfigError(
      `Profile "@${name}" has no _meta.json: ${partial.layer.path(name)} holds only tool files`,
      {
        path: partial.layer.path(name),
        hint: `add a _meta.json with "command" (or "url"), or create it: jn profile create ${name}`,
      },
    );
  }
  const known = (await allServerDirs(layers)).map((dir) => dir.server);
  const near = closest(name, ["demo", ...known]);
  throw new ConfigError(`Profile "@${name}" not found`, {
    hint: (near === undefined ? "" : `did you mean @${near}? `) +
      "list profiles with 'jn profile list'; create one with 'jn profile create NAME --from URI'",
  });
}

/** Options of {@linkcode loadProfile}. */
export interface LoadOptions extends LayerOptions {
  /**
   * Keep unset variables as `${VAR}` and list them in `missing` instead of
   * failing: for showing or trusting a profile, never for launching it.
   */
  lenient?: boolean;
}

/** Loads `@name` with every variable substituted. */
export async function loadProfile(name: string, options: LoadOptions): Promise<Profile> {
  return resolveProfile(await loadRawProfile(name, options), options.env, options);
}

/** Substitutes the variables of a profile as written. */
export function resolveProfile(
  raw: RawProfile,
  env: Record<string, string>,
  options: { lenient?: boolean } = {},
): Profile {
  const secrets = new Set<string>();
  const missing = new Set<string>();
  const unset = options.lenient ? "keep" as const : "error" as const;
  const { tools: _inline, ...metaFields } = raw.meta;
  const meta = expandValue(metaFields as MetaDef, { env, where: raw.metaDoc.where, unset });
  meta.secrets.forEach((s) => secrets.add(s));
  meta.missing.forEach((m) => missing.add(m));
  const tools: ProfileTool[] = raw.tools.map((tool) => {
    const file = tool.fileDef && tool.fileDoc
      ? expandValue(tool.fileDef, { env, where: tool.fileDoc.where, unset })
      : undefined;
    const inline = tool.inlineDef && tool.inlineDoc
      ? expandValue(tool.inlineDef, {
        env,
        where: tool.inlineDoc.where,
        path: ["tools", tool.name],
        unset,
      })
      : undefined;
    for (const part of [file, inline]) {
      part?.secrets.forEach((s) => secrets.add(s));
      part?.missing.forEach((m) => missing.add(m));
    }
    const def = mergeToolDefs(file?.value, inline?.value);
    return {
      name: tool.name,
      serverTool: def.tool ?? tool.name,
      def,
      display: mergeToolDefs(file?.display, inline?.display),
      layer: tool.layer,
      file: tool.fileDoc?.file,
      fileDef: tool.fileDef,
      inlineDef: tool.inlineDef,
    };
  });
  const { defining } = raw.location;
  const withTools = (fields: MetaDef, pick: (tool: ProfileTool) => ToolDef): MetaDef =>
    raw.meta.tools === undefined ? fields : {
      ...fields,
      tools: Object.fromEntries(
        tools.filter((t) => t.inlineDef !== undefined).map((t) => [t.name, pick(t)]),
      ),
    };
  return {
    name: raw.name,
    layer: defining.layer.name,
    dir: defining.layer.path(raw.name),
    realDir: defining.contents.realPath,
    ...(defining.contents.entries ? { entries: defining.contents.entries } : {}),
    ...(defining.contents.digest ? { digest: defining.contents.digest } : {}),
    writable: defining.layer.writable,
    metaFile: raw.metaDoc.file,
    meta: withTools(meta.value, (t) => t.def),
    rawMeta: raw.meta,
    displayMeta: withTools(meta.display, (t) => t.display),
    tools,
    secrets: [...secrets],
    missing: [...missing].sort(),
    ignored: raw.location.ignored.map((dir) => dir.layer.path(raw.name)),
  };
}

/** The tool of a profile with this profile tool name, if any. */
export function profileTool(profile: Profile, name: string): ProfileTool | undefined {
  return profile.tools.find((tool) => tool.name === name);
}
