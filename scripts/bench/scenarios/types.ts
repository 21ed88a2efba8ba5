/**
 * What every scenario takes and returns.
 *
 * @module
 */

import type { Measured } from "../measure.ts";

/** Options shared by the scenarios. */
export interface ScenarioOptions {
  /** Timed rounds per command. */
  rounds: number;
  /** Fewer sizes and records: a smoke run. */
  quick?: boolean;
  /** Peers that could not be installed, by slug, with the reason. */
  unavailable?: Record<string, string>;
  /** Also time jn from its bundle (scripts/bundle.ts, built by mod.ts). */
  bundle?: boolean;
  /** Progress. */
  onRound?: (round: number) => void;
}

/** One table of the report. */
export interface Section {
  title: string;
  /** Which part of its scenario, when it has several timed tables (cold: `list`, `call`). */
  part?: string;
  /** Markdown. */
  body: string;
  rows?: Measured[];
}
