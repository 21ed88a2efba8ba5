/**
 * The flags of `jn host add|remove|list` (lib/cli/commands/host.ts): which
 * of a host's files, the entry's name, a dry run, replacing an entry that
 * is not jn's, and the listing's format.
 *
 * @module
 */

import { flag, setTrue, text } from "./flag.ts";

/** `host add|remove`'s flags. */
export const HOST_FLAGS = [
  flag({
    long: "project",
    key: "project",
    help: "the host's project config (.mcp.json, .cursor/, .vscode/, .zed/) instead of yours",
    apply: setTrue,
  }),
  flag({
    long: "name",
    value: "name",
    key: "name",
    help: "the entry's name in the host's config (default: the profile's)",
    apply: text,
  }),
  flag({
    long: "dry-run",
    key: "dryRun",
    help: "print the entry (JSON, as the file would hold it), write nothing",
    apply: setTrue,
  }),
] as const;

/** `host add`'s `--force`. */
export const HOST_FORCE = flag({
  long: "force",
  key: "force",
  help: "replace an entry of that name that does not run jn (the file is backed up first)",
  apply: setTrue,
});

/** `host list --format text|ndjson` (default: text on a terminal, NDJSON on a pipe). */
export const HOST_LIST_FORMAT = flag({
  long: "format",
  value: "format",
  key: "format",
  help: "text or ndjson (default: text on a terminal, ndjson otherwise)",
  apply: (_current: "text" | "ndjson" | undefined, value: string) => value as "text" | "ndjson",
  choices: ["text", "ndjson"] as const,
});
