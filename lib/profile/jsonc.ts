/**
 * A small JSONC parser (comments and trailing commas allowed): the parse
 * tree with each value's offset, or the first syntax error. jn's own, so
 * that reading profiles loads no npm package — `jsonc-parser` is CommonJS,
 * and loading it switches on Deno's Node compatibility layer, a large part
 * of a `jn profile list`. Its grammar and its first error (kind and offset) are
 * those of `jsonc-parser`'s `parseTree` with `allowTrailingComma`, which
 * tests/profile/jsonc_test.ts checks against the package on a corpus;
 * editing a file that keeps its comments still uses the package
 * (lib/profile/edit/jsonc_edit.ts). It is long because the scanner and the
 * parser, whose first errors must match the package's, belong together.
 *
 * A file jn did not write can nest arrays and objects thousands of levels
 * deep, which a recursive parser (and every recursive reader of its value)
 * would answer with a stack overflow: past {@linkcode MAX_JSONC_DEPTH}
 * levels the document is an error of its own (`NestingTooDeep`, at the
 * bracket that goes one level too deep) — jn's, not the package's.
 *
 * @module
 */

/** A node of the parse tree. */
export interface JsoncNode {
  type: "object" | "array" | "property" | "string" | "number" | "boolean" | "null";
  /** Offset of the node's first character in the text. */
  offset: number;
  /** A literal's value (a property's key is its first child). */
  value?: unknown;
  /** An object's properties, an array's items, a property's key and value. */
  children?: JsoncNode[];
}

/** The first syntax error: its kind (as `jsonc-parser` names it) and offset. */
export interface JsoncError {
  code:
    | "InvalidSymbol"
    | "InvalidNumberFormat"
    | "PropertyNameExpected"
    | "ValueExpected"
    | "ColonExpected"
    | "CommaExpected"
    | "CloseBraceExpected"
    | "CloseBracketExpected"
    | "EndOfFileExpected"
    | "UnexpectedEndOfComment"
    | "UnexpectedEndOfString"
    | "UnexpectedEndOfNumber"
    | "InvalidUnicode"
    | "InvalidEscapeCharacter"
    | "InvalidCharacter"
    /** jn's own: deeper than {@linkcode MAX_JSONC_DEPTH}. */
    | "NestingTooDeep";
  offset: number;
}

/**
 * How deep objects and arrays may nest in a JSONC document: as deep as jn
 * accepts a server's message (lib/session/message_check.ts); real profiles
 * and editor configs stay far below it.
 */
export const MAX_JSONC_DEPTH = 512;

type Kind =
  | "{"
  | "}"
  | "["
  | "]"
  | ":"
  | ","
  | "string"
  | "number"
  | "true"
  | "false"
  | "null"
  | "eof";

class Failure {
  constructor(readonly error: JsoncError) {}
}

const STRUCTURAL = new Set(["{", "}", "[", "]", ":", ","]);
const ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

/**
 * Parses JSONC `text`: the tree, or the first error.
 *
 * @example
 * parseJsoncTree('{"a": [1, 2,], // note\n}').tree?.type; // "object"
 */
export function parseJsoncTree(text: string): { tree?: JsoncNode; error?: JsoncError } {
  const lexer = new Lexer(text);
  try {
    lexer.next();
    if (lexer.is("eof")) lexer.fail("ValueExpected");
    const tree = parseValue(lexer) ?? lexer.fail("ValueExpected");
    if (!lexer.is("eof")) lexer.fail("EndOfFileExpected");
    return { tree };
  } catch (caught) {
    if (caught instanceof Failure) return { error: caught.error };
    throw caught;
  }
}

