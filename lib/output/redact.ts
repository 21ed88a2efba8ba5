/**
 * Redaction of secrets (values substituted from the environment, tokens and
 * credential headers) in anything jn prints: messages, `profile info`,
 * `profile validate|diff`, `inspect`, server logs and stderr, the `--debug`
 * protocol log.
 *
 * Guarantees (docs/output.md):
 * - every occurrence of a secret is replaced by `***`, in the forms a secret
 *   takes on its way through a program: as it is, JSON-escaped
 *   (`JSON.stringify(v)` without the quotes), URL-encoded
 *   (`encodeURIComponent`, with upper- or lower-case hex, `+` for spaces),
 *   and base64 (standard and URL-safe alphabets) at any offset, so it is
 *   found inside the base64 of `user:secret` (HTTP Basic auth) or
 *   `secret:rest`; for base64 the characters that also depend on the bytes
 *   around the secret are kept (they reveal at most a few bits of its edges);
 * - values shorter than {@linkcode MIN_SECRET_LENGTH} characters are not
 *   redacted: hiding `1` or `on` everywhere would shred unrelated text and
 *   protect nothing (`--debug` says when a value was too short);
 * - longer forms win over shorter ones, and the result never contains a
 *   partial form of a secret that was redacted.
 *
 * Tool results, resource contents and prompt messages on stdout are data and
 * are not redacted (see docs/output.md).
 *
 * @module
 */

/** The text printed in place of a secret. */
export const REDACTED = "***";

/** Values shorter than this are not redacted. */
export const MIN_SECRET_LENGTH = 4;

/**
 * Replaces every form of every secret with `***`.
 *
 * @example
 * ```ts
 * redact('token "s3cr3t" in %22s3cr3t%22', ["s3cr3t"]); // 'token "***" in %22***%22'
 * ```
 */
export function redact(text: string, secrets: readonly string[]): string {
  if (secrets.length === 0 || text === "") return text;
  const pattern = compiled(secrets);
  return pattern === undefined ? text : text.replace(pattern, REDACTED);
}

/** A JSON-like value with every string (keys too) redacted; the input is not changed. */
export function redactDeep<T>(value: T, secrets: readonly string[]): T {
  if (compiled(secrets) === undefined) return value;
  const walk = (node: unknown): unknown => {
    if (typeof node === "string") return redact(node, secrets);
    if (Array.isArray(node)) return node.map(walk);
    if (node !== null && typeof node === "object") {
      return Object.fromEntries(
        Object.entries(node).map(([key, item]) => [redact(key, secrets), walk(item)]),
      );
    }
    return node;
  };
  return walk(value) as T;
}

/** The secrets too short to be redacted (for a `--debug` note). */
export function unredactable(secrets: readonly string[]): string[] {
  return secrets.filter((secret) => secret.length < MIN_SECRET_LENGTH);
}

/** Every printable form of one secret, longest first, none shorter than the minimum. */
export function secretForms(secret: string): string[] {
  if (secret.length < MIN_SECRET_LENGTH) return [];
  const url = encodeURIComponent(secret);
  const forms = [
    secret,
    JSON.stringify(secret).slice(1, -1),
    url,
    url.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
    url.replaceAll("%20", "+"),
    ...WHATWG_SETS.map((set) => percentEncode(secret, set)),
    ...base64Cores(secret),
  ];
  return [...new Set(forms)]
    .filter((form) => form.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);
}

/**
 * The WHATWG URL percent-encode sets beyond C0 controls and non-ASCII: how
 * `new URL(…).href` writes a secret in a fragment, a query, a special URL's
 * query, a path and the user info (a space in a path becomes `%20`, a `'` in
 * a query stays, where encodeURIComponent differs).
 */
const FRAGMENT_SET = ` "<>\``;
const QUERY_SET = ` "#<>`;
const PATH_SET = `${QUERY_SET}?\`{}`;
const WHATWG_SETS = [
  FRAGMENT_SET,
  QUERY_SET,
  `${QUERY_SET}'`,
  PATH_SET,
  `${PATH_SET}/:;=@[\\]^|`,
];

/** The secret as the URL serializer writes it with `set` (plus C0, DEL and non-ASCII) encoded. */
function percentEncode(secret: string, set: string): string {
  let out = "";
  for (const char of secret) {
    const code = char.codePointAt(0) ?? 0;
    if (code > 0x20 && code < 0x7f && !set.includes(char)) {
      out += char;
      continue;
    }
    for (const byte of new TextEncoder().encode(char)) {
      out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
    }
  }
  return out;
}

/**
 * The base64 characters fully determined by the secret's bytes when they
 * start at offset 0, 1 or 2 of a 3-byte group: whatever precedes or follows
 * the secret, its base64 contains one of these.
 */
function base64Cores(secret: string): string[] {
  const bytes = new TextEncoder().encode(secret);
  const cores: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const padded = new Uint8Array(offset + bytes.length + 2);
    padded.set(bytes, offset);
    const encoded = btoa(String.fromCharCode(...padded));
    const start = Math.ceil((8 * offset) / 6);
    const end = Math.floor((8 * (offset + bytes.length)) / 6);
    const core = encoded.slice(start, end);
    cores.push(core, core.replaceAll("+", "-").replaceAll("/", "_"));
  }
  return cores;
}

let cache: { key: string; pattern: RegExp | undefined } | undefined;

/** One alternation of every form of every secret (cached for the last list). */
function compiled(secrets: readonly string[]): RegExp | undefined {
  const key = secrets.join("\0");
  if (cache?.key === key) return cache.pattern;
  const forms = [...new Set(secrets.flatMap(secretForms))].sort((a, b) => b.length - a.length);
  const pattern = forms.length === 0
    ? undefined
    : new RegExp(forms.map((form) => form.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&")).join("|"), "g");
  cache = { key, pattern };
  return pattern;
}
