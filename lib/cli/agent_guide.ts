/**
 * `jn agent-guide`'s text: a skill in the Agent Skills format (`SKILL.md`:
 * YAML frontmatter with `name` and `description`, then markdown) that
 * teaches an LLM agent to use jn. The way of working is written here; the
 * rest is rendered from the tables that define jn — the commands
 * (table/commands.ts), the flags an agent needs (their rows' help), the
 * sources and query keys (source_help.ts, from the launchers and the query
 * keys), the record types (lib/output/record_types.ts) and the exit codes
 * (exit_table.ts) — so the guide cannot fall behind the CLI.
 *
 * @module
 */

import { RECORD_TYPES } from "../output/record_types.ts";
import { VERSION } from "../version.ts";
import { EXIT_CODES } from "./exit_table.ts";
import { sourceHelp } from "./source_help.ts";
import type { ArgDef, CommandDef } from "./table/command.ts";
import { COMMANDS } from "./table/commands.ts";
import { INSPECT_FORMAT, JSON_PAYLOAD, OUTPUT_BOUNDS } from "./table/command_flags.ts";
import type { AnyFlag } from "./table/flag.ts";
import { ARGS, CONNECTION_FLAGS, QUIET } from "./table/flags.ts";

/** The skill's name (a folder name of an agent's skills directory). */
export const GUIDE_NAME = "jn";

const DESCRIPTION = "Use MCP (Model Context Protocol) servers from the shell with jn: list a " +
  "server's tools one line each, call tools, read resources and get prompts as NDJSON, search " +
  "saved servers, save an explored server as a profile. Use when a task needs an MCP server, " +
  "or names one (mcp+npx://…, mcp+uvx://…, @profile).";

const WORKFLOW = `## How to work

1. **Learn a server**: \`jn inspect SOURCE --format brief\` prints one line per tool:
   \`name(a: number, b?: string = "x", c?: "p"|"q", d: {k: string}[]) → {out: number} — summary\`
   (\`?\` optional, \`= default\`, \`"p"|"q"\` one of, \`T[]\` array, \`{…}\` object fields,
   \`→\` structured result). Then resources, templates (\`uri{var}\`) and prompts.
2. **One tool in full** (description, each parameter, schema, a profile's notes and examples):
   \`jn inspect "SOURCE?tool=NAME"\`, or \`jn help @profile/tool\` (offline).
3. **Call it**: \`jn cat "SOURCE?tool=NAME&key=value"\`. Query values are converted to the
   schema's types and checked before the call: a bad argument is exit 2 naming it. Typed or long
   arguments: \`--args '{"key": 1}'\`, \`--args @call.json\`, or \`--args -\` (stdin).
4. **Read the result**: one record per content item; \`--json\` gives the payload instead
   (structured content, or text parsed as JSON; an array is one record per element). Bound what
   you read with \`--max-bytes N\`; put images and audio in files with \`--save-dir DIR\`.
5. **Many calls**: NDJSON objects on stdin, one call each: \`… | jn put "SOURCE?tool=NAME"\`
   (each output record gets \`"input": N\`; a failed line is an \`error\` record, the run goes on).
6. **Find tools across saved servers**: \`jn grep WORD\` (offline), \`jn profile list\`.
7. **Keep a server**: write a profile document (the seed's format: \`launcher\`, \`tools\` with
   \`description\`, \`notes\`, \`examples\`, \`output_format\`, and \`tested_with\`), then
   \`jn profile create NAME < profile.json\`, or \`jn profile create NAME --from SOURCE\`. Use it
   as \`@NAME/tool\`. When the server changes: \`jn profile validate @NAME\` (exit 3 when it broke
   the profile), \`jn profile diff @NAME\`, \`jn profile update @NAME --yes\`.
8. **The server asks** (a form): answer it with \`--elicit-answers '{"field": "value"}'\`; what
   does not fit the form is declined, and stderr says why.

stdout is data only; stderr has one \`jn: …\` line per problem, often a \`hint: …\` line with
what to do next: read it and follow it. Quote sources: \`?\` and \`&\` are shell characters.`;

/** The skill, as `SKILL.md` text. */
export function agentGuide(): string {
  return [
    "---",
    `name: ${GUIDE_NAME}`,
    `description: ${JSON.stringify(DESCRIPTION)}`,
    "---",
    "",
    `# jn ${VERSION}: MCP servers from the shell`,
    "",
    WORKFLOW,
    "",
    "## Sources",
    "",
    "```",
    sourceHelp().trim(),
    "```",
    "",
    "## Commands",
    "",
    ...COMMANDS.filter((command) => !command.hidden).map(commandLine),
    "",
    "## Flags an agent needs",
    "",
    ...agentFlags().map(flagLine),
    "",
    "## Records (stdout, one JSON object per line)",
    "",
    ...RECORD_TYPES.map((r) => `- \`${r.type}\`: ${r.fields} — ${r.from}`),
    "",
    "## Exit codes",
    "",
    ...EXIT_CODES.map((row) => `- ${row.code}: ${row.meaning}`),
    "",
  ].join("\n");
}

/** `` - `jn cat <source>`: summary ``. */
function commandLine(command: CommandDef): string {
  const args = command.args.map(argUsage).join(" ");
  return `- \`jn ${command.path.join(" ")}${args ? ` ${args}` : ""}\`: ${command.summary}`;
}

function argUsage(arg: ArgDef): string {
  const name = arg.name.toUpperCase() + (arg.variadic ? "…" : "");
  return arg.optional || arg.variadic ? `[${name}]` : name;
}

/** The flags the way of working above relies on, as their rows declare them. */
function agentFlags(): AnyFlag[] {
  const connection = (long: string) => CONNECTION_FLAGS.find((flag) => flag.long === long)!;
  return [
    INSPECT_FORMAT,
    JSON_PAYLOAD,
    ARGS,
    ...OUTPUT_BOUNDS,
    connection("elicit-answers"),
    connection("timeout"),
    connection("env-passthrough"),
    connection("sandbox"),
    QUIET,
  ];
}

function flagLine(flag: AnyFlag): string {
  const value = flag.value === undefined ? "" : ` ${flag.value.toUpperCase()}`;
  const choices = flag.choices ? ` (${flag.choices.join(", ")})` : "";
  return `- \`--${flag.long}${value}\`${choices}: ${flag.help}`;
}
