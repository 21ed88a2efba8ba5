/**
 * The server's version in a profile (`server_version` of `_meta.json`):
 * `jn profile create --from` records it beside the description (which names
 * the server without it), and `jn profile update` keeps it current — also
 * in a description written by an older jn, which named the server as
 * `NAME VERSION: …`: the version there is replaced, the rest of the text
 * kept, so no profile goes on showing a release the server left behind.
 *
 * @module
 */

import type { MetaDef } from "../types.ts";
import { type JsonPath, setValue } from "./jsonc_edit.ts";

/** One edit of `_meta.json`'s text and the line that says what it does. */
export interface MetaEdit {
  change: (text: string) => string;
  action: string;
}

/** A word that reads as a release: `1.2.3`, `v2`, `2026.8.31`, `0.1.0-beta.1`. */
const VERSION = /^v?\d[\w.+-]*$/;

/**
 * The edits that bring `meta`'s version to the live server's: none when
 * the server names no version or the profile already has it.
 *
 * @example
 * ```ts ignore
 * serverVersionEdits({ server_version: "0.1.0" }, { name: "demo", version: "0.2.0" });
 * // [{ change, action: "update server_version 0.1.0 → 0.2.0" }]
 * ```
 */
export function serverVersionEdits(
  meta: MetaDef,
  server: { name?: string; version?: string },
): MetaEdit[] {
  const live = server.version;
  if (typeof live !== "string" || live === "" || meta.server_version === live) return [];
  const set = (path: JsonPath, value: unknown) => (text: string) => setValue(text, path, value);
  const edits: MetaEdit[] = [];
  const old = describedVersion(meta.description, server.name);
  if (old !== undefined && old !== live) {
    const description = meta.description!.replace(`${server.name} ${old}`, server.name!);
    edits.push({
      change: set(["description"], description),
      action: `drop the old version ${old} from the description`,
    });
  }
  edits.push({
    change: set(["server_version"], live),
    action: typeof meta.server_version === "string"
      ? `update server_version ${meta.server_version} → ${live}`
      : `record server_version ${live}`,
  });
  return edits;
}

/** The version an older jn wrote into the description (`NAME VERSION` or `NAME VERSION: …`). */
function describedVersion(description: unknown, name: string | undefined): string | undefined {
  if (typeof description !== "string" || !name || !description.startsWith(`${name} `)) {
    return undefined;
  }
  const word = description.slice(name.length + 1).split(/[:\s]/, 1)[0];
  const rest = description.slice(name.length + 1 + word.length);
  return VERSION.test(word) && (rest === "" || rest.startsWith(":")) ? word : undefined;
}
