/**
 * The typed form of what a user names on the command line: a naked MCP URI or
 * a profile reference, and the operation it asks for. Pure data, no I/O.
 *
 * @module
 */

/**
 * A launcher of naked URIs, by the scheme `mcp+SCHEME://` names it: one of
 * the schemes lib/launch/registry.ts lists (`uvx`, `npx`, `python`, `node`,
 * `deno`, `http`, `https`).
 */
export type Launcher = string;

/** What kind of list `?list=` asks for. */
export type ListKind = "tools" | "resources" | "templates" | "prompts";

/** The operation a source asks for. */
export type Operation =
  /** No operation named: `inspect` lists everything; `cat` refuses. */
  | { kind: "none" }
  | { kind: "tool"; name: string }
  | { kind: "resource"; uri: string }
  | { kind: "prompt"; name: string }
  | { kind: "list"; what: ListKind }
  /**
   * A task the server runs (`?task=ID`, printed by `--detach`): wait for it
   * and fetch its result; `tool` names the tool it runs, when given;
   * `session` the HTTP session it lives in (`session=`), when the server
   * keeps tasks per session.
   */
  | { kind: "task"; id: string; tool?: string; session?: string };

/** One `key=value` argument in the order it was given. Values are raw strings. */
export interface RawArg {
  /** The argument's name. */
  key: string;
  /** Its value, as text. */
  value: string;
}

/** A naked URI: `mcp+LAUNCHER://LOCATION[?QUERY]`. */
export interface NakedSource {
  /** A naked URI. */
  kind: "naked";
  /** The URI as the user typed it. */
  raw: string;
  /** How the server is started (or reached, for http/https). */
  launcher: Launcher;
  /**
   * LOCATION, verbatim, never read as a URL authority: a package
   * (`@scope/pkg@1.2.3`, `biomcp-python/biomcp`) or a path (`./server.py`,
   * `/abs/server.js`), percent-decoded; or for http(s) `host[:port]/path`,
   * kept encoded because it becomes part of a URL.
   */
  location: string;
  /** Values of repeatable `command=` keys, in order: appended to the server's argv. */
  command: string[];
  /** What to do on the server. */
  operation: Operation;
  /** Tool or prompt arguments from the query string, in order. */
  args: RawArg[];
}

/** A profile reference: `@server[/tool][?QUERY]`. */
export interface ProfileSource {
  /** A profile reference. */
  kind: "profile";
  /** The reference as the user typed it. */
  raw: string;
  /** The server (profile directory) name. */
  server: string;
  /** What to do on the server (a tool name is the profile's, mapped when resolved). */
  operation: Operation;
  /** Tool or prompt arguments from the query string, in order. */
  args: RawArg[];
}

/** Anything `inspect`, `cat`, `head`, `tail` and `put` accept. */
export type Source = NakedSource | ProfileSource;
