/**
 * The host's side of stdio: newline-delimited JSON-RPC read from a byte
 * stream (stdin) and written to another (stdout), as an SDK transport. The
 * SDK's own stdio server transport concatenates its buffer at every chunk
 * (quadratic in a line's length) and ends the connection at its bound; this
 * one frames with jn's line splitter (lib/ndjson/split.ts), and the SDK
 * still parses and checks each message (`deserializeMessage`).
 *
 * Guarantees: linear time whatever a line's length; a line longer than
 * `maxLineBytes` is dropped (reported) and the connection goes on; a line
 * that is not a JSON-RPC message is reported and skipped; messages are
 * written whole and in order, those sent while a write is under way
 * together in the next one, waiting while the host does not read
 * (backpressure) — but at most {@linkcode MAX_PENDING_CHARS} characters
 * wait: past that a notification is dropped (said once, `onerror`), and a
 * response or request, which could not be delivered, closes the connection
 * at once (a host that stops reading cannot grow jn's memory without
 * bound); the end of the input (the host quit) or a failed write (the host
 * went away) closes the transport once, and `close()` releases the input so
 * that nothing keeps the process alive.
 *
 * @module
 */

import { deserializeMessage, serializeMessage, type Transport } from "@modelcontextprotocol/server";
import { LineSplitter } from "../ndjson/split.ts";

type Message = Parameters<Transport["send"]>[0];

/** The most characters waiting to be written to the host (about 8 MiB of JSON). */
export const MAX_PENDING_CHARS = 8 * 1024 * 1024;

/** Options of {@linkcode StdioTransport}. */
export interface StdioTransportOptions {
  /** The host's messages (default: this process's stdin). */
  input?: ReadableStream<Uint8Array>;
  /** Where answers go (default: this process's stdout). */
  output?: WritableStream<Uint8Array>;
  /** The longest line taken; a longer one is dropped. */
  maxLineBytes: number;
}

/** An SDK transport over a pair of byte streams. */
export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport["onmessage"];
  #reader: ReadableStreamDefaultReader<Uint8Array>;
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #splitter: LineSplitter;
  #encoder = new TextEncoder();
  #writing: Promise<void> = Promise.resolve();
  #outbox: string[] = [];
  /** Characters in the outbox and in the write under way. */
  #pending = 0;
  #dropping = false;
  #flushing?: Promise<void>;
  #closed = false;

  constructor(options: StdioTransportOptions) {
    this.#reader = (options.input ?? Deno.stdin.readable).getReader();
    this.#writer = (options.output ?? Deno.stdout.writable).getWriter();
    this.#splitter = new LineSplitter({
      line: (text) => this.#line(text),
      tooLarge: () =>
        this.onerror?.(
          new Error(`a message longer than ${options.maxLineBytes} bytes was dropped`),
        ),
    }, { maxBytes: options.maxLineBytes });
  }

  start(): Promise<void> {
    void this.#read();
    return Promise.resolve();
  }

  async #read(): Promise<void> {
    try {
      for (;;) {
        const { value, done } = await this.#reader.read();
        if (done) break;
        this.#splitter.push(value);
      }
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
      this.onerror?.(
        new Error(`a line that is not a JSON-RPC message was skipped: ${(error as Error).message}`),
      );
      return;
    }
    this.onmessage?.(message);
  }

  send(message: Message): Promise<void> {
    if (this.#closed) return Promise.reject(new Error("The host's connection is closed"));
    const text = serializeMessage(message);
    if (this.#pending + text.length > MAX_PENDING_CHARS) return this.#overflow(message);
    this.#pending += text.length;
    this.#outbox.push(text);
    // Messages sent while a write is under way go out together in the next one.
    this.#flushing ??= this.#writing.then(() => this.#flush());
    const write = this.#flushing;
    return write.catch(async (error) => {
      // The host went away: nothing more can reach it.
      await this.close();
      throw error;
    });
  }

  async #flush(): Promise<void> {
    this.#flushing = undefined;
    const text = this.#outbox.join("");
    this.#outbox = [];
    const write = (async () => {
      await this.#writer.ready;
      await this.#writer.write(this.#encoder.encode(text));
      this.#pending -= text.length;
    })();
    this.#writing = write.catch(() => {});
    await write;
  }

  /** Too much waits for the host: a notification is dropped, anything else ends the connection. */
  #overflow(message: Message): Promise<void> {
    if (!("id" in message)) {
      if (!this.#dropping) {
        this.onerror?.(new Error("the host does not read: dropping notifications"));
      }
      this.#dropping = true;
      return Promise.resolve();
    }
    const error = new Error("the host does not read: its connection is closed");
    this.onerror?.(error);
    // Closed at once, not after what it will never read: its owner ends the stream.
    if (!this.#closed) {
      this.#closed = true;
      void this.#reader.cancel().catch(() => {});
      void this.#writer.abort(error).catch(() => {});
      this.onclose?.();
    }
    return Promise.reject(error);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#reader.cancel().catch(() => {});
    // What was sent before the close still goes out.
    await (this.#flushing ?? this.#writing).catch(() => {});
    await this.#writing;
    this.#writer.releaseLock();
    this.onclose?.();
  }
}
