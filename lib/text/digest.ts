/**
 * Digests through Web Crypto (`crypto.subtle`), which every Deno has built
 * in: no code of jn's, nothing of Node's compatibility layer to load. Every
 * SHA-2 digest of jn goes through here — profile fingerprints and trust
 * records, jn's sandbox caches, npx's cache directories, OAuth record names,
 * skill files; only the seed-compatible schema hash (MD5, which Web Crypto
 * lacks) uses `node:crypto` (lib/schema/hash.ts).
 *
 * @module
 */

/** The SHA-2 digests jn uses. */
export type DigestAlgorithm = "SHA-256" | "SHA-512";

/**
 * The digest of `data` (a string as UTF-8), as lowercase hex.
 *
 * @example
 * ```ts
 * await digestHex("abc");
 * // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
 * ```
 */
export async function digestHex(
  data: string | Uint8Array,
  algorithm: DigestAlgorithm = "SHA-256",
): Promise<string> {
  return hex(await digestBytes(data, algorithm));
}

/** The digest of `data` (a string as UTF-8), as bytes. */
export async function digestBytes(
  data: string | Uint8Array,
  algorithm: DigestAlgorithm = "SHA-256",
): Promise<Uint8Array> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  return new Uint8Array(await crypto.subtle.digest(algorithm, bytes as BufferSource));
}

/** Bytes as lowercase hex. */
export function hex(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes) out += byte.toString(16).padStart(2, "0");
  return out;
}
