/**
 * Pinning as text (docs/drift.md, "Pinning"): why a tool is withheld from a
 * host and what to run about it, and the notes a served source gets at
 * start (what is not pinned, and how to pin it). Pure: lib/client/curate.ts
 * puts them together; the caller makes server names visible before a
 * terminal sees them.
 *
 * @module
 */

import type { ToolPin } from "./pin.ts";

/** What to run about a withheld tool: read the change, then approve it. */
export function pinFix(server: string): string {
  return `review: jn profile diff ${server}; approve: jn profile update ${server}`;
}

/** Why a tool is withheld (a change, a new tool), or undefined when it may be offered. */
export function withheldReason(pin: ToolPin): string | undefined {
  if (pin.state === "changed") {
    return `its ${joined(pin.parts ?? [])} changed since the profile's snapshot`;
  }
  if (pin.state === "new") return "it is new: the profile's snapshot does not know it";
  return undefined;
}

/** A profile tool whose server tool is gone: why, and what to run. */
export function goneTool(serverTool: string, server: string): { reason: string; fix: string } {
  return {
    reason: `the server no longer offers "${serverTool}"`,
    fix: `jn profile update ${server} removes it from the profile`,
  };
}

/** What the start-up notes depend on. */
export interface PinNoteFacts {
  /** The source is a profile (else a naked URI). */
  profile: boolean;
  /** The source as the user gave it (a naked URI), for the command that saves it. */
  source?: string;
  /** Pinning is on. */
  pinOn: boolean;
  /** Turned off by the caller's `--ignore-schema` (else by `schema_validation: "ignore"`). */
  ignoreSchema?: boolean;
  /** At least one tool has a snapshot. */
  any: boolean;
  /** Offered tools that no snapshot records. */
  unpinned: readonly string[];
  /** Offered tools whose snapshot predates description digests. */
  legacy: readonly string[];
  /** Offered tools whose snapshot predates display digests (served without display fields). */
  legacyDisplay?: readonly string[];
}

/** The start-up notes of a served source: what is not pinned, and how to pin it. */
export function pinNotes(server: string, facts: PinNoteFacts): string[] {
  if (!facts.profile) {
    return [
      `${server}: nothing is pinned (a URI has no snapshot): its tools may change unseen; ` +
      `save it as a profile to pin them: jn profile create NAME --from "${facts.source ?? "URI"}"`,
    ];
  }
  if (!facts.pinOn) {
    const why = facts.ignoreSchema ? "--ignore-schema" : `schema_validation is "ignore"`;
    return [`${server}: pinning is off (${why}): tools are served as the server lists them`];
  }
  if (!facts.any) {
    return [
      `${server}: nothing is pinned: the profile records no snapshot of its tools ` +
      `(jn profile create NAME --from ${server} writes a profile that does)`,
    ];
  }
  const notes: string[] = [];
  if (facts.unpinned.length > 0) {
    notes.push(`${server}: not pinned (no snapshot in the profile): ${facts.unpinned.join(", ")}`);
  }
  if (facts.legacy.length > 0) {
    notes.push(
      `${server}: the server's description of ${facts.legacy.join(", ")} is not pinned (its ` +
        `snapshot predates description digests): the profile's own is served; ` +
        `jn profile update ${server} records them`,
    );
  }
  if ((facts.legacyDisplay ?? []).length > 0) {
    notes.push(
      `${server}: the title, annotations and icons of ${facts.legacyDisplay!.join(", ")} are not ` +
        `pinned (their snapshot predates display digests): they are served without them; ` +
        `jn profile update ${server} records them`,
    );
  }
  return notes;
}

/** `description`, `description and input schema`, `a, b and c`. */
function joined(parts: readonly string[]): string {
  return parts.length <= 1
    ? parts.join("")
    : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
}
