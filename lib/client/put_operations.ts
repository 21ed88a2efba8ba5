/**
 * The operations of `put` to a target with no tool (`jn put @server`): each
 * input line names its own operation (lib/put/operation.ts), run with the
 * policy of a single call of that operation, its records those `cat` prints
 * for it, with `"input": N`.
 *
 * Per operation:
 * - `tool`: a profile's tool name maps to the server's tool and its
 *   `defaults` (a record's `arguments` win), as `@server/NAME` would
 *   (lib/client/resolve.ts); the tool is found as a call finds it
 *   ({@linkcode connectionTool}: the profile's `allow_tools`/`deny_tools`
 *   judge the name the record used, a refused or missing name is an
 *   `unknown_tool` record with the did-you-mean hint, a profile tool the
 *   server no longer offers is a `drift` record); the arguments are
 *   validated strictly against the tool's `inputSchema` and never converted
 *   (an `invalid_arguments` record; an undeclared name too unless
 *   `allowUnknown`); a tool that requires a task runs as one. An `isError`
 *   result is a `tool_error` record.
 * - `resource`: read (its records `resource_content`); a resource the server
 *   does not have is its `rpc_error`, with the did-you-mean hint.
 * - `prompt`: its arguments checked against what the prompt declares
 *   (lib/args/prompt.ts): an `unknown_prompt` or `invalid_arguments` record.
 * - `list`: the listing, as `?list=KIND` gives it (the profile's curation
 *   applies to tools).
 *
 * A request that throws is classified as for a tool target (timeouts,
 * cancellation, a server gone: lib/put/records.ts), with the error's hint.
 *
 * @module
 */

import { typedArgs } from "../args/collect.ts";
import { promptArguments } from "../args/prompt.ts";
import { DriftError, UsageError } from "../errors.ts";
import type { NdjsonLine } from "../ndjson/read.ts";
import {
  promptMessageRecords,
  promptRecords,
  resourceContentRecords,
  resourceRecords,
  resourceTemplateRecords,
  toolRecords,
} from "../output/records.ts";
import { argumentChecker } from "../put/arguments.ts";
import { lineSubject, type PutOperation, readOperation } from "../put/operation.ts";
import { BreakerOpen, type Outcome } from "../put/ordered.ts";
import { callRunner, errorOutcomes, recordsOutcome, thrownOutcome } from "../put/outcome.ts";
import {
  errorRecord,
  notAttemptedRecord,
  notCalledRecord,
  type PutErrorKind,
  type Subject,
} from "../put/records.ts";
import type { ListKind } from "../uri/source.ts";
import { connectionTool } from "./call.ts";
import type { Connection } from "./connection.ts";
import { schemaEngine } from "./schema_engine.ts";
import { callAsTask, wantsTask } from "./task.ts";
import { list, read } from "./verbs.ts";

/** Options of {@linkcode operationRunner}. */
export interface OperationRunnerOptions {
  /** The payload instead of the envelope, of a tool's result or a JSON resource. */
  json?: boolean;
  /** Send tool and prompt arguments that are not declared. */
  allowUnknown?: boolean;
}

/** The jobs of `runOrdered` (lib/put/ordered.ts) for an operations target. */
export interface OperationRunner {
  handle(line: NdjsonLine): Outcome | Promise<Outcome>;
  skip(line: NdjsonLine, cause: unknown): Outcome;
}

/** A tool as a record may name it: the server's tool, its defaults, and its caller. */
interface ToolRoute {
  serverTool: string;
  defaults: Record<string, unknown>;
  call(input: number, args: Record<string, unknown>, record: unknown): Promise<Outcome> | Outcome;
}

const LISTINGS: { [K in ListKind]: (conn: Connection) => Promise<unknown[]> } = {
  tools: async (conn) => toolRecords(await list(conn, "tools")),
  resources: async (conn) => resourceRecords(await list(conn, "resources")),
  templates: async (conn) => resourceTemplateRecords(await list(conn, "templates")),
  prompts: async (conn) => promptRecords(await list(conn, "prompts")),
};

