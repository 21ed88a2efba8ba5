/**
 * jn's colours for text meant for people: ANSI styling that collapses to
 * plain text when colour is off. Whether colour is on is the caller's
 * decision (the CLI: a TTY, and no `NO_COLOR`); server text is made visible
 * (visible.ts) before it is styled, so the only escapes are jn's own.
 *
 * @module
 */

/** ANSI styling that collapses to plain text when colour is off. */
export interface Style {
  /** Errors. */
  red(text: string): string;
  /** Warnings. */
  yellow(text: string): string;
  /** Secondary text. */
  dim(text: string): string;
  /** Headings and names. */
  bold(text: string): string;
  /** Names to type (tools, URIs). */
  cyan(text: string): string;
}

/** Returns a {@linkcode Style} for the given colour decision. */
export function style(color: boolean): Style {
  const wrap = (open: number, close: number) => (text: string) =>
    color ? `\x1b[${open}m${text}\x1b[${close}m` : text;
  return {
    red: wrap(31, 39),
    yellow: wrap(33, 39),
    dim: wrap(2, 22),
    bold: wrap(1, 22),
    cyan: wrap(36, 39),
  };
}
