/**
 * What `jn skills SOURCE [NAME [--out DIR]]` does, through the library, for
 * scripts/conformance_adapter.sh until the CLI has the command (issue 26; the
 * CLI waits for the new command table of issue 22): lists a server's skills
 * as NDJSON, or fetches one, verified, into DIR (records of its files).
 *
 *   deno run -A scripts/conformance_skills.ts SOURCE            # the listing
 *   deno run -A scripts/conformance_skills.ts SOURCE NAME --out DIR   # fetch NAME into DIR
 *
 * Exit codes as jn's: 0, 2 (usage), 4 (connection), 5 (a file differs from the
 * listing: nothing was written; the error line names the file).
 *
 * @module
 */

import { fetchSkill, JnError, listSkills, open } from "../mod.ts";
import { exitCodeFor } from "../lib/cli/exit_codes.ts";

const out = Deno.args.indexOf("--out");
const outDir = out < 0 ? undefined : Deno.args[out + 1];
const [source, name] = out < 0 ? Deno.args : Deno.args.slice(0, out);
const write = (text: string) => Deno.stdout.writeSync(new TextEncoder().encode(text));

try {
  await using conn = await open(source, { cwd: Deno.cwd(), env: Deno.env.toObject() });
  if (name === undefined) {
    for (const record of await listSkills(conn)) write(`${JSON.stringify(record)}\n`);
  } else {
    const skill = await fetchSkill(conn, name, { outDir });
    for (const record of skill.files) write(`${JSON.stringify(record)}\n`);
  }
} catch (error) {
  const message = error instanceof JnError ? error.message : String(error);
  Deno.stderr.writeSync(new TextEncoder().encode(`jn: ${message}\n`));
  Deno.exit(exitCodeFor(error));
}
