/**
 * What the curateTools() tests share: open a source with the fixture server
 * at a schema variant, and curate its live tools.
 *
 * @module
 */

import {
  type Connection,
  type CurateOptions,
  curateTools,
  type Curation,
  liveTools,
  open,
} from "../../mod.ts";
import { baseEnv } from "../helpers.ts";
import type { Sandbox } from "../profile/sandbox.ts";

/** Opens `source` with the fixture at `variant` and curates its tools. */
export async function curated(
  box: Sandbox,
  variant: string,
  fn: (curation: Curation, conn: Connection) => Promise<void> | void,
  options: CurateOptions & { source?: string; env?: Record<string, string> } = {},
): Promise<void> {
  await using conn = await open(options.source ?? "@fx", {
    cwd: box.project,
    env: { ...baseEnv(), HOME: box.home, FIXTURE_SCHEMA: variant, ...options.env },
  });
  await fn(curateTools(conn, await liveTools(conn), options), conn);
}

/** The names of a list of tools. */
export const names = (tools: { name: string }[]): string[] => tools.map((tool) => tool.name);
