/**
 * An example MCP server in TypeScript, with the official SDK
 * (`@modelcontextprotocol/server`): serves both protocol eras over stdio.
 *
 * Run it through jn from the repository root:
 *
 *   jn inspect "mcp+deno://./examples/server.ts"
 *   jn cat "mcp+deno://./examples/server.ts?tool=greet&name=Ada"
 *
 * `mcp+deno://` starts it with `deno run --no-prompt --allow-read=examples/`:
 * it may read its own directory and nothing else (docs/sandbox.md).
 *
 * Tools:
 *   greet(name, times=1)  a greeting, as text and as structured content
 *   word_count(text)      counts the words of a text (structured content)
 *   fetch_url(url)        the start of a web page: needs `--sandbox-net` (or
 *                         `--sandbox-host HOST`), which become Deno's --allow-net
 *
 * @module
 */

import { McpServer } from "npm:@modelcontextprotocol/server@2.4.0";
import { serveStdio } from "npm:@modelcontextprotocol/server@2.4.0/stdio";
import * as z from "npm:zod@4.6.7";

function createServer(): McpServer {
  const server = new McpServer({ name: "example-typescript", version: "1.0.0" });

  server.registerTool("greet", {
    description: "Greets someone, as text and as structured content {greeting}.",
    inputSchema: z.object({
      name: z.string().min(1).describe("Who to greet"),
      times: z.number().int().min(1).max(5).default(1).describe("How many times (1-5)"),
    }),
    outputSchema: z.object({ greeting: z.string() }),
  }, ({ name, times }) => {
    const greeting = Array(times).fill(`Hello, ${name}!`).join(" ");
    return { content: [{ type: "text", text: greeting }], structuredContent: { greeting } };
  });

  server.registerTool("word_count", {
    description: "Counts the words and characters of a text.",
    inputSchema: z.object({ text: z.string().describe("The text to count") }),
    outputSchema: z.object({ words: z.number().int(), characters: z.number().int() }),
  }, ({ text }) => {
    const counts = { words: text.split(/\s+/).filter(Boolean).length, characters: text.length };
    return { content: [{ type: "text", text: JSON.stringify(counts) }], structuredContent: counts };
  });

  server.registerTool("fetch_url", {
    description: "Fetches a URL and returns the first 500 characters of its body.",
    inputSchema: z.object({ url: z.url().describe("The http(s) URL to fetch") }),
  }, async ({ url }) => {
    try {
      const response = await fetch(url);
      const body = await response.text();
      return { content: [{ type: "text", text: body.slice(0, 500) }] };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { content: [{ type: "text", text: message }], isError: true };
    }
  });

  return server;
}

serveStdio(() => createServer());
