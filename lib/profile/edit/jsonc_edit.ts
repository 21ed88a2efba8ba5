/**
 * Edits of JSONC text that keep the user's comments and formatting: values
 * are set or removed through `jsonc-parser`'s `modify`/`applyEdits` (only the
 * edited value is re-serialised, indented like the file), and a renamed key
 * is a replacement of the key's own characters, nothing else.
 *
 * @module
 */

import {
  applyEdits,
  findNodeAtLocation,
  type FormattingOptions,
  getNodeValue,
  modify,
  type ParseError,
  parseTree,
} from "jsonc-parser";

/** A JSON path: keys and array indices. */
export type JsonPath = (string | number)[];

/** The indentation a file uses (its first indented line), two spaces by default. */
export function formattingOf(text: string): FormattingOptions {
  const indent = /^([ \t]+)\S/m.exec(text)?.[1] ?? "  ";
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  return indent.startsWith("\t")
    ? { insertSpaces: false, tabSize: 1, eol }
    : { insertSpaces: true, tabSize: indent.length, eol };
}

/**
 * Sets the value at `path` (created when missing); `undefined` removes it.
 * With `first`, a new key goes first in its object: the lines of the keys
 * already there are left as they are (jsonc-parser reformats the lines an
 * edit touches, and appending touches the last key's).
 */
export function setValue(
  text: string,
  path: JsonPath,
  value: unknown,
  options: { first?: boolean } = {},
): string {
  if (value === undefined && !has(text, path)) return text;
  const edits = modify(text, path, value, {
    formattingOptions: formattingOf(text),
    ...(options.first ? { getInsertionIndex: () => 0 } : {}),
  });
  return applyEdits(text, edits);
}

/**
 * Removes the property at `path`, leaving every other line as it is: a
 * property on lines of its own goes with those lines (and, when it was the
 * last one, the comma before it); otherwise jsonc-parser removes it.
 */
export function removeValue(text: string, path: JsonPath): string {
  const tree = parseTree(text, [], { allowTrailingComma: true });
  const property = tree && findNodeAtLocation(tree, path)?.parent;
  if (property?.type !== "property") return text;
  const lineStart = text.lastIndexOf("\n", property.offset - 1) + 1;
  const end = property.offset + property.length;
  const after = /^[ \t]*(,?)[ \t]*\r?\n/.exec(text.slice(end));
  if (after && text.slice(lineStart, property.offset).trim() === "") {
    let head = text.slice(0, lineStart);
    if (after[1] === "") {
      // The last property: the one before it loses its comma (strict JSON has no trailing one).
      head = head.replace(/,([ \t]*\r?\n)$/, "$1");
    }
    const cut = head + text.slice(end + after[0].length);
    const errors: ParseError[] = [];
    parseTree(cut, errors, { allowTrailingComma: true });
    if (errors.length === 0 && !has(cut, path)) return cut;
  }
  return applyEdits(text, modify(text, path, undefined, {}));
}

/** Whether `path` exists in the document. */
export function has(text: string, path: JsonPath): boolean {
  const tree = parseTree(text, [], { allowTrailingComma: true });
  return tree !== undefined && findNodeAtLocation(tree, path) !== undefined;
}

/**
 * Renames the key `from` of the object at `parent` to `to`, in place (its
 * value, comments and position untouched). No-op when `from` is missing or
 * `to` already exists.
 */
export function renameKey(text: string, parent: JsonPath, from: string, to: string): string {
  const tree = parseTree(text, [], { allowTrailingComma: true });
  const object = tree && findNodeAtLocation(tree, parent);
  if (object?.type !== "object") return text;
  const keys = (object.children ?? []).map((property) => property.children?.[0]);
  if (keys.some((key) => key?.value === to)) return text;
  const key = keys.find((k) => k?.value === from);
  if (key === undefined) return text;
  return text.slice(0, key.offset) + JSON.stringify(to) + text.slice(key.offset + key.length);
}

/** The value at `path`, or undefined. */
export function valueAt(text: string, path: JsonPath): unknown {
  const tree = parseTree(text, [], { allowTrailingComma: true });
  const node = tree && findNodeAtLocation(tree, path);
  if (node === undefined) return undefined;
  return getNodeValue(node);
}
