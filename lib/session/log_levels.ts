/**
 * MCP's log levels (`logging/setLevel`, `notifications/message`), least
 * severe first: the one list jn's flags, its calls and `jn serve` read.
 *
 * @module
 */

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
