/**
 * lib/uri: naked URIs and `@profile` references → a `Source`, a caret under a
 * bad spot; the table of query keys.
 *
 * Turns what the user typed into a {@linkcode Source}: a naked URI
 * `mcp+LAUNCHER://LOCATION[?QUERY]` or a profile reference
 * `@server[/tool][?QUERY]`. A hand-written parser, never `new URL()`, which
 * would read `@scope/pkg@1` as user-info. Every malformed input throws a
 * `UriSyntaxError` whose `index` points at the offending character. Which
 * launchers exist and what their LOCATION may be is said by the launchers'
 * descriptors (lib/launch/registry.ts), which query keys jn reads by the
 * table in query_keys.ts. Pure, no I/O.
 *
 * @module
 */

import type { UriSyntaxError } from "../errors.ts";
import { checkLocation } from "./location.ts";
import { type Fail, failFor, percentDecode } from "./percent.ts";
import { parseQuery } from "./query.ts";
import type { NakedSource, ProfileSource, Source } from "./source.ts";
import { launcherOf, launcherSchemes } from "../launch/registry.ts";

const FORMS_HINT =
  "write a naked URI such as mcp+npx://@scope/pkg or mcp+python://./server.py, or a profile " +
  "reference such as @server/tool; plain mcp:// is not a thing";
const SERVER_CHAR = /[A-Za-z0-9._-]/;
const SCHEME_CHAR = /[A-Za-z0-9.+-]/;

/**
 * Parses a naked URI or a profile reference.
 *
 * @example
 * ```ts
 * parseSource("mcp+npx://@upstash/context7-mcp@latest?tool=search&q=deno");
 * // { kind: "naked", launcher: "npx", location: "@upstash/context7-mcp@latest",
 * //   operation: { kind: "tool", name: "search" }, args: [{ key: "q", value: "deno" }], … }
 * ```
 */
export function parseSource(input: string): Source {
  const fail = failFor(input);
  if (input.startsWith("mcp+")) return parseNaked(input, fail);
  if (input.startsWith("@")) return parseProfile(input, fail);
  if (input === "") fail(0, "the URI is empty", FORMS_HINT);
  if (/^mcp:/i.test(input)) fail(3, `"mcp:" names no launcher`, FORMS_HINT);
  // A pasted server URL is the commonest slip; give the exact string to paste.
  const web = /^(https?):\/\//i.exec(input);
  if (web) {
    fail(0, `"${web[1]}://" is not a jn source`, `to reach this server, write mcp+${input}`);
  }
  return fail(0, `expected "mcp+LAUNCHER://…" or "@server"`, FORMS_HINT);
}

function parseNaked(input: string, fail: Fail): NakedSource {
  let end = 4;
  while (end < input.length && SCHEME_CHAR.test(input[end])) end++;
  const name = input.slice(4, end);
  const hint = `launchers: ${launcherSchemes().join(", ")}`;
  if (name === "") fail(4, "launcher is empty", hint);
  const launcher = launcherOf(name);
  if (launcher === undefined) {
    const lower = launcherOf(name.toLowerCase()) && name.toLowerCase();
    fail(
      4,
      `unknown launcher "${name}"`,
      lower === undefined ? hint : `launchers are lowercase: mcp+${lower}://`,
    );
  }
  if (!input.startsWith("://", end)) fail(end, `expected "://" after "mcp+${name}"`);

  const start = end + 3;
  const question = input.indexOf("?", start);
  const rawLocation = question === -1 ? input.slice(start) : input.slice(start, question);
  const location = checkLocation(launcher, rawLocation, { scheme: name, start, fail });
  const query = question === -1
    ? { operation: { kind: "none" as const }, command: [], args: [] }
    : parseQuery(input.slice(question + 1), { start: question + 1, fail, naked: true });
  return { kind: "naked", raw: input, launcher: name, location, ...query };
}

function parseProfile(input: string, fail: Fail): ProfileSource {
  let end = 1;
  while (end < input.length && SERVER_CHAR.test(input[end])) end++;
  const server = input.slice(1, end);
  const next = input[end];
  if (next !== undefined && next !== "/" && next !== "?") {
    fail(
      end,
      `unexpected "${next}" in server name`,
      `server names use letters, digits, "-", "_" and "."`,
    );
  }
  if (server === "") fail(1, "server name is empty");
  if (server.startsWith(".")) fail(1, `server name "${server}" starts with "."`);

  const question = input.indexOf("?", end);
  const pathEnd = question === -1 ? input.length : question;
  let pathTool: string | undefined;
  if (next === "/") {
    const toolStart = end + 1;
    pathTool = percentDecode(input.slice(toolStart, pathEnd), { start: toolStart, fail });
    if (pathTool === "") fail(toolStart, "tool name is empty");
  }
  const query = question === -1
    ? {
      operation: pathTool === undefined
        ? { kind: "none" as const }
        : { kind: "tool" as const, name: pathTool },
      args: [],
    }
    : parseQuery(input.slice(question + 1), {
      start: question + 1,
      fail,
      naked: false,
      pathTool,
    });
  return { kind: "profile", raw: input, server, operation: query.operation, args: query.args };
}

/**
 * Two lines showing where a URI is malformed: the input indented by two
 * spaces, and a caret under `err.index` (one past the end when the input
 * ended too early). Tabs in the input are kept so that the caret lines up.
 *
 * @example
 * ```ts
 * formatCaret(err); // "  mcp+foo://x\n      ^"
 * ```
 */
export function formatCaret(err: UriSyntaxError): string {
  const index = Math.max(0, Math.min(err.index, err.input.length));
  const pad = [...err.input.slice(0, index)].map((c) => (c === "\t" ? "\t" : " ")).join("");
  return `  ${err.input}\n  ${pad}^`;
}
