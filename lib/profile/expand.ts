/**
 * `${VAR}` substitution in profile values (SPEC §4), over every string of a
 * JSON value, recursively (object keys are left alone):
 *
 * - `${VAR}` is the variable's value; unset is a `ConfigError` naming the
 *   variable and the file (line and column); set but empty is the empty string.
 * - `${VAR:-default}` is the value when set and non-empty, else `default`
 *   (which may itself contain `${…}`).
 * - `$${` is a literal `${`; a `$` anywhere else is just a `$` (`$VAR` is not
 *   substituted).
 *
 * Every non-empty value taken from the environment is a secret: it is
 * collected, and a second "display" copy of the value shows it as `***`.
 *
 * @module
 */

import { ConfigError } from "../errors.ts";
import { REDACTED } from "../output/redact.ts";

/** The result of {@linkcode expandValue}. */
export interface Expanded<T> {
  /** The value with every reference substituted. */
  value: T;
  /** The same, with the values that came from the environment shown as `***`. */
  display: T;
  /** The substituted environment values (non-empty), for redaction. */
  secrets: string[];
  /** Unset variables left as `${VAR}` (only with `unset: "keep"`). */
  missing: string[];
}

/** Options of {@linkcode expandValue}. */
export interface ExpandOptions {
  /** The variables (the caller's environment). */
  env: Record<string, string>;
  /** Where a JSON path of the value is (`file:line:col`), for messages. */
  where: (path: (string | number)[]) => string;
  /** The JSON path of the value inside its file (default: the root). */
  path?: (string | number)[];
  /**
   * An unset variable without default: a `ConfigError` (default), or kept as
   * `${VAR}` and listed in `missing` (for showing a profile, never for running it).
   */
  unset?: "error" | "keep";
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Substitutes every `${…}` in the strings of `value`.
 *
 * @example
 * expandValue({ args: ["--token", "${TOKEN}"] }, { env: { TOKEN: "s3cret" }, where: () => "f" });
 * // { value: { args: ["--token", "s3cret"] }, display: { args: ["--token", "***"] }, secrets: ["s3cret"] }
 */
export function expandValue<T>(value: T, options: ExpandOptions): Expanded<T> {
  const secrets = new Set<string>();
  const missing = new Set<string>();
  const walk = (node: unknown, path: (string | number)[]): [unknown, unknown] => {
    if (typeof node === "string") {
      const parts = expandString(node, { ...options, secrets, missing, path });
      return [parts.value, parts.display];
    }
    if (Array.isArray(node)) {
      const pairs = node.map((item, i) => walk(item, [...path, i]));
      return [pairs.map((p) => p[0]), pairs.map((p) => p[1])];
    }
    if (typeof node === "object" && node !== null) {
      const out: Record<string, unknown> = {};
      const shown: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(node)) {
        const [v, d] = walk(item, [...path, key]);
        define(out, key, v);
        define(shown, key, d);
      }
      return [out, shown];
    }
    return [node, node];
  };
  const [expanded, display] = walk(value, options.path ?? []);
  return {
    value: expanded as T,
    display: display as T,
    secrets: [...secrets],
    missing: [...missing],
  };
}

interface StringContext extends ExpandOptions {
  secrets: Set<string>;
  missing: Set<string>;
  path: (string | number)[];
}

function expandString(text: string, ctx: StringContext): { value: string; display: string } {
  let value = "";
  let display = "";
  let i = 0;
  while (i < text.length) {
    if (text.startsWith("$${", i)) {
      value += "${";
      display += "${";
      i += 3;
      continue;
    }
    if (!text.startsWith("${", i)) {
      value += text[i];
      display += text[i];
      i++;
      continue;
    }
    const end = closingBrace(text, i + 2);
    if (end === -1) {
      fail(
        ctx,
        `unterminated "\${" in ${JSON.stringify(text)}`,
        "close it with }, or write $${ for a literal ${",
      );
    }
    const body = text.slice(i + 2, end);
    const sep = body.indexOf(":-");
    const name = sep === -1 ? body : body.slice(0, sep);
    if (!NAME.test(name)) {
      fail(
        ctx,
        `invalid variable reference "\${${body}}"`,
        "write ${NAME} or ${NAME:-default}; $${ is a literal ${",
      );
    }
    const set = Object.hasOwn(ctx.env, name) ? ctx.env[name] : undefined;
    if (sep !== -1 && (set === undefined || set === "")) {
      const inner = expandString(body.slice(sep + 2), ctx);
      value += inner.value;
      display += inner.display;
    } else if (set === undefined && ctx.unset === "keep") {
      value += `\${${name}}`;
      display += `\${${name}}`;
      ctx.missing.add(name);
    } else if (set === undefined) {
      throw new ConfigError(`Variable "${name}" is not set (used in ${ctx.where(ctx.path)})`, {
        path: ctx.where(ctx.path).replace(/:\d+:\d+$/, ""),
        hint: `set it (export ${name}=…) or give a default in the profile: \${${name}:-value}`,
      });
    } else {
      value += set;
      display += set === "" ? "" : REDACTED;
      if (set !== "") ctx.secrets.add(set);
    }
    i = end + 1;
  }
  return { value, display };
}

/** Index of the `}` closing a `${` whose body starts at `from`, nested `${…}` skipped; -1 if none. */
function closingBrace(text: string, from: number): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    if (text.startsWith("${", i)) {
      depth++;
      i++;
    } else if (text[i] === "}") {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}

function fail(ctx: StringContext, message: string, hint: string): never {
  const where = ctx.where(ctx.path);
  throw new ConfigError(`Invalid profile ${where}: ${message}`, {
    path: where.replace(/:\d+:\d+$/, ""),
    hint,
  });
}

function define(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/** Escapes text so that substitution gives it back unchanged (`${` → `$${`). */
export function escapeVariables(text: string): string {
  return text.replaceAll("${", () => "$${");
}

/** The inverse of {@linkcode escapeVariables} (`$${` → `${`): the text substitution gives back. */
export function unescapeVariables(text: string): string {
  return text.replaceAll("$${", () => "${");
}

/** {@linkcode escapeVariables} over every string of a JSON value. */
export function escapeValue<T>(value: T): T {
  if (typeof value === "string") return escapeVariables(value) as T;
  if (Array.isArray(value)) return value.map(escapeValue) as T;
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) define(out, key, escapeValue(item));
    return out as T;
  }
  return value;
}
