/**
 * jn as a library: the same jn the `jn` CLI runs, with the same policy —
 * a project profile launches only once trusted, the profile's sandbox is
 * merged with yours, the server gets a minimal environment (no API keys of
 * yours unless passed by name), a profile's schema drift is checked on use,
 * arguments are converted and validated against the tool's schema before a
 * call (a name it does not declare is an ArgumentError unless
 * `allowUnknown`), and secrets are redacted from everything reported. What the CLI
 * prints on stderr comes to your program as events (`OpenOptions.events`).
 *
 * @example Call a tool of the bundled demo server
 * ```ts
 * import { call, open, toolResultRecords } from "@jn/jn";
 *
 * const conn = await open("@demo", { cwd: Deno.cwd(), env: Deno.env.toObject() });
 * try {
 *   const result = await call(conn, "add", { a: 2, b: 40 });
 *   console.log(result.structuredContent); // { sum: 42 }
 *   for (const record of toolResultRecords("add", result)) console.log(JSON.stringify(record));
 * } finally {
 *   await conn.close();
 * }
 * ```
 *
 * @example One call per record, results in input order
 * ```ts
 * import { open, put } from "@jn/jn";
 *
 * await using conn = await open("@demo", { cwd: Deno.cwd(), env: Deno.env.toObject() });
 * for await (const record of put(conn, "echo", [{ text: "a" }, { text: "b", repeat: 2 }])) {
 *   console.log(record.input, record.text); // 1 "a", then 2 "b b"
 * }
 * ```
 *
 * @example Drift warnings and sandbox as data
 * ```ts
 * import { driftWarning, open } from "@jn/jn";
 *
 * await using conn = await open("@demo", {
 *   cwd: Deno.cwd(),
 *   env: Deno.env.toObject(),
 *   events: { onDrift: (drift) => console.error(driftWarning(drift)) },
 * });
 * console.log(conn.sandbox?.policy, conn.drift?.status); // undefined "valid"
 * ```
 *
 * @example Serve a profile to an MCP host over Streamable HTTP
 * ```ts
 * import { serve } from "@jn/jn";
 *
 * const served = await serve(["@demo"], {
 *   cwd: Deno.cwd(),
 *   env: Deno.env.toObject(),
 *   http: { port: 0 }, // stdio without it: how hosts start a server
 *   events: { onSourceFailed: (source, error) => console.error(source, error.message) },
 * });
 * console.log(served.url); // http://127.0.0.1:PORT/mcp
 * await served.close(); // ends every source's server
 * ```
 *
 * @module
 */

export * from "./lib/client/mod.ts";
