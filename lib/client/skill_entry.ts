/**
 * A skill entry of SEP-2640 (`skills/list`, `skills/get`), checked before
 * anything of the skill is read: everything in it comes from the server and
 * is untrusted, and its file URIs become paths on the user's disk.
 *
 * Guarantees of a {@linkcode SkillEntry}: `uri` ends in `/SKILL.md` and its
 * last skill-path segment is `frontmatter.name`, which satisfies the Agent
 * Skills naming rules (so it is safe as a directory name); a manifest
 * (`resources` array) is complete (it lists SKILL.md), lists each file once,
 * keeps every file inside the skill's directory, carries `sha256:` digests
 * and byte sizes, stays within the extension's limits (512 files, 16 MiB),
 * and maps each file to a relative path of plain segments — no `..`, `.`,
 * empty segment, separator, NUL or control character after percent-decoding
 * — no two files to the same path, and no file where another needs a
 * directory.
 *
 * @module
 */

import { SkillVerificationError } from "../errors.ts";

/** The extension's identifier (capabilities.extensions). */
export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";

/** The per-skill limits every host must support (and jn does not exceed). */
export const SKILL_LIMITS = { files: 512, bytes: 16 * 1024 * 1024 } as const;

/** One file of a skill's manifest. */
export interface SkillFile {
  /** Its resource URI. */
  uri: string;
  /** `sha256:` and 64 lowercase hex digits. */
  digest: string;
  /** Its length in bytes. */
  size: number;
  /** Its path inside the skill's directory, as plain segments (`["references", "FORMS.md"]`). */
  path: string[];
}

/** A checked skill entry. */
export interface SkillEntry {
  /** The URI of its SKILL.md. */
  uri: string;
  /** Its name (`frontmatter.name`, the URI's last skill-path segment). */
  name: string;
  /** Its skill path (`acme/billing/refunds`). */
  skillPath: string;
  /** SKILL.md's frontmatter as the entry gives it. */
  frontmatter: Record<string, unknown>;
  /** Its files, SKILL.md first; `"dynamic"` when the server publishes no digests. */
  files: SkillFile[] | "dynamic";
  /** The entry as the server sent it. */
  raw: Record<string, unknown>;
}

/** The Agent Skills naming rules: 1–64 of a-z, 0-9 and `-`, no leading, trailing or double `-`. */
const NAME = /^(?!.*--)[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
const DIGEST = /^sha256:[0-9a-f]{64}$/;
const SKILL_MD = "/SKILL.md";
// deno-lint-ignore no-control-regex
const UNSAFE_SEGMENT = /[\x00-\x1f\x7f-\x9f/\\]/;

/** The checked entry, or a SkillVerificationError (check `entry`, `path` or `limit`) saying why not. */
export function checkSkillEntry(value: unknown): SkillEntry {
  const raw = isObject(value) ? value : {};
  const uri = typeof raw.uri === "string" ? raw.uri : "";
  const fail = (check: "entry" | "path" | "limit", what: string, file = uri): never => {
    throw new SkillVerificationError(`Skill ${uri ? `"${uri}"` : "entry"} ${what}`, {
      skill: uri,
      file,
      check,
    }, { hint: "the server's skill entry breaks SEP-2640: jn used none of it" });
  };
  if (!isObject(value)) fail("entry", "is not an object");
  if (!uri.endsWith(SKILL_MD)) fail("entry", "has no uri ending in /SKILL.md");
  const frontmatter = raw.frontmatter;
  if (!isObject(frontmatter)) return fail("entry", "has no frontmatter object");
  const name = frontmatter.name;
  if (typeof name !== "string" || name === "") return fail("entry", "has no frontmatter.name");
  if (typeof frontmatter.description !== "string" || frontmatter.description === "") {
    fail("entry", "has no frontmatter.description");
  }
  const root = uri.slice(0, -SKILL_MD.length);
  const scheme = root.indexOf("://");
  const skillPath = scheme < 0 ? "" : root.slice(scheme + 3);
  if (skillPath.split("/").pop() !== name) {
    fail("entry", `ends in a segment other than its name "${name}"`);
  }
  if (!NAME.test(name)) fail("entry", `has a name that breaks the naming rules: "${name}"`);
  const resources = raw.resources;
  if (resources === "dynamic") {
    return { uri, name, skillPath, frontmatter, files: "dynamic", raw };
  }
  if (!Array.isArray(resources)) return fail("entry", 'has no resources (an array or "dynamic")');
  if (resources.length > SKILL_LIMITS.files) {
    fail("limit", `lists ${resources.length} files (jn takes at most ${SKILL_LIMITS.files})`);
  }
  const files: SkillFile[] = [];
  const paths = new Map<string, string>();
  let total = 0;
  for (const item of resources) {
    const file = isObject(item) ? item : {};
    const fileUri = typeof file.uri === "string" ? file.uri : "";
    if (fileUri === "") fail("entry", "lists a file without a uri");
    if (typeof file.digest !== "string" || !DIGEST.test(file.digest)) {
      fail("entry", `gives ${fileUri} no sha256:{64 hex} digest`, fileUri);
    }
    const size = file.size;
    if (typeof size !== "number" || !Number.isSafeInteger(size) || size < 0) {
      return fail("entry", `gives ${fileUri} no byte size`, fileUri);
    }
    total += size;
    if (fileUri !== uri && !fileUri.startsWith(`${root}/`)) {
      fail("path", `lists ${fileUri}, outside the skill's directory`, fileUri);
    }
    const path = fileUri.slice(root.length + 1).split("/").map((segment) =>
      safeSegment(segment) ?? fail("path", `lists a file with an unsafe path: ${fileUri}`, fileUri)
    );
    const key = path.join("/");
    if (paths.has(key)) fail("path", `lists ${key} twice (${paths.get(key)}, ${fileUri})`, fileUri);
    paths.set(key, fileUri);
    files.push({ uri: fileUri, digest: file.digest as string, size, path });
  }
  for (const key of paths.keys()) {
    const parts = key.split("/");
    for (let i = 1; i < parts.length; i++) {
      const parent = parts.slice(0, i).join("/");
      if (paths.has(parent)) fail("path", `lists ${parent} both as a file and a directory`);
    }
  }
  if (total > SKILL_LIMITS.bytes) {
    fail("limit", `is ${total} bytes (jn takes at most ${SKILL_LIMITS.bytes})`);
  }
  const own = files.findIndex((file) => file.uri === uri);
  if (own < 0) fail("entry", "does not list its own SKILL.md among its resources");
  files.unshift(...files.splice(own, 1));
  return { uri, name, skillPath, frontmatter, files, raw };
}

/** A URI path segment as a file name, percent-decoded, or undefined when it is not a plain name. */
function safeSegment(segment: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return undefined;
  }
  if (decoded === "" || decoded === "." || decoded === "..") return undefined;
  if (UNSAFE_SEGMENT.test(decoded) || /[?#]/.test(decoded)) return undefined;
  if (new TextEncoder().encode(decoded).length > 255) return undefined;
  return decoded;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
