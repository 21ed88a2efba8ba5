/**
 * jn's texts for people, as the CLI prints them: a server's inventory in the
 * brief format ({@linkcode formatBrief}, one line per tool with its
 * signature), a tool's help ({@linkcode formatToolHelp}), in colour or not
 * ({@linkcode style}); a drift warning's text is the root's `driftWarning`. Server text in them has its control characters made
 * visible.
 *
 * @example A tool's signature
 * ```ts
 * import { toolSignature } from "@jn/jn/output";
 *
 * const tool = {
 *   name: "add",
 *   inputSchema: {
 *     type: "object",
 *     properties: { a: { type: "number" }, b: { type: "number" } },
 *     required: ["a", "b"],
 *   },
 * };
 * console.log(toolSignature(tool)); // "add(a: number, b: number)"
 * ```
 *
 * @module
 */

export { formatBrief, toolSignature } from "../lib/output/brief.ts";
export { formatToolHelp, type ProfileToolNotes, type ToolHelp } from "../lib/output/tool_help.ts";
export { buildToolHelp, savedToolHelp } from "../lib/client/tool_help.ts";
export type { Inventory, InventorySection } from "../lib/output/inventory.ts";
export { type Style, style } from "../lib/output/style.ts";
export { driftWarning, type MessageOptions, outputFormatWarning } from "../lib/client/messages.ts";
