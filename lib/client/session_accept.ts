/**
 * What comes to a session's socket, told apart by its first bytes: an MCP
 * client (a calling jn's SDK client, a library's `open()`) is served by the
 * session's proxy; a calling `jn` that forwards its whole command opens
 * with jn's forwarding magic (session_frames.ts) and goes to the forwarding
 * handler the session was given (lib/cli/forward_serve.ts), or is closed
 * when it has none.
 *
 * Guarantees: the bytes read to tell them apart are handed on, none lost;
 * a connection that says nothing for {@linkcode FIRST_BYTES_MS} is closed
 * (it holds nothing open); every connection is accepted until the
 * listener closes, but one that comes while {@linkcode MAX_UNGREETED}
 * others have not yet said what they are (an MCP client's first bytes, a
 * forwarding caller's hello) is closed at once: a flood of silent or slow
 * connections holds a bounded amount of the session.
 *
 * @module
 */

import { FORWARD_MAGIC, magicOf } from "./session_frames.ts";
import type { ServedEnd } from "./session_local.ts";

/** How long a new connection may take to send its first bytes (ms). */
export const FIRST_BYTES_MS = 10_000;

/** How many connections may be between their accept and their greeting at once. */
export const MAX_UNGREETED = 64;

/** Where a session's connections go. */
export interface SessionDoors {
  /** An MCP connection: the proxy serves it. */
  serve(end: ServedEnd): void;
  /**
   * A forwarding connection (its first bytes after the magic): runs the
   * command, if any may; calls `greeted` once the caller said what to run.
   */
  forward?: (conn: Deno.UnixConn, rest: Uint8Array, greeted: () => void) => Promise<void>;
}

/** How many forwarded commands run now (a session is not idle while one does). */
export interface Accepting {
  readonly forwarding: number;
}

/** Accepts connections until the listener closes, each through its door. */
export function acceptConnections(listener: Deno.UnixListener, doors: SessionDoors): Accepting {
  const state = { forwarding: 0, ungreeted: 0 };
  void (async () => {
    try {
      for await (const conn of listener) {
        if (state.ungreeted >= MAX_UNGREETED) close(conn);
        else void route(conn, doors, state);
      }
    } catch { /* the listener closed */ }
  })();
  return state;
}

async function route(
  conn: Deno.UnixConn,
  doors: SessionDoors,
  state: { forwarding: number; ungreeted: number },
): Promise<void> {
  state.ungreeted++;
  let waiting = true;
  const greeted = () => {
    if (waiting) state.ungreeted--;
    waiting = false;
  };
  try {
    await routeGreeted(conn, doors, state, greeted);
  } finally {
    greeted();
  }
}

async function routeGreeted(
  conn: Deno.UnixConn,
  doors: SessionDoors,
  state: { forwarding: number },
  greeted: () => void,
): Promise<void> {
  let first: Uint8Array = new Uint8Array(0);
  const timer = setTimeout(() => close(conn), FIRST_BYTES_MS);
  try {
    while (magicOf(first) === "more") {
      const buffer = new Uint8Array(4096);
      const read = await conn.read(buffer);
      if (read === null) return close(conn);
      first = join(first, buffer.subarray(0, read));
    }
  } catch {
    return close(conn);
  } finally {
    clearTimeout(timer);
  }
  if (magicOf(first) === "no") return doors.serve(servedEnd(conn, first));
  if (!doors.forward) return close(conn);
  state.forwarding++;
  try {
    await doors.forward(conn, first.slice(FORWARD_MAGIC.length), greeted);
  } catch {
    /* the forwarding handler says what went wrong to its caller */
  } finally {
    state.forwarding--;
  }
}

/** The connection as the proxy serves it, starting with the bytes already read. */
function servedEnd(conn: Deno.UnixConn, first: Uint8Array): ServedEnd {
  const readable = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(first);
    },
    async pull(controller) {
      const buffer = new Uint8Array(64 * 1024);
      const read = await conn.read(buffer).catch(() => null);
      if (read === null) controller.close();
      else controller.enqueue(buffer.subarray(0, read));
    },
  });
  return { readable, writable: conn.writable, close: () => close(conn) };
}

function join(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}

function close(conn: Deno.UnixConn): void {
  try {
    conn.close();
  } catch { /* already closed */ }
}
