/**
 * A session's own process reaching its own server: a command forwarded to
 * the session (lib/cli/forward_serve.ts) runs in the session's process,
 * and its `open()` finds the session as any call does (session_lookup.ts)
 * — then connects in memory instead of through the socket: the same bytes
 * (one JSON-RPC message a line), the same SDK client and the same proxy
 * connection, without a round trip through the kernel.
 *
 * Guarantees: only the process serving a session registers it (by its
 * socket's path), so another process never finds a local way in; both ends
 * of an in-memory connection see the other's close as the end of their
 * input; a closed end takes no more bytes.
 *
 * @module
 */

/** One end of a byte connection, as the session's socket transport uses it (a Unix socket's). */
export interface ByteDuplex {
  readonly readable: ReadableStream<Uint8Array>;
  write(bytes: Uint8Array): Promise<number>;
  close(): void;
}

/** The other end, as the shared proxy serves it (lib/serve/shared.ts `SharedConnection`). */
export interface ServedEnd {
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream<Uint8Array>;
  close(): void;
}

const local = new Map<string, (end: ServedEnd) => void>();

/** Serves in-memory connections to the session at `socket` (its own process only); returns the end. */
export function registerLocalSession(socket: string, serve: (end: ServedEnd) => void): () => void {
  local.set(socket, serve);
  return () => {
    if (local.get(socket) === serve) local.delete(socket);
  };
}

/** A connector to the session at `socket` when this process serves it; undefined otherwise. */
export function localConnector(socket: string): (() => Promise<ByteDuplex>) | undefined {
  const serve = local.get(socket);
  return serve && (() => Promise.resolve(connectInMemory(serve)));
}

/** A pair of in-memory byte streams: one end served, the other returned. */
function connectInMemory(serve: (end: ServedEnd) => void): ByteDuplex {
  const up = new TransformStream<Uint8Array, Uint8Array>();
  const down = new TransformStream<Uint8Array, Uint8Array>();
  const writer = up.writable.getWriter();
  let clientClosed = false;
  let servedClosed = false;
  serve({
    readable: up.readable,
    writable: down.writable,
    close() {
      if (servedClosed) return;
      servedClosed = true;
      void up.readable.cancel().catch(() => {});
      void down.writable.close().catch(() => {});
    },
  });
  return {
    readable: down.readable,
    async write(bytes) {
      if (clientClosed) throw new Deno.errors.BrokenPipe("the connection is closed");
      await writer.write(bytes.slice());
      return bytes.length;
    },
    close() {
      if (clientClosed) return;
      clientClosed = true;
      void writer.close().catch(() => {});
    },
  };
}
