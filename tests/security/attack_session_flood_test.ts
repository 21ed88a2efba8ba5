/**
 * What a session's socket takes from anyone who connects: a hello longer
 * than a session takes is refused at its 5-byte header (before any of its
 * bytes pile up), as is a first frame that is no hello; a long frame in
 * small chunks comes out whole, each byte copied a bounded number of times
 * (lib/client/session_frames.ts); and a flood of connections that say
 * nothing is turned away at once, beyond MAX_UNGREETED
 * (lib/client/session_accept.ts).
 *
 * @module
 */

import assert from "node:assert/strict";
import { FRAME, frame, FrameReader, MAX_HELLO_BYTES } from "../../lib/client/session_frames.ts";
import { MAX_UNGREETED } from "../../lib/client/session_accept.ts";
import { COUNTER, sessionHome, until } from "../sessions/support.ts";

// ---------------------------------------------------------------------------
// Frames: a hello longer than a session takes is refused at its 5-byte
//    header (before any of its bytes pile up), as is a first frame that is
//    not a hello; a long frame in small chunks comes out whole and exact.
// ---------------------------------------------------------------------------
Deno.test("attack: a hello too long, or a first frame that is no hello, is refused at its header", () => {
  const header = (kind: number, length: number) => {
    const bytes = new Uint8Array(5);
    bytes[0] = kind;
    new DataView(bytes.buffer).setUint32(1, length);
    return bytes;
  };
  const long = new FrameReader();
  long.push(header(FRAME.hello, MAX_HELLO_BYTES + 1));
  assert.throws(() => long.next(), /too long/);
  const notFirst = new FrameReader();
  notFirst.push(header(FRAME.stdout, 16 * 1024 * 1024 - 1));
  assert.throws(() => notFirst.next(), /not a frame/);
  const again = new FrameReader();
  again.push(frame(FRAME.hello, new Uint8Array(3)));
  again.push(header(FRAME.hello, 3));
  assert.equal(again.next()?.kind, FRAME.hello);
  assert.throws(() => again.next(), /not a frame/);
});

Deno.test("frames: a 16 MiB frame in 16 KiB chunks comes out whole, then the next", () => {
  const reader = new FrameReader();
  reader.push(frame(FRAME.accept));
  assert.equal(reader.next()?.kind, FRAME.accept);
  const payload = new Uint8Array(16 * 1024 * 1024 - 7);
  for (let at = 0; at < payload.length; at++) payload[at] = at % 251;
  const [first, second] = [frame(FRAME.stdout, payload), frame(FRAME.exit, Uint8Array.of(3))];
  const bytes = new Uint8Array(first.length + second.length);
  bytes.set(first);
  bytes.set(second, first.length);
  const seen = [];
  for (let at = 0; at < bytes.length; at += 16 * 1024 + 3) {
    reader.push(bytes.subarray(at, at + 16 * 1024 + 3));
    for (let ready = reader.next(); ready; ready = reader.next()) seen.push(ready);
  }
  assert.deepEqual(seen.map((f) => f.kind), [FRAME.stdout, FRAME.exit]);
  assert.ok(
    seen[0].payload.every((byte, at) => byte === at % 251) &&
      seen[0].payload.length === payload.length,
  );
  assert.deepEqual([...seen[1].payload], [3]);
});

// ---------------------------------------------------------------------------
// A session takes MAX_UNGREETED connections that say nothing; the next
//    is closed at once (not after the first-bytes wait), and the session
//    serves again once they are gone.
// ---------------------------------------------------------------------------
Deno.test("attack: a flood of silent connections is turned away at once", async () => {
  await using home = await sessionHome();
  assert.equal((await home.jn(["session", "start", COUNTER])).code, 0);
  const socket = [...Deno.readDirSync(home.sessions)].find((e) => e.name.endsWith(".sock"))!.name;
  const path = `${home.sessions}/${socket}`;
  const silent = [];
  for (let i = 0; i < MAX_UNGREETED; i++) {
    silent.push(await Deno.connect({ transport: "unix", path }));
  }
  const extra = await Deno.connect({ transport: "unix", path });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const closed = await Promise.race([
    extra.read(new Uint8Array(16)).then((read) => read === null, () => true),
    new Promise<boolean>((resolve) => timer = setTimeout(() => resolve(false), 5_000)),
  ]);
  clearTimeout(timer);
  extra.close();
  silent.forEach((conn) => conn.close());
  assert.ok(closed, `connection ${MAX_UNGREETED + 1} was kept waiting`);
  await until(async () => (await home.jn(["cat", "--json", `${COUNTER}?tool=count`])).code === 0);
});