/** The runner of every line of an operations put over `conn`. */
export async function operationRunner(
  conn: Connection,
  options: OperationRunnerOptions = {},
): Promise<OperationRunner> {
  const json = options.json === true;
  const allowUnknown = options.allowUnknown === true;
  const failed = errorOutcomes(conn.secrets);
  const seen = new WeakSet<object>();
  const engine = await schemaEngine();
  const { profileTool } = await import("../profile/resolve.ts");
  const routes = new Map<string, ToolRoute>();

  const thrown = (input: number, subject: Subject, error: unknown): Outcome =>
    thrownOutcome(input, subject, { error, seen, failed, hint: true });
  const refused = (input: number, subject: Subject, kind: PutErrorKind, error: JnLike) =>
    failed(
      errorRecord(input, subject, { kind, error: error.message }, hintOf(error)),
      false,
    );

  /** The route of the tool a record names; an error outcome when there is none. */
  const route = async (input: number, name: string): Promise<ToolRoute | Outcome> => {
    const known = routes.get(name);
    if (known !== undefined) return known;
    const profiled = conn.target.profile && profileTool(conn.target.profile, name);
    const serverTool = profiled?.serverTool ?? name;
    let info;
    try {
      info = await connectionTool(conn, serverTool, { asked: name });
    } catch (error) {
      const cause = conn.explain(error);
      if (cause instanceof DriftError) return refused(input, { tool: name }, "drift", cause);
      if (cause instanceof UsageError) return refused(input, { tool: name }, "unknown_tool", cause);
      return thrown(input, { tool: name }, cause);
    }
    const check = argumentChecker(serverTool, { schema: info.inputSchema, engine, allowUnknown });
    const invoke = wantsTask(conn, info, false)
      ? (args: Record<string, unknown>) => callAsTask(conn, serverTool, args)
      : (args: Record<string, unknown>) => conn.session.callTool(serverTool, args);
    const callOne = callRunner(invoke, serverTool, { json, failed, seen });
    const made: ToolRoute = {
      serverTool,
      defaults: { ...profiled?.def.defaults },
      call(input, args, record) {
        const prepared = check(args, input, record);
        return prepared.kind === "error"
          ? failed(prepared.record, false)
          : callOne(input, prepared.args);
      },
    };
    routes.set(name, made);
    return made;
  };

  const runTool = async (
    input: number,
    operation: Extract<PutOperation, { kind: "tool" }>,
    record: unknown,
  ): Promise<Outcome> => {
    const found = await route(input, operation.name);
    if (!("call" in found)) return found;
    return await found.call(input, { ...found.defaults, ...operation.arguments }, record);
  };

  const runPrompt = async (
    input: number,
    operation: Extract<PutOperation, { kind: "prompt" }>,
  ): Promise<Outcome> => {
    const subject = { prompt: operation.name };
    let prompts;
    try {
      prompts = await conn.session.listPrompts();
    } catch (error) {
      return thrown(input, subject, conn.explain(error));
    }
    let args: Record<string, string>;
    try {
      args = promptArguments(
        prompts,
        operation.name,
        typedArgs(operation.arguments),
        conn.target.name,
        { allowUnknown },
      );
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      // The message says what is wrong; a hint beyond a did-you-mean is written for a URI query.
      return prompts.some((prompt) => prompt.name === operation.name)
        ? refused(input, subject, "invalid_arguments", { message: error.message })
        : refused(input, subject, "unknown_prompt", error);
    }
    try {
      const result = await conn.session.getPrompt(operation.name, args);
      return recordsOutcome(promptMessageRecords(operation.name, result), input);
    } catch (error) {
      return thrown(input, subject, conn.explain(error));
    }
  };

  const run = async (input: number, operation: PutOperation, record: unknown) => {
    switch (operation.kind) {
      case "tool":
        return await runTool(input, operation, record);
      case "prompt":
        return await runPrompt(input, operation);
      case "resource":
        return await read(conn, operation.uri).then(
          (contents) => recordsOutcome(resourceContentRecords(contents, { json }), input),
          (error) => thrown(input, { resource: operation.uri }, error),
        );
      case "list":
        return await LISTINGS[operation.what](conn).then(
          (records) => recordsOutcome(records, input),
          (error) => thrown(input, { list: operation.what }, error),
        );
    }
  };

  return {
    handle(line) {
      const read = readOperation(line);
      if (read.kind === "error") return failed(read.record, false);
      return run(line.number, read.operation, read.record);
    },
    skip(line, cause) {
      const subject = lineSubject(line);
      return failed(
        cause instanceof BreakerOpen
          ? notAttemptedRecord(line.number, subject, cause.timeouts)
          : notCalledRecord(line.number, subject, cause),
        false,
      );
    },
  };
}

/** What an error record needs of an error: its message, and its hint when it has one. */
interface JnLike {
  message: string;
  hint?: string;
}

function hintOf(error: JnLike): Record<string, unknown> {
  return error.hint === undefined ? {} : { hint: error.hint };
}
