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

/** Sets the value at `path` (created when missing); `undefined` removes it. */
export function setValue(text: string, path: JsonPath, value: unknown): string {
  if (value === undefined && !has(text, path)) return text;
  const edits = modify(text, path, value, { formattingOptions: formattingOf(text) });
  return applyEdits(text, edits);
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
