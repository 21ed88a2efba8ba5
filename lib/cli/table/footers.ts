/**
 * The texts that end a command's help, by the name a command's row gives
 * (`footer: "put"`): the sources and query keys (lib/cli/source_help.ts,
 * from the launcher and query-key tables), examples that run against the
 * bundled `@demo` profile, and exit codes. Rendered once, by `deno task
 * tables`, into the compiled help (compiled.ts, compiled_help.ts) that jn
 * prints.
 *
 * @module
 */

import { EXIT_CODES } from "../exit_table.ts";
import { wrapList } from "../help_wrap.ts";
import { catHelp, inspectHelp, sourcesSummary } from "../source_help.ts";

/** The end of `jn --help`. */
export function programFooter(): string {
  return `
Sources:
${sourcesSummary()}

Examples:
  jn inspect "mcp+npx://@modelcontextprotocol/server-everything"
  jn cat "mcp+python://./examples/server.py?tool=search&q=BRAF"
  jn head -n 3 --json "@demo/list_items?count=20"

${wrapList("Exit codes:", EXIT_CODES.map((row) => `${row.code} ${row.short}`), 80)}`;
}

/** The end of `jn help put`. */
const putFooter = (): string => `
Each record on stdin is one call; its fields override the URI's and --arg's
arguments; keys starting with _ are not sent. Output: the call's records with
"input": N (the line number), in input order; a bad line or a failed call is
{"type":"error","input":N,"kind":…,"error":…} and the run goes on. After
--max-timeouts calls in a row timed out, no further call is made and each
remaining line is {"kind":"not_attempted",…}.

To a server without a tool (@server), each record names its operation, run in
order over the one session: {"tool":NAME,"arguments":{…}}, {"resource":URI},
{"prompt":NAME,"arguments":{…}} or {"list":"tools"}; the records are those
jn cat gives for it, with "input": N.

Examples:
  jn put "mcp+uvx://biomcp-python/biomcp?command=run&tool=variant_search" < genes.ndjson
  printf '%s\n' '{"tool":"add","arguments":{"a":2,"b":40}}' '{"resource":"demo://readme"}' | jn put @demo
  jn cat --json "@demo/list_items?count=20" | jn filter 'select(.id % 2 == 0)' | jn put items.json

Exit: 0 all records succeeded, 1 some failed, 2 usage, 4 the server went away, 130 interrupted.`;

/** The end of `jn help complete`. */
const completeFooter = (): string => `
Output: one {"type":"completion","prompt"|"resource","argument","value"} per value.
Context (the arguments already chosen, for servers that narrow one by another):
the source's other query keys, then --arg KEY=VALUE and --args JSON.

Examples:
  jn complete "@demo?prompt=summarize" topic mc
  jn complete "@everything?prompt=completable-prompt" name --arg department=Sales
  jn complete "@demo?resource=demo://items/{id}" id`;

/** The end of `jn help completions`. */
const completionsFooter = (): string =>
  "\nInstall:\n" +
  "  bash  echo 'source <(jn completions bash)' >> ~/.bashrc\n" +
  "  zsh   echo 'source <(jn completions zsh)' >> ~/.zshrc\n" +
  "  fish  jn completions fish > ~/.config/fish/completions/jn.fish";

/** The end of `jn help grep`. */
const grepFooter = (): string => `
Output: {"type":"match","source","kind","name","field","text"} per match, and
{"type":"error","source","error"} for a source that could not be searched (on a
terminal, one line each). Exit: 0 something matched, 1 nothing did, 2 usage.

Examples:
  jn grep sum                        # every profile's saved tools, offline
  jn grep -E '^list_' @demo          # ask the server
  jn grep --live summar              # every profile's server, live`;

/** The end of `jn help skills`. */
const skillsFooter = (): string => `
Output: {"type":"skill",…} per skill; with NAME, {"type":"skill_file",…} per
file, verified (size, sha256 digest, SKILL.md frontmatter) before anything is
written. A file that differs from the listing: exit 5, nothing written.

Examples:
  jn skills "mcp+https://example.com/mcp"
  jn skills "mcp+https://example.com/mcp" pdf-processing --out ~/.claude/skills`;

/** The end of `jn help agent-guide`. */
const agentGuideFooter = (): string => `
The skill is made from jn's own tables (commands, flags, sources, query keys,
records, exit codes): it matches this jn.

Examples:
  jn agent-guide > SKILL.md
  jn agent-guide --out ~/.claude/skills        # writes ~/.claude/skills/jn/SKILL.md`;

/** The end of `jn help serve`. */
const serveFooter = (): string => `
A host starts jn serve as its server (stdio) and sees each source's tools as jn
would call them: allow_tools/deny_tools and the profile's tools applied, and a
tool whose description or schemas changed since the profile's snapshot (or one
the snapshot does not know) withheld until jn profile update. stdin's end,
SIGTERM or SIGHUP end every server's process tree and exit 0.

Examples:
  jn serve @demo                                  # what a host's config runs
  jn serve --http 8080 @demo @filesystem          # Streamable HTTP on 127.0.0.1:8080
  jn serve --http 0.0.0.0:8080 --http-token-env JN_TOKEN @demo
  jn serve --sandbox "mcp+npx://@modelcontextprotocol/server-memory"

See docs/serve.md: pinning, namespacing, the threat model.`;

/** The end of `jn help session start`. */
const sessionFooter = (): string => `
The session is a jn process of its own serving the server on a private socket;
while it runs, every jn command on SOURCE with the same launch options goes
through it (--no-session bypasses it; --debug says which session). It ends with
jn session stop, after --idle without a call, on SIGTERM or SIGHUP, or when its
server dies (later calls then exit 4 and say so).

Examples:
  jn session start @demo
  jn cat "@demo/add?a=2&b=40"                     # through the session
  jn session list --format json
  jn session stop @demo

See docs/session.md: sharing, policy, privacy, what ends a session.`;

/** The end of `jn help host add`. */
const hostFooter = (): string => `
The entry runs this jn by an absolute path (jn on PATH, the compiled binary, or
deno run … main.ts from source) with serve @server: the host gets the profile
curated, pinned and sandboxed. The host's other entries and comments are kept;
the file is backed up first (FILE.jn-backup-TIME, mode 0600); running it again
changes nothing. A project profile goes only into the project config (--project),
once trusted. Restart the host to load the entry.

Examples:
  jn host add cursor @demo --dry-run              # the entry, as ~/.cursor/mcp.json would hold it
  jn host add claude-code @github                 # ~/.claude.json, user scope
  jn host add vscode @db --project                # .vscode/mcp.json of this directory
  jn host list                                    # which host entries run jn
  jn host remove cursor @demo`;

/** Every footer, by the name a command's row gives. */
export const FOOTERS = {
  inspect: inspectHelp,
  cat: () => catHelp("cat"),
  head: () => catHelp("head"),
  tail: () => catHelp("tail"),
  put: putFooter,
  complete: completeFooter,
  completions: completionsFooter,
  grep: grepFooter,
  serve: serveFooter,
  session: sessionFooter,
  host: hostFooter,
  skills: skillsFooter,
  agentGuide: agentGuideFooter,
} as const satisfies Record<string, () => string>;
