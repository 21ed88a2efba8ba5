/**
 * The framing of command forwarding (docs/session.md "How a command runs
 * in a session"): jn's own byte protocol between a calling `jn` and the
 * session's process over the session's private socket — not MCP, which
 * only the SDK speaks, inside the session's process. A forwarding
 * connection opens with {@linkcode FORWARD_MAGIC} (an MCP connection opens
 * with a JSON-RPC line, never a NUL byte); then each frame is one kind
 * byte, a 4-byte big-endian length and that many bytes.
 *
 * Guarantees: a frame longer than {@linkcode MAX_FRAME_BYTES} or of an
 * unknown kind is an error of the connection (the reader throws), never a
 * buffer grown without bound; frames are read whole and in order. Free of
 * imports: the calling side loads it before anything else of jn.
 *
 * @module
 */

/** The first bytes of a forwarding connection (then frames). */
export const FORWARD_MAGIC: Uint8Array = new TextEncoder().encode("\0jn-forward 1\n");

/** The kinds of frame, by what they carry. */
export const FRAME = {
  /** caller → session: JSON {argv, cwd, env, tty} — the command to run. */
  hello: 0x48,
  /** session → caller: the session runs the command (stdio frames follow). */
  accept: 0x41,
  /** session → caller: not for this session (UTF-8 reason); the caller runs it itself. */
  decline: 0x4e,
  /** session → caller: bytes for the caller's stdout. */
  stdout: 0x4f,
  /** session → caller: bytes for the caller's stderr. */
  stderr: 0x45,
  /** session → caller: the command reads stdin (4-byte most it takes). */
  pull: 0x51,
  /** caller → session: bytes read from stdin, in answer to a pull. */
  stdin: 0x49,
  /** caller → session: stdin is at its end, in answer to a pull. */
  stdinEnd: 0x5a,
  /** caller → session: the caller was signalled (UTF-8 signal name): interrupt the command. */
  interrupt: 0x43,
  /** caller → session: the caller's stdout is closed (its reader went away). */
  stdoutClosed: 0x50,
  /** session → caller: the command ended with this exit status (1 byte). */
  exit: 0x58,
} as const;

/** The longest frame either side takes. */
export const MAX_FRAME_BYTES = 16 * 1024 * 1024;

const KINDS: ReadonlySet<number> = new Set(Object.values(FRAME));

/** One frame. */
export interface Frame {
  kind: number;
  payload: Uint8Array;
}

/** A frame's bytes. */
export function frame(kind: number, payload: Uint8Array = new Uint8Array(0)): Uint8Array {
  const bytes = new Uint8Array(5 + payload.length);
  bytes[0] = kind;
  new DataView(bytes.buffer).setUint32(1, payload.length);
  bytes.set(payload, 5);
  return bytes;
}

/** A frame of UTF-8 text (JSON, a reason, a signal's name). */
export function textFrame(kind: number, text: string): Uint8Array {
  return frame(kind, new TextEncoder().encode(text));
}

/** Frames out of a byte stream's chunks. */
export class FrameReader {
  #buffer = new Uint8Array(0);

  /** Adds bytes read from the connection. */
  push(chunk: Uint8Array): void {
    if (this.#buffer.length === 0) {
      this.#buffer = chunk.slice();
      return;
    }
    const joined = new Uint8Array(this.#buffer.length + chunk.length);
    joined.set(this.#buffer);
    joined.set(chunk, this.#buffer.length);
    this.#buffer = joined;
  }

  /** The next whole frame, if one is there; throws on a frame no jn sends. */
  next(): Frame | undefined {
    const buffer = this.#buffer;
    if (buffer.length < 5) return undefined;
    const kind = buffer[0];
    const length = new DataView(buffer.buffer, buffer.byteOffset).getUint32(1);
    if (!KINDS.has(kind)) throw new Error(`not a frame of jn's forwarding (kind ${kind})`);
    if (length > MAX_FRAME_BYTES) throw new Error(`a frame of ${length} bytes is too long`);
    if (buffer.length < 5 + length) return undefined;
    this.#buffer = buffer.subarray(5 + length);
    return { kind, payload: buffer.slice(5, 5 + length) };
  }
}

/** Whether `bytes` open with {@linkcode FORWARD_MAGIC} (and how that is known so far). */
export function magicOf(bytes: Uint8Array): "yes" | "no" | "more" {
  const n = Math.min(bytes.length, FORWARD_MAGIC.length);
  for (let i = 0; i < n; i++) if (bytes[i] !== FORWARD_MAGIC[i]) return "no";
  return n === FORWARD_MAGIC.length ? "yes" : "more";
}
