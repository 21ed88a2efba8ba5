/**
 * The demo server's tools. Each one shows one feature of MCP results that jn
 * turns into records: text, structured content, JSON lists, images, errors,
 * progress and logs, argument coercion, resource links.
 *
 * @module
 */

import type { McpServer, ServerContext } from "@modelcontextprotocol/server";
import * as z from "zod";
import { demoItems, describeTypes, nextRelease, TINY_PNG_BASE64 } from "./content.ts";

/** Registers every demo tool on `server`. */
export function registerDemoTools(server: McpServer): void {
  registerBasicTools(server);
  registerContentTools(server);
  registerBehaviourTools(server);
}

function registerBasicTools(server: McpServer): void {
  // The next release renames echo's `text` to `message` (content.ts nextRelease).
  const said = nextRelease() ? "message" : "text";
  server.registerTool("echo", {
    title: "Echo",
    description: "Returns the text you send, optionally repeated (separated by spaces).",
    inputSchema: z.object({
      [said]: z.string().describe("The text to send back"),
      repeat: z.number().int().min(1).max(10).optional().describe(
        "How many times to repeat it (1-10, default 1)",
      ),
    }),
  }, (args) => {
    const { repeat } = args as { repeat?: number };
    const text = (args as Record<string, string>)[said];
    return { content: [{ type: "text", text: Array(repeat ?? 1).fill(text).join(" ") }] };
  });

  server.registerTool("add", {
    title: "Add two numbers",
    description: "Adds a and b. Returns the sum as text and as structured content {sum}.",
    inputSchema: z.object({
      a: z.number().describe("The first addend"),
      b: z.number().describe("The second addend"),
    }),
    outputSchema: z.object({ sum: z.number().describe("a + b") }),
  }, ({ a, b }) => {
    const result = { sum: a + b };
    return { content: [{ type: "text", text: JSON.stringify(result) }], structuredContent: result };
  });

  server.registerTool("list_items", {
    title: "List items",
    description: "Returns a JSON array of items {id, name, tags} as one text item. " +
      "Try it with --json and head/tail.",
    inputSchema: z.object({
      count: z.number().int().min(0).max(10_000).default(5).describe(
        "How many items to return (default 5)",
      ),
      prefix: z.string().optional().describe('Prefix of each item\'s name (default "item")'),
    }),
  }, ({ count, prefix }) => ({
    content: [{ type: "text", text: JSON.stringify(demoItems(count, prefix)) }],
  }));
}

function registerContentTools(server: McpServer): void {
  server.registerTool("tiny_image", {
    title: "Tiny image",
    description: "Returns a 16x16 PNG image (base64) and a caption.",
  }, () => ({
    content: [
      { type: "image", data: TINY_PNG_BASE64, mimeType: "image/png" },
      { type: "text", text: "A 16x16 checkerboard PNG" },
    ],
  }));

  server.registerTool("resource_links", {
    title: "Resource links",
    description:
      "Returns a resource_link to demo://readme and the embedded resource demo://items/1.",
  }, () => ({
    content: [
      {
        type: "resource_link",
        uri: "demo://readme",
        name: "readme",
        mimeType: "text/markdown",
        description: "The demo server's readme",
      },
      {
        type: "resource",
        resource: {
          uri: "demo://items/1",
          mimeType: "application/json",
          text: JSON.stringify(demoItems(1)[0]),
        },
      },
    ],
  }));

  server.registerTool("types_demo", {
    title: "Types demo",
    description: "Returns the arguments it received and their JavaScript types, " +
      "to show how jn converts command-line strings to the declared types.",
    inputSchema: z.object({
      text: z.string().optional().describe("A string"),
      count: z.number().int().optional().describe("An integer"),
      ratio: z.number().optional().describe("A number"),
      enabled: z.boolean().optional().describe("A boolean"),
      tags: z.array(z.string()).optional().describe('An array of strings, e.g. ["a","b"]'),
      options: z.record(z.string(), z.unknown()).optional().describe(
        'An object, e.g. {"depth":2}',
      ),
      color: z.enum(["red", "green", "blue"]).optional().describe("One of red, green, blue"),
    }),
  }, (args) => {
    const received = args as Record<string, unknown>;
    const report = { arguments: received, types: describeTypes(received) };
    return { content: [{ type: "text", text: JSON.stringify(report) }] };
  });
}

function registerBehaviourTools(server: McpServer): void {
  server.registerTool("fail", {
    title: "Fail",
    description: "Always fails: returns a result with isError: true (not a protocol error).",
    inputSchema: z.object({
      message: z.string().optional().describe('The error text (default "This tool always fails")'),
    }),
  }, ({ message }) => ({
    content: [{ type: "text", text: message ?? "This tool always fails" }],
    isError: true,
  }));

  server.registerTool("slow_count", {
    title: "Slow count",
    description: "Counts to steps, waiting delay_ms per step; sends a progress notification " +
      "(when the call has a progress token) and a log message per step.",
    inputSchema: z.object({
      steps: z.number().int().min(1).max(1000).default(5).describe(
        "How many steps (default 5)",
      ),
      delay_ms: z.number().int().min(0).max(60_000).default(200).describe(
        "Milliseconds to wait per step (default 200)",
      ),
    }),
  }, async ({ steps, delay_ms }, ctx) => {
    for (let step = 1; step <= steps; step++) {
      await sleep(delay_ms, ctx.mcpReq.signal);
      await reportStep(ctx, step, steps);
    }
    return { content: [{ type: "text", text: `Counted to ${steps}` }] };
  });
}

async function reportStep(ctx: ServerContext, step: number, steps: number): Promise<void> {
  const token = ctx.mcpReq._meta?.progressToken;
  if (token !== undefined) {
    await ctx.mcpReq.notify({
      method: "notifications/progress",
      params: { progressToken: token, progress: step, total: steps, message: `Step ${step}` },
    });
  }
  await ctx.mcpReq.log("info", `Step ${step} of ${steps}`, "slow_count");
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