/** The value at the current token; `depth`: how many objects and arrays enclose it. */
function parseValue(lexer: Lexer, depth = 0): JsoncNode | undefined {
  const offset = lexer.offset;
  switch (lexer.kind) {
    case "{":
    case "[":
      if (depth >= MAX_JSONC_DEPTH) lexer.fail("NestingTooDeep");
      return lexer.kind === "{" ? parseObject(lexer, depth + 1) : parseArray(lexer, depth + 1);
    case "string":
    case "number":
    case "true":
    case "false":
    case "null": {
      const kind = lexer.kind;
      const type = kind === "true" || kind === "false" ? "boolean" : kind;
      const value = lexer.value;
      lexer.next();
      return { type, offset, value };
    }
    default:
      return undefined;
  }
}

function parseObject(lexer: Lexer, depth: number): JsoncNode {
  const node: JsoncNode = { type: "object", offset: lexer.offset, children: [] };
  lexer.next();
  let needsComma = false;
  while (!lexer.is("}") && !lexer.is("eof")) {
    if (lexer.is(",")) {
      if (!needsComma) lexer.fail("ValueExpected");
      lexer.next();
      if (lexer.is("}")) break;
    } else if (needsComma) lexer.fail("CommaExpected");
    if (!lexer.is("string")) lexer.fail("PropertyNameExpected");
    const key: JsoncNode = { type: "string", offset: lexer.offset, value: lexer.value };
    lexer.next();
    if (!lexer.is(":")) lexer.fail("ColonExpected");
    lexer.next();
    const value = parseValue(lexer, depth) ?? lexer.fail("ValueExpected");
    node.children!.push({ type: "property", offset: key.offset, children: [key, value] });
    needsComma = true;
  }
  if (!lexer.is("}")) lexer.fail("CloseBraceExpected");
  lexer.next();
  return node;
}

function parseArray(lexer: Lexer, depth: number): JsoncNode {
  const node: JsoncNode = { type: "array", offset: lexer.offset, children: [] };
  lexer.next();
  let needsComma = false;
  while (!lexer.is("]") && !lexer.is("eof")) {
    if (lexer.is(",")) {
      if (!needsComma) lexer.fail("ValueExpected");
      lexer.next();
      if (lexer.is("]")) break;
    } else if (needsComma) lexer.fail("CommaExpected");
    node.children!.push(parseValue(lexer, depth) ?? lexer.fail("ValueExpected"));
    needsComma = true;
  }
  if (!lexer.is("]")) lexer.fail("CloseBracketExpected");
  lexer.next();
  return node;
}

const isSpace = (ch: string) => ch === " " || ch === "\t";
const isBreak = (ch: string) => ch === "\n" || ch === "\r";
const isDigit = (ch: string) => ch >= "0" && ch <= "9";
/** Characters that end a bare word (`true`, or an unknown symbol). */
const isWordEnd = (ch: string) =>
  isSpace(ch) || isBreak(ch) || STRUCTURAL.has(ch) || ch === '"' || ch === "/";

/** Tokens of JSONC: the current one's kind, offset and value; trivia skipped. */
class Lexer {
  kind: Kind = "eof";
  offset = 0;
  value: unknown = undefined;
  #pos = 0;

  constructor(readonly text: string) {}

  /** Whether the current token is of `kind`. */
  is(kind: Kind): boolean {
    return this.kind === kind;
  }

  fail(code: JsoncError["code"], offset = this.offset): never {
    throw new Failure({ code, offset });
  }

  /** Moves to the next token; a token the scanner cannot read is the first error. */
  next(): void {
    const text = this.text;
    for (;;) {
      let pos = this.#pos;
      while (pos < text.length && (isSpace(text[pos]) || isBreak(text[pos]))) pos++;
      this.offset = pos;
      this.value = undefined;
      if (pos >= text.length) {
        this.#pos = pos;
        this.kind = "eof";
        return;
      }
      const ch = text[pos];
      if (ch === "/" && (text[pos + 1] === "/" || text[pos + 1] === "*")) {
        this.#pos = this.#comment(pos);
        continue;
      }
      if (STRUCTURAL.has(ch)) {
        this.#pos = pos + 1;
        this.kind = ch as Kind;
        return;
      }
      if (ch === '"') return this.#string(pos);
      if (ch === "-" || isDigit(ch)) {
        if (ch === "-" && !isDigit(text[pos + 1] ?? "")) this.fail("InvalidSymbol");
        return this.#number(pos);
      }
      let end = pos + 1;
      if (ch !== "/") { while (end < text.length && !isWordEnd(text[end])) end++; }
      const word = text.slice(pos, end);
      if (word === "true" || word === "false" || word === "null") {
        this.#pos = end;
        this.kind = word;
        this.value = word === "null" ? null : word === "true";
        return;
      }
      this.fail("InvalidSymbol");
    }
  }

