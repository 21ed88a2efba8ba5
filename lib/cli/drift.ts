/**
 * The schema drift check that runs whenever a profile with a `schema_hash`
 * is used (SPEC §5). Called by `withSession()` right after connecting, so
 * every command that uses a profile gets it once.
 *
 * @module
 */

import type { Session } from "../session/session.ts";
import type { Target } from "../target.ts";
import type { Ctx } from "./main.ts";
import type { CallFlags } from "./options.ts";

/** Checks the live server against the profile's expectations (no-op until profiles land). */
export function checkDrift(
  _ctx: Ctx,
  _target: Target,
  _session: Session,
  _flags: CallFlags,
): Promise<void> {
  return Promise.resolve();
}
