/**
 * Sources and arguments as jn reads them: a naked URI (`mcp+uvx://PKG`,
 * `mcp+https://…`) or a profile reference (`@server/tool`) parsed into a
 * {@linkcode Source} (SPEC §2), with a caret under the spot of a syntax
 * error ({@linkcode formatCaret}); and a call's arguments merged from every
 * place they come from ({@linkcode collectArgs}: profile defaults < URI
 * query < `--args` < `--arg`), then typed ({@linkcode typedArgs}).
 * `resolveTarget` and `prepareCat` (`@jn/jn`) do both for a verb.
 *
 * @example Parse a source, merge its arguments
 * ```ts
 * import { collectArgs, parseSource } from "@jn/jn/source";
 *
 * const source = parseSource("mcp+uvx://mcp-server-time?tool=get_time&timezone=UTC");
 * console.log(source.kind, source.operation); // "naked" { kind: "tool", name: "get_time" }
 * const args = collectArgs({ query: source.args, arg: ["timezone=Europe/Paris"] });
 * console.log(args.get("timezone")); // { kind: "raw", values: ["Europe/Paris"] }
 * ```
 *
 * @module
 */

export { formatCaret, parseSource } from "../lib/uri/parse.ts";
export type {
  Launcher,
  ListKind,
  NakedSource,
  Operation,
  ProfileSource,
  RawArg,
  Source,
} from "../lib/uri/source.ts";
export {
  type ArgPairs,
  type ArgSources,
  type ArgValue,
  collectArgs,
  typedArgs,
} from "../lib/args/collect.ts";
