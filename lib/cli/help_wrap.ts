/**
 * Words wrapped at a width, for help text (help.ts, the footers, the agent
 * guide). Pure.
 *
 * @module
 */

/** `text` wrapped at `width` columns, breaking between words only. */
export function wrap(text: string, width: number): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  lines.push(line);
  return lines.join("\n");
}

/** `items` joined with ", " after `prefix`, wrapped at `width` between items only. */
export function wrapList(prefix: string, items: readonly string[], width: number): string {
  const lines: string[] = [];
  let line = prefix;
  items.forEach((item, i) => {
    const piece = i === items.length - 1 ? `${item}.` : `${item},`;
    if (line !== "" && line.length + 1 + piece.length > width) {
      lines.push(line);
      line = piece;
    } else line = line === "" ? piece : `${line} ${piece}`;
  });
  lines.push(line);
  return lines.join("\n");
}
