/**
 * The names a host sees when one server serves several sources: each tool
 * and prompt is `SOURCE__NAME` (docs/serve.md, "Namespacing").
 *
 * Why `__`: hosts pass tool names to model APIs that accept at most 64
 * characters of `[a-zA-Z0-9_-]` (Anthropic, OpenAI; VS Code and Cursor warn
 * or drop tools past that), so the separator has to be made of those
 * characters, and names use both `_` and `-` on their own; a doubled
 * underscore is what MetaMCP and Claude Code's own `mcp__server__tool`
 * use. A source's namespace never contains `_`, so the first `__` of a
 * name always ends the namespace.
 *
 * Guarantees, each a pure function of its inputs (not of the order tools
 * are listed in): with one source, names are unchanged; a namespaced name
 * that fits is `SOURCE__NAME` exactly; one that does not fit (over the
 * limit, or characters outside the set) is cut and ends in `_` and six hex
 * digits of a hash of the server's own name, so two long names that share
 * their beginning still differ. The proxy keeps a table from each offered
 * name to the server's, so nothing is ever parsed back.
 *
 * @module
 */

/** Between a source's namespace and a tool's or prompt's name. */
export const SEPARATOR = "__";

/** The longest name offered by default (the limit of the common model APIs). */
export const MAX_NAME_LENGTH = 64;

/** The longest namespace of a source. */
const MAX_ALIAS_LENGTH = 24;

const SAFE_NAME = /^[A-Za-z0-9_-]+$/;

/**
 * A namespace for a source: a profile's name, or what a naked URI names
 * (a package without its scope and version, a script without its
 * extension, a host), in `[A-Za-z0-9-]`.
 */
export function sourceAlias(source: string): string {
  let text = source.trim();
  if (text.startsWith("@")) text = text.slice(1).split(/[/?]/)[0];
  else {
    const match = /^mcp\+([a-z]+):\/\/([^?#]*)/i.exec(text);
    const launcher = match?.[1]?.toLowerCase();
    const location = match?.[2] ?? text;
    if (launcher === "http" || launcher === "https") {
      text = location.split("/")[0].split(":")[0];
    } else {
      const unversioned = location.replace(/(?!^)@[^/]*$/, "");
      const segments = unversioned.split("/").filter((part) => part !== "" && part !== ".");
      text = (segments.at(-1) ?? "").replace(/\.(m?[jt]s|py|cjs)$/i, "");
    }
  }
  const alias = text.replace(/[^A-Za-z0-9-]+/g, "-").replace(/-{2,}/g, "-")
    .replace(/^-+|-+$/g, "").slice(0, MAX_ALIAS_LENGTH).replace(/-+$/, "");
  return alias === "" ? "server" : alias;
}

/** Namespaces for sources, in order: each distinct (a repeated one gets `-2`, `-3`, …). */
export function uniqueAliases(aliases: readonly string[]): string[] {
  const used = new Set<string>();
  return aliases.map((alias) => {
    let candidate = alias;
    for (let n = 2; used.has(candidate); n++) {
      candidate = `${alias.slice(0, MAX_ALIAS_LENGTH - String(n).length - 1)}-${n}`;
    }
    used.add(candidate);
    return candidate;
  });
}

/** The name a host sees for a server's tool or prompt `name` of the source `alias`. */
export function offeredName(
  alias: string,
  name: string,
  options: { namespaced: boolean; maxLength?: number },
): string {
  if (!options.namespaced) return name;
  const max = options.maxLength ?? MAX_NAME_LENGTH;
  const plain = `${alias}${SEPARATOR}${name}`;
  if (plain.length <= max && SAFE_NAME.test(plain)) return plain;
  const suffix = `_${fnv1a(name).slice(0, 6)}`;
  const safe = `${alias}${SEPARATOR}${name.replace(/[^A-Za-z0-9_-]/g, "_")}`;
  return `${
    safe.slice(0, Math.max(alias.length + SEPARATOR.length, max - suffix.length))
  }${suffix}`;
}

/** The 32-bit FNV-1a hash of a string's UTF-16 code units, as 8 hex digits. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}
