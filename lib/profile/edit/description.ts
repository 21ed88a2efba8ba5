/**
 * Whose a tool description is, for `jn profile update` (docs/drift.md, "Your
 * descriptions"): a snapshot records `server_description_md5`, the MD5 of
 * the server's description when it was taken, so a description that no
 * longer hashes to it is the user's edit, kept; one that still does is the
 * server's, replaced by the server's new text.
 *
 * @module
 */

import { descriptionMd5 } from "../../schema/hash.ts";
import { escapeValue, unescapeVariables } from "../expand.ts";
import type { ToolDef } from "../types.ts";

/**
 * A snapshot's description: the server's while it still hashes to the
 * `server_description_md5` recorded with it (then a new server text
 * replaces it), the user's once edited (then it is kept, the new server
 * text is only noted). A profile without the MD5 (written by an older jn)
 * counts the text as the server's only when it equals the server's text
 * now: jn cannot tell otherwise, and never overwrites what may be yours.
 * Either way the MD5 of the server's text now is recorded.
 */
export function keepOrUpdateDescription(
  def: ToolDef,
  live: string | undefined,
  ctx: {
    name: string;
    replace: (text: string) => void;
    record: (md5: string) => void;
    note: (text: string) => void;
  },
): void {
  if (typeof def.description !== "string" || live === undefined) return;
  const liveMd5 = descriptionMd5(live);
  const recorded = typeof def.server_description_md5 === "string"
    ? def.server_description_md5
    : undefined;
  const written = escapeValue(live);
  const theirs = recorded === undefined
    ? def.description === written
    : descriptionMd5(unescapeVariables(def.description)) === recorded;
  if (theirs && def.description !== written) {
    ctx.replace(written);
  } else if (!theirs && recorded !== liveMd5) {
    const shown = live.length > 120 ? `${live.slice(0, 119)}…` : live;
    ctx.note(
      `kept your description in ${ctx.name}; the server's ${
        recorded === undefined ? "differs" : "changed"
      }: ${JSON.stringify(shown)}`,
    );
  }
  if (recorded !== liveMd5) ctx.record(liveMd5);
}
