/**
 * Who the proxy says it is to the host: with one source, the server's own
 * name, version, capabilities and instructions (the host sees the server it
 * asked for); with several, jn's name and the union of their capabilities,
 * their instructions under a heading each. A source that failed to start is
 * named in the instructions with its reason, so `jn inspect` of the served
 * server (and the host) shows it.
 *
 * Guarantees: `logging` is always offered (jn tells the host what it
 * withholds); `tools.listChanged` is offered whenever tools are (the filter
 * can change the list on its own); what no source offers is not offered.
 *
 * @module
 */

import type { JsonObject } from "../types.ts";
import type { Hub } from "./hub.ts";

/** What the proxy answers `initialize` / `server/discover` with. */
export interface ServedIdentity {
  serverInfo: { name: string; version: string };
  capabilities: JsonObject;
  instructions?: string;
}

/**
 * The identity of the proxy of a hub whose sources have opened. `asIs`
 * (one source, no filter: a jn session) offers exactly what the server
 * offered, without jn's own `logging` and `tools.listChanged`.
 */
export function servedIdentity(
  hub: Hub,
  jn: { name: string; version: string },
  options: { asIs?: boolean } = {},
): ServedIdentity {
  const live = hub.live();
  const failed = hub.all().filter((entry) => entry.failure !== undefined);
  const notes = failed.map((entry) =>
    `jn: the source "${entry.name}" failed to start: ${entry.failure}`
  );
  if (!hub.namespaced && live.length === 1) {
    const server = live[0].upstream!.server;
    if (options.asIs) {
      return {
        serverInfo: { name: server.name ?? jn.name, version: server.version ?? jn.version },
        capabilities: { ...server.capabilities },
        instructions: server.instructions,
      };
    }
    const capabilities: JsonObject = { ...server.capabilities, logging: {} };
    if (capabilities.tools) {
      capabilities.tools = { ...(capabilities.tools as JsonObject), listChanged: true };
    }
    return {
      serverInfo: { name: server.name ?? jn.name, version: server.version ?? jn.version },
      capabilities,
      instructions: server.instructions,
    };
  }
  const capabilities: JsonObject = { logging: {} };
  const sections: string[] = [];
  for (const entry of live) {
    const server = entry.upstream!.server;
    const offered = server.capabilities;
    if (offered.tools) capabilities.tools = { listChanged: true };
    for (const kind of ["prompts", "resources"] as const) {
      const section = offered[kind] as JsonObject | undefined;
      if (!section) continue;
      const merged = (capabilities[kind] ?? {}) as JsonObject;
      if (section.listChanged) merged.listChanged = true;
      if (kind === "resources" && section.subscribe) merged.subscribe = true;
      capabilities[kind] = merged;
    }
    if (offered.completions) capabilities.completions = {};
    if (offered.tasks && typeof offered.tasks === "object") {
      capabilities.tasks = mergeDeep(
        capabilities.tasks as JsonObject | undefined,
        offered.tasks as JsonObject,
      );
    }
    if (server.instructions) sections.push(`## ${entry.name}\n\n${server.instructions}`);
  }
  const text = [...sections, ...notes].join("\n\n");
  return {
    serverInfo: jn,
    capabilities,
    ...(text ? { instructions: text } : {}),
  };
}

function mergeDeep(base: JsonObject | undefined, extra: JsonObject): JsonObject {
  const merged: JsonObject = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    const current = merged[key];
    merged[key] = current && typeof current === "object" && value && typeof value === "object" &&
        !Array.isArray(value)
      ? mergeDeep(current as JsonObject, value as JsonObject)
      : value;
  }
  return merged;
}
