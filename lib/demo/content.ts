/**
 * The demo server's data: deterministic items, a real 16×16 PNG, and the
 * readme text. Pure values and functions, so every call and every resource
 * read returns the same bytes for the same input.
 *
 * @module
 */

/** One item of `list_items` and of the `demo://items/{id}` resources. */
export interface DemoItem {
  id: number;
  name: string;
  tags: string[];
}

const COLORS = ["red", "green", "blue"] as const;

/** The item with the given 1-based id; the name uses `prefix` (default `item`). */
export function demoItem(id: number, prefix = "item"): DemoItem {
  return {
    id,
    name: `${prefix}-${id}`,
    tags: [id % 2 === 0 ? "even" : "odd", COLORS[(id - 1) % COLORS.length]],
  };
}

/** Items 1…count, in order. */
export function demoItems(count: number, prefix?: string): DemoItem[] {
  return Array.from({ length: count }, (_, index) => demoItem(index + 1, prefix));
}

/** A valid 16×16 RGB PNG (a teal and orange checkerboard with a white cross), base64. */
export const TINY_PNG_BASE64 =
  "iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAc0lEQVR42oWRQRLAIAgD83Qf0D9TFUvR6VKHi5F1IJGZqTUvuxQV4qb35nF/" +
  "mB+gn64vaTIVMLtfwBkE0pNy0/c+SRx1/Hru43MXwLZPzF0Da+g8dwbIb8wH/aZ80G/KB/2mfMhvykfkN+Uj8pvyEflN+dzoOnyAzHrSywAAAABJ" +
  "RU5ErkJggg==";

/** The text of `demo://readme`. */
export const DEMO_README = `# jn demo server

A small MCP server embedded in jn (\`jn mcp demo-server\` serves it over
stdio), so every command can be tried without installing anything.

- Tools: echo, add, list_items, tiny_image, fail, slow_count, types_demo, resource_links
- Resources: demo://readme (this text), demo://logo.png (a PNG), demo://items/{id}
- Prompt: summarize (topic)
`;

/** Describes every argument's JavaScript type: arrays and null are named as such. */
export function describeTypes(args: Record<string, unknown>): Record<string, string> {
  const types: Record<string, string> = {};
  for (const [key, value] of Object.entries(args)) {
    types[key] = Array.isArray(value) ? "array" : value === null ? "null" : typeof value;
  }
  return types;
}

/**
 * Whether the demo server plays its next release (`JN_DEMO_V2=1` in its
 * environment, e.g. `--env-passthrough JN_DEMO_V2`): version 0.2.0, whose
 * `echo` takes `message` where 0.1.0 took `text` — a breaking change, for
 * the drift walkthrough of docs/agents.md.
 */
export function nextRelease(): boolean {
  try {
    return Deno.env.get("JN_DEMO_V2") === "1";
  } catch {
    return false; // no permission to read the environment: the first release
  }
}
