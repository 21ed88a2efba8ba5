/**
 * Words wrapped at a width, for help text (help.ts, the footers). Pure.
 *
 * @module
 */

/** `text` wrapped at `width` columns, breaking between words only. */
export function wrap(text: string, width: number): string {
  return fill(text.split(" "), width);
}

/** `items` joined with ", " after `prefix`, wrapped at `width` between items only. */
export function wrapList(prefix: string, items: readonly string[], width: number): string {
  const pieces = items.map((item, i) => `${item}${i === items.length - 1 ? "." : ","}`);
  return fill([prefix, ...pieces], width);
}

/** Units joined by spaces into lines of at most `width` columns (a unit is never split). */
function fill(units: readonly string[], width: number): string {
  const lines: string[] = [];
  let line = "";
  for (const unit of units) {
    if (line !== "" && line.length + 1 + unit.length > width) {
      lines.push(line);
      line = unit;
    } else line = line === "" ? unit : `${line} ${unit}`;
  }
  lines.push(line);
  return lines.join("\n");
}
