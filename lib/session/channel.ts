/**
 * A channel is how a session reaches its server: a transport for the SDK plus
 * what jn needs around it — the server's stderr tail and exit status (stdio),
 * a teardown that ends whatever the transport started (a process tree, an
 * HTTP session), and the transport's own reading of its failures.
 *
 * @module
 */

import type { Transport } from "@modelcontextprotocol/client";
import { type JnError, ProtocolError } from "../errors.ts";
import type { StdioLaunch } from "../launch/spec.ts";
import { ProcessTransport, type ProcessTransportOptions } from "./process_transport.ts";

/** How a process ended. */
export interface ExitStatus {
  code: number | null;
  signal: string | null;
}

/** What a session talks through. */
export interface Channel {
  /** The transport the SDK client connects to. */
  readonly transport: Transport;
  /** `stdio`, `streamable-http`, `sse`, or `session`: a jn session's socket (for `--debug`). */
  readonly kind: "stdio" | "streamable-http" | "sse" | "session";
  /** The last lines the server wrote to stderr ("" when there is no process). */
  stderrTail(): string;
  /** How the server process ended, once it has (never for HTTP). */
  exitStatus(): ExitStatus | undefined;
  /** Ends the remote side before the client closes (HTTP: terminate the session). */
  shutdown(): Promise<void>;
  /**
   * Leaves the remote session open when the channel closes (a detached task
   * may live in it) and gives its id; undefined where there is none.
   */
  keepSession?(): string | undefined;
  /** Ends the transport and whatever it started. Idempotent. */
  close(): Promise<void>;
  /** A transport-specific reading of a failure, or undefined for the generic one. */
  translate(error: unknown, label: string): JnError | undefined;
}

/** A server started as a child process. */
export class StdioChannel implements Channel {
  readonly kind = "stdio";
  readonly transport: ProcessTransport;

  constructor(launch: StdioLaunch, options: ProcessTransportOptions) {
    this.transport = new ProcessTransport(launch, options);
  }

  stderrTail(): string {
    return this.transport.stderrTail();
  }

  exitStatus(): ExitStatus | undefined {
    return this.transport.exitStatus();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    return this.transport.close();
  }

  /** Silence plus text on stdout: the server speaks something, just not JSON-RPC. */
  translate(error: unknown, label: string): JnError | undefined {
    const noise = this.transport.firstNoise;
    if (noise === undefined || this.transport.received > 0) return undefined;
    return new ProtocolError(
      `The server wrote text that is not JSON-RPC to stdout instead of answering ${label}: ${
        JSON.stringify(noise.slice(0, 120))
      }`,
      {
        cause: error,
        hint:
          "an MCP stdio server must write only JSON-RPC messages to stdout (logs belong on stderr)",
      },
    );
  }
}

/** Finds the first error in a cause chain (and SDK `data.cause`) that matches. */
export function findCause<T>(
  error: unknown,
  match: (candidate: unknown) => T | undefined,
): T | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current !== undefined && current !== null; depth++) {
    const found = match(current);
    if (found !== undefined) return found;
    const next = (current as { cause?: unknown }).cause ??
      (current as { data?: { cause?: unknown } }).data?.cause;
    if (next === current) break;
    current = next;
  }
  return undefined;
}
