/**
 * Real npm servers for the sandbox tests, installed once per machine outside
 * the repository (beside tests/remote/support.ts's server-everything):
 * `@modelcontextprotocol/server-filesystem` put into an npx cache under
 * `~/.cache/jn-tests/npx-home-<version>/.npm` by the same one-time fetch
 * jn's hint prints, so that both `mcp+npx://` (cached) and `mcp+node://`
 * (its `node_modules/…/dist/index.js`) can start it.
 *
 * @module
 */

import { npxHash } from "../../lib/sandbox/npx_cache.ts";

/** The server-filesystem release the tests pin. */
export const FILESYSTEM_VERSION = "2026.8.31";
/** Its npm spec, as the tests' `mcp+npx://` URIs name it. */
export const FILESYSTEM_SPEC = `@modelcontextprotocol/server-filesystem@${FILESYSTEM_VERSION}`;

/** server-filesystem in an npx cache. */
export interface NpxInstall {
  /** A HOME whose `.npm` holds the install (HOME decides the npm cache of the server). */
  home: string;
  /** The server's `dist/index.js` inside that cache's `_npx/<hash>/node_modules`. */
  script: string;
}

let filesystem: Promise<NpxInstall | undefined> | undefined;

/**
 * server-filesystem in a test-owned npx cache, fetched on first use (and
 * reused); `undefined`, saying why on stderr, when npm cannot fetch it.
 */
export function serverFilesystem(): Promise<NpxInstall | undefined> {
  filesystem ??= install();
  return filesystem;
}

async function install(): Promise<NpxInstall | undefined> {
  const base = `${Deno.env.get("HOME") ?? "/tmp"}/.cache/jn-tests`;
  const home = `${base}/npx-home-${FILESYSTEM_VERSION}`;
  const hash = await npxHash([FILESYSTEM_SPEC]);
  const script = (at: string) =>
    `${at}/.npm/_npx/${hash}/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js`;
  if (await exists(script(home))) return { home, script: script(home) };
  // Fetch beside it and rename: parallel test files never see a half-filled cache.
  const temp = `${home}.${crypto.randomUUID()}`;
  await Deno.mkdir(temp, { recursive: true });
  // The one-time fetch of jn's hint (lib/sandbox/launcher_state.ts npxFetchCommand).
  const output = await new Deno.Command("npm", {
    args: [
      "exec",
      "--yes",
      "--ignore-scripts",
      "--script-shell=/bin/sh",
      "--cache",
      `${temp}/.npm`,
      `--package=${FILESYSTEM_SPEC}`,
      "--",
      "/bin/true",
    ],
    cwd: temp,
    env: { HOME: temp },
    stdout: "null",
    stderr: "piped",
  }).output().catch((error) => ({
    success: false,
    stderr: new TextEncoder().encode(String(error)),
  }));
  if (!output.success || !(await exists(script(temp)))) {
    await Deno.remove(temp, { recursive: true }).catch(() => {});
    // deno-lint-ignore no-console
    console.error(
      `SKIPPED the npm server tests: npm could not fetch ${FILESYSTEM_SPEC} (needs the npm registry): ${
        new TextDecoder().decode(output.stderr).trim().split("\n").pop()
      }`,
    );
    return undefined;
  }
  try {
    await Deno.rename(temp, home);
  } catch {
    await Deno.remove(temp, { recursive: true }).catch(() => {});
  }
  return (await exists(script(home))) ? { home, script: script(home) } : undefined;
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}
