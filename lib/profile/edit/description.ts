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
 * now: jn cannot tell otherwise, and never overwrites what may be yours. A
 * snapshot with neither text nor MD5 recorded a tool without a description:
 * one that appeared is the server's, written with its MD5. A missing server
 * description reads as `""`; when the server's text goes away, so do the
 * profile's copy of it and the MD5. Otherwise the MD5 of the server's text
 * now is recorded: what pinning (lib/drift/pin.ts) compares next time.
 */
export function keepOrUpdateDescription(
  def: ToolDef,
  live: string | undefined,
  ctx: {
    name: string;
    /** Writes the description (`undefined` removes it). */
    replace: (text: string | undefined) => void;
    /** Writes `server_description_md5` (`undefined` removes it). */
    record: (md5: string | undefined) => void;
    note: (text: string) => void;
  },
): void {
  const now = live ?? "";
  const liveMd5 = descriptionMd5(now);
  const text = typeof def.description === "string" ? def.description : undefined;
  const recorded = typeof def.server_description_md5 === "string"
    ? def.server_description_md5
    : undefined;
  const written = escapeValue(now);
  if (text === undefined && recorded === undefined) {
    if (now === "") return;
    ctx.replace(written);
    ctx.record(liveMd5);
    return;
  }
  const theirs = text !== undefined &&
    (recorded === undefined
      ? text === written
      : descriptionMd5(unescapeVariables(text)) === recorded);
  if (theirs && now === "") {
    ctx.replace(undefined);
    if (recorded !== undefined) ctx.record(undefined);
    return;
  }
  if (theirs && text !== written) {
    ctx.replace(written);
  } else if (!theirs && recorded !== liveMd5) {
    const shown = now.length > 120 ? `${now.slice(0, 119)}…` : now;
    ctx.note(
      `kept your description in ${ctx.name}; the server's ${
        recorded === undefined ? "differs" : "changed"
      }: ${JSON.stringify(shown)}`,
    );
  }
  if (recorded !== liveMd5) ctx.record(liveMd5);
}