  /** Skips a comment at `pos`; returns the offset after it. */
  #comment(pos: number): number {
    const text = this.text;
    if (text[pos + 1] === "/") {
      let end = pos + 2;
      while (end < text.length && !isBreak(text[end])) end++;
      return end;
    }
    const close = text.indexOf("*/", pos + 2);
    if (close === -1) this.fail("UnexpectedEndOfComment", pos);
    return close + 2;
  }

  #string(start: number): void {
    const text = this.text;
    let pos = start + 1;
    let out = "";
    let chunk = pos;
    let error: JsoncError["code"] | undefined;
    for (;;) {
      if (pos >= text.length) {
        error = "UnexpectedEndOfString";
        break;
      }
      const ch = text[pos];
      if (ch === '"') {
        out += text.slice(chunk, pos);
        pos++;
        break;
      }
      if (ch === "\\") {
        out += text.slice(chunk, pos);
        pos++;
        if (pos >= text.length) {
          error = "UnexpectedEndOfString";
          break;
        }
        const escape = text[pos++];
        if (escape === "u") {
          const hex = /^[0-9a-fA-F]{0,4}/.exec(text.slice(pos, pos + 4))![0];
          pos += hex.length;
          if (hex.length === 4) out += String.fromCharCode(parseInt(hex, 16));
          else error = "InvalidUnicode";
        } else if (Object.hasOwn(ESCAPES, escape)) out += ESCAPES[escape];
        else error = "InvalidEscapeCharacter";
        chunk = pos;
        continue;
      }
      if (ch.charCodeAt(0) <= 0x1f) {
        if (isBreak(ch)) {
          error = "UnexpectedEndOfString";
          break;
        }
        error = "InvalidCharacter";
      }
      pos++;
    }
    // As in jsonc-parser, a string's last problem is the one reported.
    if (error !== undefined) this.fail(error, start);
    this.#pos = pos;
    this.kind = "string";
    this.value = out;
  }

  #number(start: number): void {
    const text = this.text;
    let pos = start;
    if (text[pos] === "-") pos++;
    if (text[pos] === "0") pos++;
    else while (pos < text.length && isDigit(text[pos])) pos++;
    if (text[pos] === ".") {
      pos++;
      if (!isDigit(text[pos] ?? "")) this.fail("UnexpectedEndOfNumber", start);
      while (pos < text.length && isDigit(text[pos])) pos++;
    }
    if (text[pos] === "e" || text[pos] === "E") {
      pos++;
      if (text[pos] === "+" || text[pos] === "-") pos++;
      if (!isDigit(text[pos] ?? "")) this.fail("UnexpectedEndOfNumber", start);
      while (pos < text.length && isDigit(text[pos])) pos++;
    }
    const value = Number(text.slice(start, pos));
    if (Number.isNaN(value)) this.fail("InvalidNumberFormat", start);
    this.#pos = pos;
    this.kind = "number";
    this.value = value;
  }
}

/** The node at a JSON path (the first property of a repeated key), if any. */
export function nodeAt(root: JsoncNode, path: (string | number)[]): JsoncNode | undefined {
  let node: JsoncNode | undefined = root;
  for (const segment of path) {
    if (typeof segment === "string") {
      if (node.type !== "object") return undefined;
      node = node.children!.find((p) => p.children![0].value === segment)?.children?.[1];
    } else {
      if (node.type !== "array" || segment < 0) return undefined;
      node = node.children![segment];
    }
    if (node === undefined) return undefined;
  }
  return node;
}
