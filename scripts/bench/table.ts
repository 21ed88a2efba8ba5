/**
 * Markdown tables of measured rows: median wall time, min–max, the median of
 * per-round ratios to a reference row (and to a second one, the floor, for
 * wall time and peak RSS), and the median peak RSS.
 *
 * @module
 */

import { type Measured, median, ratioTo, type Sample } from "./measure.ts";

/** Formats milliseconds. */
export function ms(value: number): string {
  if (!Number.isFinite(value)) return "—";
  return value >= 100 ? value.toFixed(0) : value.toFixed(1);
}

/** Formats kilobytes as MiB. */
export function mib(kb: number): string {
  return Number.isFinite(kb) ? (kb / 1024).toFixed(1) : "—";
}

/** The median peak RSS of a row, in KB. */
export function rssOf(row: Measured): number {
  return median(row.samples.map((s) => s.rssKb));
}

/** The median wall time of a row, in ms. */
export function timeOf(row: Measured): number {
  return median(row.samples.map((s) => s.ms));
}

/** Peak RSS of a sample (for {@linkcode ratioTo}). */
export const rssMetric = (sample: Sample): number => sample.rssKb;

/** A per-round ratio, formatted; "—" when either row was not timed. */
export function ratioCell(
  row: Measured,
  reference: Measured | undefined,
  metric?: (sample: Sample) => number,
): string {
  if (!reference || reference.failure || row.failure) return "—";
  const ratio = ratioTo(row, reference, metric);
  return Number.isFinite(ratio) ? ratio.toFixed(2) : "—";
}

/**
 * A timing table; `reference` names the row wall-time ratios are taken to.
 * With `floor`, two more columns: wall time and peak RSS as per-round ratios
 * to that row too.
 */
export function timingTable(rows: Measured[], reference?: Measured, floor?: Measured): string {
  const refName = reference?.bench.name ?? "ref";
  const header = ["command", "median ms", "min–max ms", `× ${refName} (per round)`];
  if (floor) header.push(`× ${floor.bench.name} (per round)`);
  header.push("peak RSS MiB");
  if (floor) header.push(`RSS × ${floor.bench.name} (per round)`);
  const notes: string[] = [];
  const body = rows.map((row) => {
    if (row.failure) {
      notes.push(`- ${row.bench.name}: not timed — ${row.failure}`);
      return [row.bench.name, ...header.slice(1).map(() => "—")];
    }
    const times = row.samples.map((s) => s.ms);
    const cells = [
      row.bench.name,
      ms(median(times)),
      `${ms(Math.min(...times))}–${ms(Math.max(...times))}`,
      ratioCell(row, reference),
    ];
    if (floor) cells.push(ratioCell(row, floor));
    cells.push(mib(rssOf(row)));
    if (floor) cells.push(ratioCell(row, floor, rssMetric));
    return cells;
  });
  return [table(header, body), ...(notes.length ? ["", ...notes] : [])].join("\n");
}

/** A markdown table from a header and rows of cells. */
export function table(header: string[], rows: string[][], align?: string[]): string {
  const sep = align ?? header.map((_, i) => (i === 0 ? "---" : "---:"));
  return [
    `| ${header.join(" | ")} |`,
    `|${sep.join("|")}|`,
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  ].join("\n");
}
