/**
 * The framing of command forwarding (docs/session.md "How a command runs
 * in a session"): jn's own byte protocol between a calling `jn` and the
 * session's process over the session's private socket — not MCP, which
 * only the SDK speaks, inside the session's process. A forwarding
 * connection opens with {@linkcode FORWARD_MAGIC} (an MCP connection opens
 * with a JSON-RPC line, never a NUL byte); then each frame is one kind
 * byte, a 4-byte big-endian length and that many bytes.
 *
 * Guarantees: a frame longer than {@linkcode MAX_FRAME_BYTES} (a hello
 * longer than {@linkcode MAX_HELLO_BYTES}) or of an unknown kind is an
 * error of the connection, thrown as soon as its 5-byte header is there,
 * never a buffer grown without bound; so is a first frame that is neither a
 * hello nor an answer to one, or a hello after the first; frames are read
 * whole and in order; each byte is copied twice, however small the chunks
 * it comes in. Free of imports: the calling side loads it before anything
 * else of jn.
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

/** The longest hello a session takes (argv, directory, environment: far less in practice). */
export const MAX_HELLO_BYTES = 1024 * 1024;

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

/** The kinds a connection's first frame may be: the caller's hello, the session's answer. */
const FIRST_KINDS: ReadonlySet<number> = new Set([FRAME.hello, FRAME.accept, FRAME.decline]);

/** The size of the blocks a reader keeps bytes in. */
const BLOCK_BYTES = 64 * 1024;

/**
 * Frames out of a byte stream's chunks: bytes are kept in blocks of
 * {@linkcode BLOCK_BYTES} (each copied in once, and out once into its
 * frame), however many chunks they come in.
 */
export class FrameReader {
  #blocks: Uint8Array[] = [];
  /** Where the first block's unread bytes start, and the last block's bytes end. */
  #start = 0;
  #end = 0;
  #size = 0;
  #first = true;

  /** Adds bytes read from the connection (copied: the caller may reuse its buffer). */
  push(chunk: Uint8Array): void {
    for (let at = 0; at < chunk.length;) {
      let last = this.#blocks.at(-1);
      if (last === undefined || this.#end === last.length) {
        this.#blocks.push(last = new Uint8Array(BLOCK_BYTES));
        this.#end = 0;
      }
      const part = chunk.subarray(at, at + last.length - this.#end);
      last.set(part, this.#end);
      this.#end += part.length;
      at += part.length;
    }
    this.#size += chunk.length;
  }

  /** The next whole frame, if one is there; throws on a frame no jn sends. */
  next(): Frame | undefined {
    if (this.#size < 5) return undefined;
    const header = this.#copy(5, false);
    const kind = header[0];
    const length = new DataView(header.buffer).getUint32(1);
    if (!KINDS.has(kind) || this.#first !== FIRST_KINDS.has(kind)) {
      throw new Error(`not a frame of jn's forwarding here (kind ${kind})`);
    }
    const most = kind === FRAME.hello ? MAX_HELLO_BYTES : MAX_FRAME_BYTES;
    if (length > most) throw new Error(`a frame of ${length} bytes is too long`);
    if (this.#size < 5 + length) return undefined;
    this.#first = false;
    this.#copy(5, true);
    return { kind, payload: this.#copy(length, true) };
  }

  /** The first `n` bytes (there are as many), taken out when `take`. */
  #copy(n: number, take: boolean): Uint8Array {
    const bytes = new Uint8Array(n);
    let block = 0;
    let start = this.#start;
    for (let filled = 0; filled < n;) {
      const from = this.#blocks[block];
      const end = block === this.#blocks.length - 1 ? this.#end : from.length;
      const part = from.subarray(start, Math.min(end, start + n - filled));
      bytes.set(part, filled);
      filled += part.length;
      start += part.length;
      if (start === end) [block, start] = [block + 1, 0];
    }
    if (take) {
      this.#blocks.splice(0, block);
      this.#start = start;
      this.#size -= n;
      if (this.#blocks.length === 0) this.#end = 0;
    }
    return bytes;
  }
}

/** Whether `bytes` open with {@linkcode FORWARD_MAGIC} (and how that is known so far). */
export function magicOf(bytes: Uint8Array): "yes" | "no" | "more" {
  const n = Math.min(bytes.length, FORWARD_MAGIC.length);
  for (let i = 0; i < n; i++) if (bytes[i] !== FORWARD_MAGIC[i]) return "no";
  return n === FORWARD_MAGIC.length ? "yes" : "more";
}
