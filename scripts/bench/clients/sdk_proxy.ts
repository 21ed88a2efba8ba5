/**
 * The reference of `serve`'s memory and overhead: the smallest MCP proxy the
 * SDK allows — its client over stdio to one server, its low-level server
 * over stdio to the host, `tools/list` and `tools/call` passed on as they
 * are. No policy, no namespacing, no filter, no restarts: the floor of a
 * proxy built on the SDK, as jn's serve is.
 *
 * Usage: deno run -A sdk_proxy.ts -- SERVER ARGV…
 *
 * @module
 */

import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Server } from "@modelcontextprotocol/server";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";

const [_dashes, command, ...args] = Deno.args;
const client = new Client({ name: "sdk-proxy", version: "1.0.0" });
await client.connect(new StdioClientTransport({ command, args }));
const server = new Server({ name: "sdk-proxy", version: "1.0.0" }, {
  capabilities: { tools: {} },
});
server.setRequestHandler("tools/list", () => client.listTools());
server.setRequestHandler("tools/call", (request) => client.callTool(request.params));
const transport = new StdioServerTransport();
transport.onclose = () => void client.close();
await server.connect(transport);
