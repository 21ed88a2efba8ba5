/**
 * Flags shared by the commands that talk to a server, and their parsing into
 * typed values (phase two of argument parsing: commander gives strings, this
 * gives numbers and unions or throws a UsageError).
 *
 * @module
 */

import type { Command } from "commander";
import { UsageError } from "../errors.ts";
import type { ProtocolMode } from "../session/session.ts";
import { parseDuration } from "./duration.ts";

/** The raw flag values commander collects for a server command. */
export interface RawCallFlags {
  arg?: string[];
  args?: string;
  timeout?: string;
  connectTimeout?: string;
  protocol?: string;
  ignoreSchema?: boolean;
  envPassthrough?: string[];
  progress?: boolean;
  logLevel?: string;
  json?: boolean;
}

/** Typed flags of a server command. */
export interface CallFlags {
  arg: string[];
  args?: string;
  timeoutMs: number;
  connectTimeoutMs: number;
  protocol: ProtocolMode;
  ignoreSchema: boolean;
  envPassthrough: string[];
  progress: boolean;
  logLevel: LogLevel;
  json: boolean;
}

/** MCP log levels, least severe first (RFC 5424 names). */
export const LOG_LEVELS = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
] as const;
/** One MCP log level. */
export type LogLevel = typeof LOG_LEVELS[number];

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** Adds the flags every server command accepts. */
export function addConnectionOptions(command: Command): Command {
  return command
    .option("--timeout <duration>", "bound of each request (progress resets it); 0 = none", "60s")
    .option("--connect-timeout <duration>", "bound of starting the server and the handshake", "60s")
    .option("--protocol <mode>", "protocol era: auto, legacy (2025) or a revision to pin", "auto")
    .option(
      "--env-passthrough <VAR>",
      "pass a variable of yours to the server (repeatable)",
      collect,
    )
    .option("--progress", "print progress notifications as lines on stderr")
    .option("--log-level <level>", `server log messages shown on stderr: ${LOG_LEVELS.join("|")}`)
    .option("--ignore-schema", "skip the profile's schema drift check");
}

/** Adds the argument flags of commands that call a tool or get a prompt. */
export function addArgumentOptions(command: Command): Command {
  return command
    .option("--arg <key=value>", "an argument for the tool or prompt (repeatable)", collect)
    .option("--args <json>", "arguments as a JSON object");
}

/** Turns commander's strings into typed flags. */
export function parseCallFlags(raw: RawCallFlags): CallFlags {
  return {
    arg: raw.arg ?? [],
    args: raw.args,
    timeoutMs: parseDuration(raw.timeout ?? "60s", "--timeout"),
    connectTimeoutMs: parseDuration(raw.connectTimeout ?? "60s", "--connect-timeout"),
    protocol: parseProtocol(raw.protocol ?? "auto"),
    ignoreSchema: raw.ignoreSchema === true,
    envPassthrough: parseEnvNames(raw.envPassthrough ?? []),
    progress: raw.progress === true,
    logLevel: parseLogLevel(raw.logLevel ?? "info"),
    json: raw.json === true,
  };
}

function parseProtocol(text: string): ProtocolMode {
  if (text === "auto" || text === "legacy") return text;
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return { pin: text };
  throw new UsageError(`Invalid --protocol "${text}"`, {
    hint: "use auto, legacy, or a revision such as 2026-07-28",
  });
}

function parseEnvNames(names: string[]): string[] {
  for (const name of names) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      throw new UsageError(`Invalid --env-passthrough "${name}": not a variable name`, {
        hint: "give the name only, e.g. --env-passthrough GITHUB_TOKEN",
      });
    }
  }
  return names;
}

function parseLogLevel(text: string): LogLevel {
  const level = LOG_LEVELS.find((candidate) => candidate === text.toLowerCase());
  if (!level) {
    throw new UsageError(`Invalid --log-level "${text}"`, {
      hint: `use one of ${LOG_LEVELS.join(", ")}`,
    });
  }
  return level;
}
