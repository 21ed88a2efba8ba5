/**
 * Skills (SEP-2640, the `io.modelcontextprotocol/skills` extension): list a
 * server's skills, and fetch one, verified, into a directory.
 *
 * Guarantees:
 * - nothing is read ahead of need: connecting and listing read no file; a
 *   skill's files are read only by {@linkcode fetchSkill}, SKILL.md first;
 * - `skills/list` and `skills/get` are sent only to a server that declares
 *   the extension;
 * - every file is checked against the entry (size, then SHA-256 digest) and
 *   SKILL.md's frontmatter against the entry's, each as soon as it is read:
 *   on the first mismatch no further file is read and nothing is written or
 *   returned (a SkillVerificationError, exit 5, naming the file);
 * - an entry that breaks the extension's rules (a file outside the skill, a
 *   path that would leave the directory, over the limits) is refused before
 *   any file is read; a `"dynamic"` skill (no digests) is refused: jn fetches
 *   only what it can verify;
 * - files land in `outDir/<name>/` by skill_files.ts's rules (no symlink
 *   followed, nothing outside the directory, nothing executable).
 *
 * @module
 */

import { UsageError } from "../errors.ts";
import { SkillVerificationError } from "../errors.ts";
import { redactDeep } from "../output/redact.ts";
import type { Connection } from "./connection.ts";
import { checkSkillEntry, type SkillEntry, SKILLS_EXTENSION } from "./skill_entry.ts";
import { writeSkill } from "./skill_files.ts";
import { checkFrontmatter, verifiedBytes } from "./skill_verify.ts";

/** At most this many `skills/list` pages (a server that never stops paging is cut off). */
const MAX_PAGES = 1000;

/** One skill of a listing: `{"type":"skill", "name", "description", "uri", …}`. */
export interface SkillRecord {
  /** Always `"skill"`. */
  type: "skill";
  /** `frontmatter.name`. */
  name: string;
  /** `frontmatter.description`. */
  description: string;
  /** The URI of its SKILL.md. */
  uri: string;
  /** Its files (`resources` as listed); absent for a `"dynamic"` skill. */
  files?: number;
  /** The sum of its files' sizes; absent for a `"dynamic"` skill. */
  bytes?: number;
  /** Why jn would refuse to fetch it, when it would. */
  problem?: string;
  /** Every field of the entry as the server sent it (`frontmatter`, `resources`, …). */
  [key: string]: unknown;
}

/** One file of a fetched skill: `{"type":"skill_file", "skill", "uri", "path", "size", "digest", …}`. */
export interface SkillFileRecord {
  /** Always `"skill_file"`. */
  type: "skill_file";
  /** The skill's name. */
  skill: string;
  /** The file's resource URI. */
  uri: string;
  /** Its path inside the skill's directory (`references/FORMS.md`). */
  path: string;
  /** Its length in bytes (verified). */
  size: number;
  /** Its `sha256:` digest (verified). */
  digest: string;
  /** Where it was written (with `outDir`). */
  file?: string;
  /** Its content, UTF-8 text (without `outDir`). */
  text?: string;
  /** Its content in base64, when it is not UTF-8 text (without `outDir`). */
  blob?: string;
}

/** A fetched, verified skill. */
export interface FetchedSkill {
  /** Its name. */
  name: string;
  /** The URI of its SKILL.md. */
  uri: string;
  /** `outDir/<name>`, when written. */
  dir?: string;
  /** Its files, SKILL.md first. */
  files: SkillFileRecord[];
}

/** Options of {@linkcode fetchSkill}. */
export interface FetchSkillOptions {
  /** Write the skill to `outDir/<name>/` (else the records carry the content). */
  outDir?: string;
  /** Replace an existing `outDir/<name>` directory (never a symlink). */
  replace?: boolean;
}

/** Whether the server of `conn` declares the skills extension. */
export function offersSkills(conn: Connection): boolean {
  const extensions = conn.session.server.capabilities.extensions;
  return typeof extensions === "object" && extensions !== null &&
    (extensions as Record<string, unknown>)[SKILLS_EXTENSION] !== undefined;
}

/**
 * The server's skills, every page of `skills/list`, as records (none when it
 * does not declare the extension). Reads no skill file.
 *
 * @example
 * ```ts ignore
 * import { listSkills, open } from "@jn/jn";
 *
 * await using conn = await open("mcp+node://./skills_server.mjs", { cwd: Deno.cwd(), env: {} });
 * for (const skill of await listSkills(conn)) console.log(skill.name, skill.description);
 * ```
 */
export async function listSkills(conn: Connection): Promise<SkillRecord[]> {
  if (!offersSkills(conn)) return [];
  const records: SkillRecord[] = [];
  try {
    for (const entry of await allEntries(conn)) records.push(skillRecord(entry));
  } catch (error) {
    throw conn.explain(error);
  }
  return redactDeep(records, conn.secrets);
}

/**
 * Reads one skill's files, verifies each against the skill's entry, and
 * returns them — written to `outDir/<name>/` when given. `skill` is its name
 * (or skill path, `acme/billing/refunds`) in the listing, or its SKILL.md URI
 * (then `skills/get` gives the entry: a skill need not be listed).
 *
 * @example
 * ```ts ignore
 * import { fetchSkill, open } from "@jn/jn";
 *
 * await using conn = await open("mcp+node://./skills_server.mjs", { cwd: Deno.cwd(), env: {} });
 * const skill = await fetchSkill(conn, "pdf-processing", { outDir: ".claude/skills" });
 * console.log(skill.dir); // …/.claude/skills/pdf-processing
 * ```
 */
