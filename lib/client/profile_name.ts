/**
 * The name of a profile as the verbs take it: `@server` or `server` (the
 * seed leaves the `@` out), checked against what a profile directory may be
 * called. Small on purpose: every `profile` command reads its argument with
 * it, the light ones (`profile info`) included.
 *
 * @module
 */

import { UsageError } from "../errors.ts";
import { SERVER_NAME } from "../profile/layers.ts";

/**
 * The server name of a `@server` argument (the `@` may be left out, as in
 * the seed); a UsageError for a name a profile directory cannot have.
 */
export function profileName(text: string): string {
  const name = text.startsWith("@") ? text.slice(1) : text;
  if (!SERVER_NAME.test(name)) {
    throw new UsageError(`Invalid profile name "${text}"`, {
      hint: name.includes("/") || name.includes("?")
        ? "name the server only, e.g. @biomcp (not a tool or a query)"
        : `profile names use letters, digits, "-", "_" and "." (not first)`,
    });
  }
  return name;
}
