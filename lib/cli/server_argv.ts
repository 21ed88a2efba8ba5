/**
 * A server given as an argv after `--` (`jn inspect -- docker run -i --rm
 * img`, `jn cat '?tool=add&a=2' -- node server.js`), for every command that
 * takes a SOURCE: the words after `--` become the naked URI of the argv
 * launcher (lib/launch/registry.ts `argvUri`), in the SOURCE's place. What
 * the SOURCE would say beyond the server — `?tool=NAME`, arguments, `list=` —
 * goes before `--`, as a query alone (`'?tool=add&a=2'`), or is left out.
 * Pure: the parser (parse.ts) calls it with the words it read.
 *
 * @module
 */

import { UsageError } from "../errors.ts";
import { argvUri } from "../launch/registry.ts";
import { QUERY_KEYS } from "../uri/query_keys.ts";
import type { CommandDef } from "./table/command.ts";

/** The command's SOURCE argument that takes a server's argv (none: no `--` form). */
export function sourceArgument(command: CommandDef): number {
  return command.args.findIndex((arg) => arg.argv === true);
}

/**
 * The positional words with the argv's URI in the SOURCE's place: joined
 * to a query given there (`?tool=…`), inserted where SOURCE was left out,
 * appended to a variadic SOURCE list. Throws a UsageError for an empty argv,
 * a SOURCE given besides it, or a query after `--`.
 */
export function withServerArgv(
  command: CommandDef,
  positionals: readonly string[],
  argv: readonly string[],
): string[] {
  const name = command.path.join(" ");
  const index = sourceArgument(command);
  if (argv.length === 0) {
    throw new UsageError(`"--" must be followed by the server's command`, {
      hint: `jn ${name} -- PROGRAM ARGS…, e.g. jn inspect -- node server.js`,
    });
  }
  const last = argv[argv.length - 1];
  if (OPERATION.test(last)) {
    throw new UsageError(`"${last}" is after --, where every word is the server's`, {
      hint: `put the query before --: jn ${name} '${last}' -- ${argv.slice(0, -1).join(" ")}`,
    });
  }
  const words = [...positionals];
  if (command.args[index].variadic) return [...words, argvUri(argv)];
  const given = words[index];
  if (given?.startsWith("?")) {
    words[index] = argvUri(argv, given);
    return words;
  }
  if (given !== undefined && (given.startsWith("mcp+") || given.startsWith("@"))) {
    throw new UsageError(`Two servers: "${given}" and the command after --`, {
      hint: "give one: a SOURCE, or -- PROGRAM ARGS… with its query alone before -- " +
        `(jn ${name} '?tool=NAME' -- PROGRAM ARGS…)`,
    });
  }
  words.splice(index, 0, argvUri(argv));
  return words;
}

/** A word that reads as jn's query (`?tool=…`, `?list=…`) rather than a server argument. */
const OPERATION = new RegExp(
  `^\\?(${QUERY_KEYS.filter((key) => key.kind === "operation").map((k) => k.name).join("|")})=`,
);
