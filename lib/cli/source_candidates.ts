/**
 * The completions of a source word (`jn __complete source WORD`):
 * `@profiles`, `@server/tools`, or the launchers' URI prefixes (their
 * descriptors', lib/launch/registry.ts). Light on purpose (no npm package,
 * no `node:` module): a shell asks on every Tab.
 *
 * @module
 */

import { launcherCompletions } from "../launch/registry.ts";
import { profileNames, profileToolNames } from "../client/profile_names.ts";

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
  return [...launcherCompletions().filter((scheme) => scheme.startsWith(word)), ...profiles];
}
