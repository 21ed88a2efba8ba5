/**
 * `mcp+http(s)://HOST[:PORT]/PATH` → a Streamable HTTP connection to
 * `http(s)://HOST[:PORT]/PATH` (the session falls back to SSE). LOCATION is
 * kept verbatim, escapes included; nothing is started.
 *
 * @module
 */

import type { NakedSource } from "../uri/source.ts";
import type { HttpLaunch } from "./spec.ts";

/** The connection of a remote server. */
export function buildHttpLaunch(source: NakedSource): HttpLaunch {
  const url = `${source.launcher}://${source.location}`;
  return { transport: "http", url, headers: {}, label: url };
}
