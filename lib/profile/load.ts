/**
 * Reads profile files: JSONC (comments and trailing commas allowed, a
 * leading byte order mark ignored) through jn's own parser (./jsonc.ts,
 * no npm package). A syntax error is a `ConfigError` naming the file, line and
 * column (`/p/_meta.json:3:5: expected ","`); the parsed document can point
 * any later complaint about a field at that field's line and column too.
 *
 * @module
 */

import { type JsoncNode, MAX_JSONC_DEPTH, nodeAt, parseJsoncTree } from "./jsonc.ts";
import { ConfigError } from "../errors.ts";

/** A parsed profile file. */
export interface JsoncDoc {
  /** The file, as shown in messages (absolute, or `bundled:…`). */
  file: string;
  /** Its text, for edits that keep comments and formatting. */
  text: string;
  /** The parsed value. */
  value: unknown;
  /** `file:line:col` of the value at a JSON path (the file alone when the path is absent). */
  where(path: (string | number)[]): string;
}

const MESSAGES: Record<string, string> = {
  InvalidSymbol: "unexpected character",
  InvalidNumberFormat: "invalid number",
  PropertyNameExpected: "expected a property name in double quotes",
  ValueExpected: "expected a value",
  ColonExpected: `expected ":"`,
  CommaExpected: `expected ","`,
  CloseBraceExpected: `expected "}"`,
  CloseBracketExpected: `expected "]"`,
  EndOfFileExpected: "unexpected text after the end of the document",
  UnexpectedEndOfComment: "unterminated comment",
  UnexpectedEndOfString: "unterminated string",
  UnexpectedEndOfNumber: "unterminated number",
  InvalidUnicode: "invalid unicode escape",
  InvalidEscapeCharacter: "invalid escape character",
  InvalidCharacter: "invalid character in a string",
  NestingTooDeep: `nested more than ${MAX_JSONC_DEPTH} levels deep`,
};

/**
 * Parses JSONC text; throws a `ConfigError` at the first syntax error, or when
 * the document is not a JSON object.
 *
 * @example
 * parseJsonc('{"command": "uvx", // launcher\n}', "/p/_meta.json").value; // { command: "uvx" }
 */
export function parseJsonc(source: string, file: string): JsoncDoc {
  // A byte order mark (Windows editors write one) is not part of the JSON.
  const text = source.startsWith("\uFEFF") ? source.slice(1) : source;
  const { tree, error } = parseJsoncTree(text);
  const position = (offset: number) => {
    const { line, column } = lineColumn(text, offset);
    return `${file}:${line}:${column}`;
  };
  if (error !== undefined || tree === undefined) {
    const offset = error?.offset ?? 0;
    const what = text.trim() === ""
      ? "the file is empty"
      : (error && MESSAGES[error.code]) ?? "invalid JSON";
    throw new ConfigError(`Invalid JSON in ${position(offset)}: ${what}`, {
      path: file,
      hint: "profile files are JSON with comments (JSONC); fix the file and retry",
    });
  }
  if (tree.type !== "object") {
    throw new ConfigError(
      `Invalid profile file ${position(tree.offset)}: expected a JSON object, got ${
        tree.type === "array" ? "an array" : `a ${tree.type}`
      }`,
      { path: file },
    );
  }
  return {
    file,
    text,
    value: nodeValue(tree),
    where(path) {
      const node = nodeAt(tree, path);
      return node ? position(node.offset) : file;
    },
  };
}

/** 1-based line and column (in UTF-16 code units) of an offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === "\n") {
      line++;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}

/** The value of a tree node, objects built with own keys only (`__proto__` stays a key). */
function nodeValue(node: JsoncNode): unknown {
  switch (node.type) {
    case "object": {
      const out: Record<string, unknown> = {};
      for (const property of node.children ?? []) {
        const [key, value] = property.children ?? [];
        if (key === undefined) continue;
        Object.defineProperty(out, key.value as string, {
          value: value === undefined ? null : nodeValue(value),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    case "array":
      return (node.children ?? []).map(nodeValue);
    default:
      return node.value;
  }
}
