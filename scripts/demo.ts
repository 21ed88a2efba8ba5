// deno-lint-ignore-file no-console
/**
 * `deno task demo`: a short tour of jn against its embedded demo server,
 * offline. Each step prints the command a newcomer would type, then runs it
 * (from source, with jn's production permission set) and shows its output.
 *
 * @module
 */

import { permissionFlags } from "../lib/sandbox/permissions.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const color = Deno.stdout.isTerminal() && !Deno.env.get("NO_COLOR");
const bold = (text: string) => (color ? `\x1b[1m${text}\x1b[22m` : text);
const dim = (text: string) => (color ? `\x1b[2m${text}\x1b[22m` : text);

interface Step {
  say: string;
  args: string[];
  /** Pipe stdout through this shell filter for display (e.g. to shorten base64). */
  expectCode?: number;
}

const STEPS: Step[] = [
  { say: "What does the demo server offer?", args: ["inspect", "@demo"] },
  {
    say: "Call a tool: one NDJSON record per content item",
    args: ["cat", "@demo/echo?text=hello&repeat=2"],
  },
  {
    say: "Query values are converted to the types the tool declares (a and b are numbers)",
    args: ["cat", "@demo/add?a=2&b=40"],
  },
  {
    say: "--json turns a JSON list into one record per element; head/tail pick some",
    args: ["head", "-n", "3", "--json", "@demo/list_items?count=50"],
  },
  { say: "Read a resource", args: ["cat", "@demo?resource=demo://items/2"] },
  { say: "Get a prompt", args: ["cat", "@demo?prompt=summarize&topic=MCP"] },
  {
    say: "Bad arguments are caught before the server is called (exit 2)",
    args: ["cat", "@demo/add?a=two&b=40"],
    expectCode: 2,
  },
  {
    say: "A tool error is data, and the exit code says so (exit 1)",
    args: ["cat", "@demo/fail?message=on%20purpose"],
    expectCode: 1,
  },
];

/**
 * `deno run` of jn from the source checkout, with its production permissions.
 * `--quiet`: on a fresh machine Deno fetches jn's npm packages on the first
 * run and says `Download …` for each on stderr, which would land in the
 * tour's output; it hides only Deno's progress lines, not errors.
 */
function jnCommand(args: string[]): Deno.Command {
  return new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      "--config",
      `${ROOT}deno.json`,
      ...permissionFlags(),
      `${ROOT}main.ts`,
      ...args,
    ],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  });
}

let failures = 0;
for (const step of STEPS) {
  console.log(`\n${bold(`# ${step.say}`)}`);
  console.log(dim(`$ jn ${step.args.map(quote).join(" ")}`));
  const output = await jnCommand(step.args).output();
  const stdout = new TextDecoder().decode(output.stdout);
  const stderr = new TextDecoder().decode(output.stderr);
  if (stdout) Deno.stdout.writeSync(new TextEncoder().encode(stdout));
  if (stderr) Deno.stdout.writeSync(new TextEncoder().encode(dim(stderr)));
  const expected = step.expectCode ?? 0;
  console.log(dim(`(exit ${output.code})`));
  if (output.code !== expected) {
    failures++;
    console.log(`demo: expected exit ${expected}, got ${output.code}`);
  }
}
console.log(`\n${bold("Next:")} jn help, README.md's tour, and docs/.`);
if (failures > 0) Deno.exit(1);

function quote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `"${word}"`;
}
