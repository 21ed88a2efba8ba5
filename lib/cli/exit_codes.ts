/**
 * The exit codes of SPEC §6 (declared in exit_table.ts), and the one map from what happened — an error
 * thrown by any layer, or the outcome a command returned — to the code the
 * process exits with.
 *
 * @module
 */

import {
  ConfigError,
  ConnectionError,
  InterruptedError,
  isPermissionRefusal,
  LaunchError,
  ProtocolError,
  SandboxError,
  stateWriteError,
  UsageError,
  WriteError,
} from "../errors.ts";
import type { Outcome } from "./context.ts";
import { ExitCode } from "./exit_table.ts";

export { ExitCode } from "./exit_table.ts";

/** The exit code of an error. */
export function exitCodeFor(error: unknown): number {
  if (error instanceof InterruptedError) return ExitCode.interrupted;
  if (error instanceof WriteError) {
    return error.target === "output" || error.code === "ENAMETOOLONG"
      ? ExitCode.usage
      : ExitCode.config;
  }
  if (error instanceof UsageError) return ExitCode.usage;
  if (error instanceof ConfigError) return ExitCode.config;
  if (error instanceof LaunchError || error instanceof ConnectionError) {
    return ExitCode.connection;
  }
  if (error instanceof ProtocolError) return ExitCode.protocol;
  if (error instanceof SandboxError) return ExitCode.sandbox;
  if (isPermissionRefusal(error)) return ExitCode.sandbox;
  const state = stateWriteError(error);
  if (state) return exitCodeFor(state);
  return ExitCode.internal;
}

/** The exit code of a command's outcome. */
export function outcomeExitCode(outcome: Outcome): number {
  if (typeof outcome === "object") return outcome.halt;
  switch (outcome) {
    case "ok":
      return ExitCode.ok;
    case "tool_error":
    case "failed_records":
    case "no_match":
      return ExitCode.toolError;
    case "breaking_drift":
      return ExitCode.config;
    default: {
      const never: never = outcome;
      throw new Error(`Unknown outcome ${never}`);
    }
  }
}