export async function fetchSkill(
  conn: Connection,
  skill: string,
  options: FetchSkillOptions = {},
): Promise<FetchedSkill> {
  try {
    if (!offersSkills(conn)) {
      throw new UsageError(`The server "${conn.session.label}" offers no skills`, {
        hint: `it does not declare the ${SKILLS_EXTENSION} extension`,
      });
    }
    const entry = checkSkillEntry(await findEntry(conn, skill));
    if (entry.files === "dynamic") {
      throw new SkillVerificationError(
        `Skill "${entry.name}" publishes no digests ("resources": "dynamic"): jn fetches only skills it can verify`,
        { skill: entry.uri, file: entry.uri, check: "dynamic" },
        { hint: `read its SKILL.md as a resource: jn cat "SOURCE?resource=${entry.uri}"` },
      );
    }
    const verified: { path: string[]; bytes: Uint8Array; record: SkillFileRecord }[] = [];
    for (const file of entry.files) {
      const bytes = await verifiedBytes(entry, file, await conn.session.readResource(file.uri));
      if (file.uri === entry.uri) checkFrontmatter(entry, bytes);
      const record: SkillFileRecord = {
        type: "skill_file",
        skill: entry.name,
        uri: file.uri,
        path: file.path.join("/"),
        size: file.size,
        digest: file.digest,
      };
      verified.push({ path: file.path, bytes, record });
    }
    if (options.outDir === undefined) {
      for (const { bytes, record } of verified) Object.assign(record, content(bytes));
      return { name: entry.name, uri: entry.uri, files: verified.map((file) => file.record) };
    }
    const written = await writeSkill(options.outDir, entry.name, verified, options);
    verified.forEach((file, i) => file.record.file = written.paths[i]);
    return {
      name: entry.name,
      uri: entry.uri,
      dir: written.dir,
      files: verified.map((file) => file.record),
    };
  } catch (error) {
    throw conn.explain(error);
  }
}

/** The entry `skill` names: by URI through `skills/get`, by name or skill path in the listing. */
async function findEntry(conn: Connection, skill: string): Promise<unknown> {
  if (skill.includes("://")) return await conn.session.skills.get(skill);
  const entries = await allEntries(conn);
  const matches = entries.filter((entry) => {
    const { name, uri } = skillRecord(entry);
    return name === skill || uri.replace(/^[^:]*:\/\//, "").replace(/\/SKILL\.md$/, "") === skill;
  });
  if (matches.length === 1) return matches[0];
  if (matches.length === 0) {
    throw new UsageError(`The server "${conn.session.label}" lists no skill named "${skill}"`, {
      hint: "list them with jn skills SOURCE, or give the skill's SKILL.md URI",
    });
  }
  const uris = matches.map((entry) => skillRecord(entry).uri).join(", ");
  throw new UsageError(`${matches.length} skills are named "${skill}": ${uris}`, {
    hint: "give the one you mean by its URI",
  });
}

/** Every entry of `skills/list`, page after page. */
async function allEntries(conn: Connection): Promise<unknown[]> {
  const entries: unknown[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await conn.session.skills.list(cursor);
    entries.push(...result.skills);
    cursor = result.nextCursor;
    if (cursor === undefined) return entries;
    if (seen.has(cursor)) break;
    seen.add(cursor);
  }
  throw new SkillVerificationError(
    `The server "${conn.session.label}" never ended its skills/list pages`,
    { skill: "", file: "", check: "entry" },
  );
}

/** The fields of a skill record that are jn's (the entry's `uri` is the same value). */
const OWN_FIELDS = new Set(["type", "name", "description", "uri", "files", "bytes", "problem"]);

/** The record of one listed entry, valid or not. */
function skillRecord(value: unknown): SkillRecord {
  const raw = typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Record<string, unknown>
    : {};
  const frontmatter =
    (typeof raw.frontmatter === "object" && raw.frontmatter !== null
      ? raw.frontmatter
      : {}) as Record<string, unknown>;
  const record: SkillRecord = {
    type: "skill",
    name: String(frontmatter.name ?? ""),
    description: String(frontmatter.description ?? ""),
    uri: String(raw.uri ?? ""),
  };
  let entry: SkillEntry | undefined;
  try {
    entry = checkSkillEntry(value);
  } catch (error) {
    record.problem = (error as Error).message;
  }
  if (entry && entry.files !== "dynamic") {
    record.files = entry.files.length;
    record.bytes = entry.files.reduce((sum, file) => sum + file.size, 0);
  }
  if (entry?.files === "dynamic") record.problem = 'publishes no digests ("resources": "dynamic")';
  // Every field of the entry, after jn's own (which a server's field of the same name cannot replace).
  for (const [key, item] of Object.entries(raw)) if (!OWN_FIELDS.has(key)) record[key] = item;
  return record;
}

/** A file's content for a record: UTF-8 text, or base64. */
function content(bytes: Uint8Array): { text: string } | { blob: string } {
  try {
    return { text: new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes) };
  } catch {
    let binary = "";
    for (let i = 0; i < bytes.length; i += 0x8000) {
      binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    }
    return { blob: btoa(binary) };
  }
}
