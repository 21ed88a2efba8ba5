/**
 * The help text that ends `inspect`, `cat`, `head` and `tail`: the query
 * keys a source understands (SPEC §2, lib/uri/query.ts) and examples that run
 * against the bundled `@demo` profile.
 *
 * @module
 */

/** The query keys of a SOURCE, and where a tool argument named like one goes. */
export const QUERY_KEYS_HELP = `
Query keys (SOURCE?key=value&…):
  tool=NAME          call a tool (also @server/NAME)
  resource=URI       read a resource
  prompt=NAME        get a prompt
  list=KIND          list tools, resources, templates or prompts
  task=ID            a task's result (waits for it), e.g. one --detach started
  command=WORD       append WORD to the server's command (naked URIs; repeatable)
  any other key      an argument of the tool or prompt, converted to the type
                     its schema declares; a tool's own argument named like a
                     key above goes in --arg KEY=VALUE`;

/** The examples of `cat` (`head` and `tail` take the same sources). */
export function catHelp(name: "cat" | "head" | "tail"): string {
  const lines = name === "cat"
    ? [
      `jn cat "@demo/echo?text=hi&repeat=2"`,
      `jn cat --json "@demo/list_items?count=3"`,
      `jn cat --arg text=hi --arg repeat=2 @demo/echo`,
      `jn cat "@demo?resource=demo://readme"`,
      `jn cat --json "@demo?resource=demo://items/3"`,
      `jn cat "@demo?prompt=summarize&topic=MCP"`,
      `jn cat "@demo?list=tools"`,
    ]
    : [`jn ${name} -n 3 --json "@demo/list_items?count=20"`, `jn ${name} "@demo?list=tools"`];
  return `${QUERY_KEYS_HELP}\n\nExamples:\n${lines.map((line) => `  ${line}`).join("\n")}`;
}

/** The examples of `inspect`. */
export const INSPECT_HELP = `${QUERY_KEYS_HELP}

Examples:
  jn inspect @demo
  jn inspect --format json @demo
  jn inspect "mcp+npx://@modelcontextprotocol/server-everything"`;
