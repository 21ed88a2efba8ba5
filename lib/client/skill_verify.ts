/**
 * SEP-2640's verification on read, host side: a file read for a skill is
 * used only when its bytes are exactly what the entry describes — the
 * length first (a size mismatch fails whether or not a digest is computed),
 * then the SHA-256 digest of the raw bytes — and a SKILL.md only when its
 * YAML frontmatter equals the entry's `frontmatter` field by field (an
 * absent field and `null` are the same, as in the conformance suite).
 *
 * Frontmatter is parsed with the YAML 1.2 core schema (js-yaml): no custom
 * tags, no timestamps turned into dates, a duplicated key is an error. An
 * alias may make a small document expand to a huge value: comparison stops
 * with a mismatch past {@linkcode MAX_FRONTMATTER_CHARS} of canonical JSON.
 *
 * @module
 */

import { CORE_SCHEMA, load } from "js-yaml";
import { SkillVerificationError } from "../errors.ts";
import { digestHex } from "../text/digest.ts";
import type { ResourceContents } from "../types.ts";
import type { SkillEntry, SkillFile } from "./skill_entry.ts";

/** How long the canonical JSON of a frontmatter may grow before it counts as a mismatch. */
export const MAX_FRONTMATTER_CHARS = 1024 * 1024;

const HINT = "jn used and wrote none of the skill: the server's content differs from its listing " +
  "(changed since, or tampered with)";

/** The bytes of `file` from what `resources/read` returned, verified; throws SkillVerificationError. */
export async function verifiedBytes(
  entry: SkillEntry,
  file: SkillFile,
  contents: ResourceContents[],
): Promise<Uint8Array> {
  const fail = (check: "content" | "size" | "digest", what: string): never => {
    throw new SkillVerificationError(`Skill "${entry.name}": ${file.uri} ${what}`, {
      skill: entry.uri,
      file: file.uri,
      check,
    }, { hint: HINT });
  };
  const item = contents.find((content) => content.uri === file.uri) ??
    (contents.length === 1 ? contents[0] : undefined);
  if (item === undefined) return fail("content", "was not in the server's answer");
  const bytes = rawBytes(item) ?? fail("content", "has neither text nor base64 blob content");
  if (bytes.length !== file.size) {
    fail("size", `is ${bytes.length} bytes, the listing says ${file.size}`);
  }
  const digest = await sha256(bytes);
  if (digest !== file.digest) {
    fail("digest", `has digest ${digest}, the listing says ${file.digest}`);
  }
  return bytes;
}

/** Throws SkillVerificationError when SKILL.md's frontmatter differs from the entry's. */
export function checkFrontmatter(entry: SkillEntry, bytes: Uint8Array): void {
  const fail = (what: string): never => {
    throw new SkillVerificationError(`Skill "${entry.name}": ${entry.uri} ${what}`, {
      skill: entry.uri,
      file: entry.uri,
      check: "frontmatter",
    }, { hint: HINT });
  };
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return fail("is not UTF-8 text");
  }
  const block = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!block) return fail("has no --- delimited YAML frontmatter");
  let parsed: unknown;
  try {
    parsed = load(block[1], { schema: CORE_SCHEMA });
  } catch (error) {
    return fail(`has frontmatter that is not valid YAML (${firstLine(error)})`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return fail("has frontmatter that is not a mapping");
  }
  const file = parsed as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(file), ...Object.keys(entry.frontmatter)])].sort();
  for (const key of keys) {
    const ours = canonical(file[key] ?? null);
    const theirs = canonical(entry.frontmatter[key] ?? null);
    if (ours === undefined || theirs === undefined) {
      return fail("has frontmatter too large to compare");
    }
    if (ours !== theirs) {
      fail(`has frontmatter field "${key}" = ${clip(ours)}, the listing says ${clip(theirs)}`);
    }
  }
}

/** `sha256:` and the lowercase hex digest of `bytes`. */
export async function sha256(bytes: Uint8Array): Promise<string> {
  return `sha256:${await digestHex(bytes)}`;
}

/** A content item's raw bytes: its text as UTF-8, or its blob decoded; undefined if neither. */
function rawBytes(item: ResourceContents): Uint8Array | undefined {
  if (typeof item.text === "string") return new TextEncoder().encode(item.text);
  if (typeof item.blob !== "string") return undefined;
  try {
    return Uint8Array.from(atob(item.blob), (char) => char.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/** JSON with sorted keys, or undefined past {@linkcode MAX_FRONTMATTER_CHARS}. */
function canonical(value: unknown): string | undefined {
  let length = 0;
  const walk = (node: unknown): string => {
    let out: string;
    if (Array.isArray(node)) out = `[${node.map(walk).join(",")}]`;
    else if (node !== null && typeof node === "object") {
      const record = node as Record<string, unknown>;
      out = `{${
        Object.keys(record).sort().map((key) => `${JSON.stringify(key)}:${walk(record[key])}`)
          .join(",")
      }}`;
    } else out = JSON.stringify(node) ?? "null";
    length += out.length;
    if (length > MAX_FRONTMATTER_CHARS) throw new RangeError("too large");
    return out;
  };
  try {
    return walk(value);
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

function firstLine(error: unknown): string {
  return String((error as Error)?.message ?? error).split("\n")[0];
}
