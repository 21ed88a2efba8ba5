/**
 * lib/demo: the demo MCP server behind `@demo`.
 *
 * jn's embedded demo server (`jn mcp demo-server`): a small MCP server over
 * stdio that serves both protocol eras — the 2025 `initialize` handshake and
 * the 2026-07-28 `server/discover` opening — from one factory, through the
 * SDK's `serveStdio`. It writes nothing but protocol messages to stdout.
 *
 * @module
 */

import {
  completable,
  McpServer,
  ResourceNotFoundError,
  ResourceTemplate,
} from "@modelcontextprotocol/server";
import { serveStdio, StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import * as z from "zod";
import { DEMO_README, demoItem, demoItems, nextRelease, TINY_PNG_BASE64 } from "./content.ts";
import { registerDemoTools } from "./tools.ts";

/** The demo server's identity, as reported to clients (its next release: 0.2.0). */
export const DEMO_SERVER_INFO = { name: "jn-demo", version: "0.1.0" } as const;

/** How many items `demo://items/{id}` lists (any positive id can be read). */
const LISTED_ITEMS = 3;

/** What `completion/complete` offers for the `summarize` prompt's `topic`. */
const TOPICS = ["MCP", "MCP sampling", "NDJSON", "jq", "Deno"];

/**
 * Builds one fully registered demo server instance. `serveStdio` calls this
 * once per connection, for the era the client opened with.
 */
export function createDemoServer(): McpServer {
  const info = nextRelease() ? { ...DEMO_SERVER_INFO, version: "0.2.0" } : DEMO_SERVER_INFO;
  const server = new McpServer(info, {
    capabilities: { logging: {}, resources: { subscribe: true } },
    instructions: "A demo server embedded in jn. Start with the tools echo, add and list_items; " +
      "read demo://readme for a tour.",
  });
  registerDemoTools(server);
  registerDemoResources(server);
  registerTicker(server);
  registerDemoPrompts(server);
  return server;
}

/**
 * Serves the demo server on this process's stdin/stdout until the client
 * closes stdin (or the connection fails); resolves then.
 *
 * @example
 * ```ts
 * await runDemoServer(); // `jn mcp demo-server`
 * ```
 */
export async function runDemoServer(): Promise<void> {
  const closed = Promise.withResolvers<void>();
  const wire = new StdioServerTransport();
  serveStdio(() => createDemoServer(), { transport: wire });
  // serveStdio owns the wire's callbacks; chain ours after its close handler.
  const entryOnClose = wire.onclose;
  wire.onclose = () => {
    entryOnClose?.();
    closed.resolve();
  };
  await closed.promise;
}

function registerDemoResources(server: McpServer): void {
  server.registerResource("readme", "demo://readme", {
    title: "Demo readme",
    description: "What the demo server offers",
    mimeType: "text/markdown",
  }, (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/markdown", text: DEMO_README }] }));

  server.registerResource("logo", "demo://logo.png", {
    title: "Demo logo",
    description: "A 16x16 PNG (a binary resource, returned as base64 blob)",
    mimeType: "image/png",
  }, (uri) => ({ contents: [{ uri: uri.href, mimeType: "image/png", blob: TINY_PNG_BASE64 }] }));

  const items = new ResourceTemplate("demo://items/{id}", {
    list: () => ({
      resources: demoItems(LISTED_ITEMS).map((item) => ({
        uri: `demo://items/${item.id}`,
        name: item.name,
        mimeType: "application/json",
      })),
    }),
    complete: {
      id: (value) =>
        demoItems(LISTED_ITEMS).map((item) => String(item.id)).filter((id) => id.startsWith(value)),
    },
  });
  server.registerResource("item", items, {
    title: "Demo item",
    description: "One item as JSON, by positive integer id",
    mimeType: "application/json",
  }, (uri, variables) => {
    const id = Number(variables.id);
    if (!Number.isInteger(id) || id < 1) {
      throw new ResourceNotFoundError(
        uri.href,
        `Cannot read "${uri.href}": id must be a positive integer`,
      );
    }
    return {
      contents: [{
        uri: uri.href,
        mimeType: "application/json",
        text: JSON.stringify(demoItem(id)),
      }],
    };
  });
}

/** The URI of the resource that changes every second (for `--follow`). */
const TICKER_URI = "demo://ticker";

/**
 * `demo://ticker`: "tick N", N the seconds since its first read or
 * subscription; from then on the server announces an update every second
 * (`notifications/resources/updated`: to a 2025 client once it subscribed,
 * through the listen stream in 2026-07-28). The timer does not keep the
 * server alive.
 */
function registerTicker(server: McpServer): void {
  let started: number | undefined;
  let subscribed = false;
  const start = () => {
    if (started !== undefined) return;
    started = Date.now();
    const timer = setInterval(() => {
      const version = server.server.getNegotiatedProtocolVersion() ?? "";
      if (version < "2026" && !subscribed) return; // 2025: only to a subscriber
      server.server.sendResourceUpdated({ uri: TICKER_URI }).catch(() => clearInterval(timer));
    }, 1000);
    Deno.unrefTimer(timer);
  };
  server.registerResource("ticker", TICKER_URI, {
    title: "Ticker",
    description: "Changes every second: follow it with jn cat --follow",
    mimeType: "text/plain",
  }, (uri) => {
    start();
    const seconds = Math.floor((Date.now() - started!) / 1000);
    return { contents: [{ uri: uri.href, mimeType: "text/plain", text: `tick ${seconds}` }] };
  });
  server.server.setRequestHandler("resources/subscribe", (request) => {
    if (request.params.uri === TICKER_URI) {
      subscribed = true;
      start();
    }
    return {};
  });
  server.server.setRequestHandler("resources/unsubscribe", (request) => {
    if (request.params.uri === TICKER_URI) subscribed = false;
    return {};
  });
}

function registerDemoPrompts(server: McpServer): void {
  server.registerPrompt("summarize", {
    title: "Summarize",
    description: "Asks the model for a short summary of a topic.",
    argsSchema: z.object({
      topic: completable(
        z.string().describe("What to summarize"),
        (value) => TOPICS.filter((topic) => topic.toLowerCase().startsWith(value.toLowerCase())),
      ),
    }),
  }, ({ topic }) => ({
    messages: [{
      role: "user",
      content: { type: "text", text: `Summarize ${topic} in three sentences.` },
    }],
  }));
}
