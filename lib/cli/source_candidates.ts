/**
 * The completions of a source word (`jn __complete source WORD`):
 * `@profiles`, `@server/tools`, or the URI schemes. Light on purpose (no
 * commander, no SDK): `main.ts` answers a shell's completion request with
 * it before the CLI loads.
 *
 * @module
 */

import { profileNames, profileToolNames } from "./profile_names.ts";

/** The source schemes offered for an empty word. */
const SOURCE_SCHEMES = [
  "mcp+uvx://",
  "mcp+npx://",
  "mcp+python://",
  "mcp+node://",
  "mcp+deno://",
  "mcp+https://",
  "mcp+http://",
];

/** Completions of a source word: `@profiles`, `@server/tools`, or schemes. */
export async function sourceCandidates(
  word: string,
  options: { cwd: string; env: Record<string, string> },
): Promise<string[]> {
  if (word.startsWith("@")) {
    const slash = word.indexOf("/");
    if (slash === -1) return (await profileNames(options)).map((name) => `@${name}`);
    const server = word.slice(1, slash);
    return (await profileToolNames(server, options)).map((tool) => `@${server}/${tool}`);
  }
  if (word.includes("://")) return [];
  const profiles = word === "" ? (await profileNames(options)).map((name) => `@${name}`) : [];
  return [...SOURCE_SCHEMES.filter((scheme) => scheme.startsWith(word)), ...profiles];
}
