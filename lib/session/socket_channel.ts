/**
 * A channel to a jn session (lib/client/session_run.ts): the server it
 * holds is reached over a Unix socket (or, from the session's own process,
 * an in-memory connection of the same bytes), framed as stdio is — one
 * JSON-RPC message a line — and spoken to through the SDK client like any
 * server.
 * Nothing is started: closing the channel ends this connection only, never
 * the session or its server.
 *
 * Guarantees: messages are written whole and in order; a line longer than
 * the bound is a protocol error (the session's proxy never sends one); a
 * line that is not a JSON-RPC message is an error of the transport, not a
 * crash; the end of the stream (the session ended) closes the transport
 * once; `close()` is idempotent and releases the socket.
 *
 * @module
 */

import { deserializeMessage, serializeMessage, type Transport } from "@modelcontextprotocol/client";
import { ConnectionError, type JnError } from "../errors.ts";
import { LineSplitter } from "../ndjson/split.ts";
import { type Channel, type ExitStatus, findCause } from "./channel.ts";
import { MAX_MESSAGE_BYTES } from "./process_transport.ts";

type Message = Parameters<Transport["send"]>[0];

/** A byte connection to a session: its socket, or (in the session's own process) memory. */
export interface SessionConn {
  readonly readable: ReadableStream<Uint8Array>;
  write(bytes: Uint8Array): Promise<number>;
  close(): void;
}

/** An SDK transport over a Unix socket (or a connection like one), one JSON-RPC message a line. */
export class SocketTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport["onmessage"];
  readonly path: string;
  #connect: () => Promise<SessionConn>;
  #conn?: SessionConn;
  #splitter: LineSplitter;
  #encoder = new TextEncoder();
  #writing: Promise<void> = Promise.resolve();
  #closed = false;

  /** The socket at `path`, reached by `connect` when given (else a Unix socket connection). */
  constructor(path: string, connect?: () => Promise<SessionConn>) {
    this.path = path;
    this.#connect = connect ?? (() => Deno.connect({ transport: "unix", path }));
    this.#splitter = new LineSplitter({
      line: (text) => this.#line(text),
      tooLarge: () =>
        this.onerror?.(new Error(`a message longer than ${MAX_MESSAGE_BYTES} bytes was dropped`)),
    }, { maxBytes: MAX_MESSAGE_BYTES });
  }

  async start(): Promise<void> {
    this.#conn = await this.#connect();
    void this.#read(this.#conn);
  }

  async #read(conn: SessionConn): Promise<void> {
    try {
      for await (const chunk of conn.readable) this.#splitter.push(chunk);
      this.#splitter.end();
    } catch (error) {
      if (!this.#closed) this.onerror?.(error as Error);
    }
    await this.close();
  }

  #line(text: string): void {
    if (this.#closed || text.trim() === "") return;
    let message: Message;
    try {
      message = deserializeMessage(text) as Message;
    } catch (error) {
      this.onerror?.(new Error(`not a JSON-RPC message: ${(error as Error).message}`));
      return;
    }
    this.onmessage?.(message);
  }

  send(message: Message): Promise<void> {
    const conn = this.#conn;
    if (this.#closed || !conn) return Promise.reject(new Error("The session's socket is closed"));
    const bytes = this.#encoder.encode(serializeMessage(message));
    const write = this.#writing.then(async () => {
      for (let sent = 0; sent < bytes.length;) {
        sent += await conn.write(bytes.subarray(sent));
      }
    });
    this.#writing = write.catch(() => {});
    return write;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#writing;
    try {
      this.#conn?.close();
    } catch { /* already closed by the peer */ }
    this.onclose?.();
  }
}

/** The channel of a session's socket. */
export class SocketChannel implements Channel {
  readonly kind = "session";
  readonly transport: SocketTransport;
  #server: string;

  /**
   * The socket at `path`, of the session that holds the server `server`
   * (for messages); `connect` reaches it another way (memory, in the
   * session's own process: lib/client/session_local.ts).
   */
  constructor(path: string, server: string, connect?: () => Promise<SessionConn>) {
    this.transport = new SocketTransport(path, connect);
    this.#server = server;
  }

  stderrTail(): string {
    return "";
  }

  exitStatus(): ExitStatus | undefined {
    return undefined;
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    return this.transport.close();
  }

  /** A socket no one listens on any more: the session has ended. */
  translate(error: unknown, _label: string): JnError | undefined {
    const gone = findCause(
      error,
      (cause) =>
        cause instanceof Deno.errors.ConnectionRefused || cause instanceof Deno.errors.NotFound
          ? cause
          : undefined,
    );
    if (gone === undefined) return undefined;
    return new ConnectionError(`The session of "${this.#server}" is no longer running`, {
      cause: error,
      hint: "start it again (jn session start), or call without it (--no-session)",
    });
  }
}
