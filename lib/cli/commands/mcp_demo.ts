/**
 * `jn mcp demo-server`: jn's demo MCP server on stdin/stdout, what `@demo`
 * launches. Loads the demo server alone, none of the CLI's other modules.
 *
 * @module
 */

/** `jn mcp demo-server`. */
export async function run(): Promise<void> {
  const { runDemoServer } = await import("../../demo/server.ts");
  await runDemoServer();
}
