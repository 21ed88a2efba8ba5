/**
 * Markdown tables of measured rows: median wall time, min–max, the median of
 * per-round ratios to a reference row, and the median peak RSS.
 *
 * @module
 */

import { type Measured, median, ratioTo } from "./measure.ts";

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

/** A timing table; `reference` names the row ratios are taken to. */
export function timingTable(rows: Measured[], reference?: Measured): string {
  const head = [
    "| command | median ms | min–max ms | × " + (reference?.bench.name ?? "ref") +
    " (per round) | peak RSS MiB |",
    "|---|---:|---:|---:|---:|",
  ];
  const notes: string[] = [];
  const body = rows.map((row) => {
    if (row.failure) {
      notes.push(`- ${row.bench.name}: not timed — ${row.failure}`);
      return `| ${row.bench.name} | — | — | — | — |`;
    }
    const times = row.samples.map((s) => s.ms);
    const ratio = reference && !reference.failure ? ratioTo(row, reference).toFixed(2) : "—";
    return `| ${row.bench.name} | ${ms(median(times))} | ${ms(Math.min(...times))}–${
      ms(Math.max(...times))
    } | ${ratio} | ${mib(rssOf(row))} |`;
  });
  return [...head, ...body, ...(notes.length ? ["", ...notes] : [])].join("\n");
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
