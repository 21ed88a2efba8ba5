/**
 * One line of text per record of the agents' commands, for a person at a
 * terminal (a pipe gets the NDJSON records): a `grep` match or error, a
 * skill of a listing, a file of a fetched skill. Every string in them comes
 * from a server or a profile: each line goes through {@linkcode visible} on
 * one line before jn's colours are added.
 *
 *   @demo tool add (description): Adds a and b.
 *   pdf-processing  4 files, 269 bytes — Extract, fill, and assemble PDF documents
 *   references/FORMS.md  27 bytes  → /home/me/skills/pdf-processing/references/FORMS.md
 *
 * @module
 */

import { firstSentence } from "./brief.ts";
import type { Style } from "./style.ts";
import { visible } from "./visible.ts";

/** The fields of a `grep` record this module shows (`match` or `error`). */
export interface GrepLineRecord {
  type: string;
  source: string;
  kind?: string;
  name?: string;
  field?: string;
  text?: string;
  error?: string;
}

/** The fields of a `skill` record this module shows. */
export interface SkillLineRecord {
  name: string;
  description: string;
  uri: string;
  files?: number;
  bytes?: number;
  problem?: string;
}

/** The fields of a `skill_file` record this module shows. */
export interface SkillFileLineRecord {
  path: string;
  size: number;
  file?: string;
}

const line = (text: string) => visible(text, { oneLine: true });

/** `@demo tool add (description): Adds a and b.`, or `@x: error: why`. */
export function grepLine(record: GrepLineRecord, s: Style): string {
  if (record.type === "error") {
    return `${line(record.source)}: ${s.red("error:")} ${line(record.error ?? "")}`;
  }
  return `${line(record.source)} ${s.dim(line(record.kind ?? ""))} ${
    s.cyan(line(record.name ?? ""))
  } ${s.dim(`(${line(record.field ?? "")})`)}: ${line(record.text ?? "")}`;
}

/** `name  N files, B bytes — first sentence` (or the problem that stops a fetch). */
export function skillLine(record: SkillLineRecord, s: Style): string {
  const size = record.files === undefined
    ? ""
    : `  ${s.dim(`${record.files} files, ${record.bytes ?? 0} bytes`)}`;
  const problem = record.problem ? `  ${s.yellow(`(${line(record.problem)})`)}` : "";
  const about = firstSentence(record.description);
  return `${s.cyan(line(record.name || record.uri))}${size}${
    about ? ` — ${line(about)}` : ""
  }${problem}`;
}

/** `path  N bytes  → where it was written`. */
export function skillFileLine(record: SkillFileLineRecord, s: Style): string {
  const where = record.file ? `  → ${line(record.file)}` : "";
  return `${s.cyan(line(record.path))}  ${s.dim(`${record.size} bytes`)}${where}`;
}
