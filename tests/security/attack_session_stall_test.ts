/**
 * Red team, round 2 (B, C): a session's idle limit and memory against a
 * server that stalls or floods, and callers that go away or stop reading.
 *
 * B. A session is busy while a request is in flight; a caller that goes
 *    away (closed, cancelled, its `--timeout` passed) while the server has
 *    not answered must not keep the session — and its server — alive past
 *    its idle limit (lib/serve/proxy_server.ts races each request with its
 *    abort signal). B1 and B4 are controls.
 * C. A session reads its server whatever its callers do: a caller that
 *    stops reading must not let a flooding server grow the session's memory
 *    without bound (lib/serve/stdio_transport.ts caps a connection's pending
 *    output; lib/cli/stderr_queue.ts a forwarded run's stderr).
 *
 * Processes are checked with `ps` (a zombie counts as gone); time bounds are
 * generous (several times the idle limit).
 *
 * @module
 */

import assert from "node:assert/strict";
import { FORWARD_MAGIC, FRAME, frame } from "../../lib/client/session_frames.ts";
import { waitGone } from "../session/tree_support.ts";
import { COUNTER, type SessionHome, sessionHome, until } from "../sessions/support.ts";

/** The socket of the one session in `dir`. */
function socketIn(dir: string): string {
  const names = [...Deno.readDirSync(dir)].map((entry) => entry.name);
  const sockets = names.filter((name) => name.endsWith(".sock"));
  assert.equal(sockets.length, 1, names.join(" "));
  return `${dir}/${sockets[0]}`;
}

/** The pid of the one session in `home` (its record). */
function sessionPidOf(home: SessionHome): number {
  const name = [...Deno.readDirSync(home.sessions)].find((e) => e.name.endsWith(".json"))!.name;
  return JSON.parse(Deno.readTextFileSync(`${home.sessions}/${name}`)).pid;
}

/** Sends `messages` on a new connection, waits a moment, and goes away unanswered. */
async function rawCall(socket: string, messages: unknown[]): Promise<void> {
  const conn = await Deno.connect({ transport: "unix", path: socket });
  const text = messages.map((m) => JSON.stringify(m)).join("\n") + "\n";
  await conn.write(new TextEncoder().encode(text));
  await new Promise((resolve) => setTimeout(resolve, 500));
  conn.close();
}

const INIT = [
  {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "raw", version: "1" },
    },
  },
  { jsonrpc: "2.0", method: "notifications/initialized" },
];

/**
 * Waits (generously: 20 s for a 1.5 s idle limit) for the session's socket
 * to go, then for the session's process and its server's to be gone.
 */
async function idledOut(home: SessionHome, pids: number[]): Promise<void> {
  const socketGone = () =>
    ![...Deno.readDirSync(home.sessions)].some((e) => e.name.endsWith(".sock"));
  await until(socketGone, 20_000).catch(() => {});
  assert.ok(socketGone(), "the session outlived its 1.5 s idle limit by 20 s");
  for (const pid of pids) assert.ok(await waitGone(pid, 15_000), `process ${pid} outlived it`);
}

Deno.test("control/B1: a caller gone mid-call does not keep the session past its idle limit", async () => {
  await using home = await sessionHome();
  const started = await home.jn(["session", "start", "--idle", "1500ms", COUNTER]);
  assert.equal(started.code, 0, started.stderr);
  const session = sessionPidOf(home);
  await rawCall(socketIn(home.sessions), [
    ...INIT,
    {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "slow", arguments: { ms: 600_000 } },
    },
  ]);
  await idledOut(home, [session]);
});

/**
 * A server whose tool list "changes" once called, and which then never
 * answers tools/list (while `stalls` is set: the listings numbered in it).
 * It writes its pid next to itself.
 */
function staller(stalls = "lists > 0"): string {
  return String.raw`
import process from "node:process";
import { writeFileSync } from "node:fs";
writeFileSync(new URL("./server.pid", import.meta.url), String(process.pid));
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...m }) + "\n");
let buffer = ""; let lists = 0;
process.stdin.on("data", (chunk) => {
  buffer += chunk; let nl;
  while ((nl = buffer.indexOf("\n")) !== -1) {
    const m = JSON.parse(buffer.slice(0, nl)); buffer = buffer.slice(nl + 1);
    if (m.id === undefined) continue;
    if (m.method === "initialize") send({ id: m.id, result: { protocolVersion: "2025-06-18",
      capabilities: { tools: { listChanged: true } }, serverInfo: { name: "stall", version: "1" } } });
    else if (m.method === "tools/list") {
      const stall = ${stalls}; lists++;
      if (!stall) send({ id: m.id, result: { tools: [{ name: "change",
        inputSchema: { type: "object" } }] } });
    } else if (m.method === "tools/call") {
      send({ method: "notifications/tools/list_changed" });
      send({ id: m.id, result: { content: [{ type: "text", text: "changed" }] } });
    } else send({ id: m.id, result: {} });
  }
});
process.stdin.on("end", () => process.exit(0));
`;
}

/** A stalling server in `home`: its source, and its pid once it runs. */
async function stallServer(home: SessionHome, stalls?: string) {
  await Deno.mkdir(`${home.dir}/stall`);
  const server = `${home.dir}/stall/stall.mjs`;
  await Deno.writeTextFile(server, staller(stalls));
  const pid = () => Number(Deno.readTextFileSync(`${home.dir}/stall/server.pid`));
  return { server, source: `mcp+node://${server}`, pid };
}

Deno.test("attack/B2: a server that stalls a listing keeps the session past its idle limit", async () => {
  await using home = await sessionHome();
  const { source, pid } = await stallServer(home);
  const started = await home.jn(["session", "start", "--idle", "1500ms", source]);
  assert.equal(started.code, 0, started.stderr);
  const socket = socketIn(home.sessions);
  await rawCall(socket, [
    ...INIT,
    { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "change", arguments: {} } },
  ]);
  // The caller that lists next goes away unanswered (a Ctrl-C'd `jn inspect`).
  await rawCall(socket, [...INIT, { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} }]);
  await idledOut(home, [sessionPidOf(home), pid()]);
});

Deno.test("attack/B3: the same with jn's own forwarded commands (--timeout)", async () => {
  await using home = await sessionHome();
  const { source, pid } = await stallServer(home);
  const started = await home.jn(["session", "start", "--idle", "1500ms", source]);
  assert.equal(started.code, 0, started.stderr);
  const session = sessionPidOf(home);
  const changed = await home.jn(["cat", `${source}?tool=change`]);
  assert.equal(changed.code, 0, changed.stderr);
  const listed = await home.jn(["cat", "--timeout", "1s", `${source}?list=tools`]);
  assert.notEqual(listed.code, 0, "the listing stalls");
  await idledOut(home, [session, pid()]);
});

Deno.test("control/B4: session stop ends a stalled session's server tree", async () => {
  await using home = await sessionHome();
  const { source, pid } = await stallServer(home);
  assert.equal((await home.jn(["session", "start", "--idle", "0", source])).code, 0);
  const session = sessionPidOf(home);
  await home.jn(["cat", `${source}?tool=change`]);
  await home.jn(["cat", "--timeout", "1s", `${source}?list=tools`]);
  const server = pid();
  assert.ok(!(await waitGone(server, 0)), "the server runs");
  const stopped = await home.jn(["session", "stop", source]);
  assert.equal(stopped.code, 0, stopped.stderr);
  assert.ok(await waitGone(server, 15_000), "the server outlived session stop");
  assert.ok(await waitGone(session, 15_000), "the session outlived session stop");
});

// ---------------------------------------------------------------------------
// C. A caller that stops reading (a suspended `jn`, Ctrl-Z) while the server
//    floods it with log messages.
// ---------------------------------------------------------------------------
/** A server that floods its caller with log messages of `pad` characters once called. */
const logFlooder = (pad: number) =>
  String.raw`
import process from "node:process";
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...m }) + "\n");
let buffer = ""; let n = 0;
const pad = "x".repeat(${pad});
const flood = () => {
  for (;;) {
    const ok = process.stdout.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/message",
      params: { level: "emergency", logger: "f", data: pad + (n++) } }) + "\n");
    if (!ok) return process.stdout.once("drain", flood);
  }
};
process.stdin.on("data", (chunk) => {
  buffer += chunk; let nl;
  while ((nl = buffer.indexOf("\n")) !== -1) {
    const m = JSON.parse(buffer.slice(0, nl)); buffer = buffer.slice(nl + 1);
    if (m.id === undefined) continue;
    if (m.method === "initialize") send({ id: m.id, result: { protocolVersion: "2025-06-18",
      capabilities: { tools: {}, logging: {} }, serverInfo: { name: "flood", version: "1" } } });
    else if (m.method === "tools/list") send({ id: m.id, result: { tools: [{ name: "flood",
      inputSchema: { type: "object" } }] } });
    else if (m.method === "tools/call") flood();
    else send({ id: m.id, result: {} });
  }
});
process.stdin.on("end", () => process.exit(0));
`;

/** A process's resident memory in MB (`ps`: Deno may not read /proc). */
async function rssMb(pid: number): Promise<number> {
  const { stdout } = await new Deno.Command("ps", {
    args: ["-o", "rss=", "-p", String(pid)],
    stdout: "piped",
    stderr: "null",
  }).output();
  return Number(new TextDecoder().decode(stdout).trim() || 0) / 1024;
}

/**
 * How much a session may grow while flooded (MB): reading a flood at full
 * speed alone takes a V8 heap of a few hundred MB (garbage not yet
 * collected), bounded; what piles up for a caller that does not read is not.
 */
const GROWTH_MB = 400;

/**
 * Starts a session of a flooder of `pad`-character messages, runs `connect`
 * (a caller that never reads), and watches the session's memory for 15 s.
 */
async function floodWith(
  pad: number,
  connect: (socket: string, source: string, home: SessionHome) => Promise<Deno.UnixConn>,
): Promise<void> {
  await using home = await sessionHome();
  const server = `${home.dir}/flood.mjs`;
  await Deno.writeTextFile(server, logFlooder(pad));
  const source = `mcp+node://${server}`;
  const started = await home.jn(["session", "start", source]);
  assert.equal(started.code, 0, started.stderr);
  const pid = sessionPidOf(home);
  const before = await rssMb(pid);
  const conn = await connect(socketIn(home.sessions), source, home);
  let peak = before;
  for (let i = 0; i < 60 && peak - before <= GROWTH_MB; i++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    peak = Math.max(peak, await rssMb(pid));
  }
  conn.close();
  assert.ok(
    peak - before < GROWTH_MB,
    `the session grew from ${before.toFixed(0)} MB to ${peak.toFixed(0)} MB in 15 s`,
  );
  // The session still serves (the caller that did not read is gone).
  const again = await home.jn(["cat", `${source}?list=tools`]);
  assert.equal(again.code, 0, again.stderr);
}

Deno.test({
  name: "attack/C1: a caller that stops reading lets a flooding server grow the session",
  ignore: Deno.build.os !== "linux",
  fn: () =>
    floodWith(256 * 1024, async (socket) => {
      const conn = await Deno.connect({ transport: "unix", path: socket });
      const text = [
        ...INIT,
        { jsonrpc: "2.0", id: 3, method: "logging/setLevel", params: { level: "debug" } },
        { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "flood", arguments: {} } },
      ].map((m) => JSON.stringify(m)).join("\n") + "\n";
      await conn.write(new TextEncoder().encode(text));
      return conn;
    }),
});

Deno.test({
  name: "attack/C2: a forwarding caller that stops reading lets the command's stderr grow",
  ignore: Deno.build.os !== "linux",
  fn: () =>
    floodWith(4000, async (socket, source, home) => {
      const conn = await Deno.connect({ transport: "unix", path: socket });
      const hello = {
        argv: ["cat", `${source}?tool=flood`],
        cwd: home.dir,
        env: { HOME: home.home, PATH: Deno.env.get("PATH") ?? "" },
        tty: { stdin: false, stdout: false, stderr: false },
      };
      const bytes = frame(FRAME.hello, new TextEncoder().encode(JSON.stringify(hello)));
      await conn.write(new Uint8Array([...FORWARD_MAGIC, ...bytes]));
      return conn;
    }),
});

Deno.test("C3: a connection that does not read holds a bounded outbox; a response past it closes it", async () => {
  const { MAX_PENDING_CHARS, StdioTransport } = await import("../../lib/serve/stdio_transport.ts");
  const stuck = new WritableStream<Uint8Array>({ write: () => new Promise(() => {}) });
  const input = new ReadableStream<Uint8Array>();
  const wire = new StdioTransport({ input, output: stuck, maxLineBytes: 1024 });
  const errors: string[] = [];
  let closed = 0;
  wire.onerror = (error) => errors.push(error.message);
  wire.onclose = () => closed++;
  await wire.start();
  const data = "x".repeat(64 * 1024);
  const note = { jsonrpc: "2.0" as const, method: "notifications/message", params: { data } };
  const sent = [];
  for (let i = 0; i < (2 * MAX_PENDING_CHARS) / data.length; i++) sent.push(wire.send(note));
  // Those past the bound were dropped (their sends resolved), and that was said once.
  let dropped = 0;
  for (const send of sent) void send.then(() => dropped++);
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.ok(dropped > 0, "no notification was dropped");
  assert.deepEqual(errors, ["the host does not read: dropping notifications"]);
  // A response cannot be dropped: the connection closes at once.
  await assert.rejects(wire.send({ jsonrpc: "2.0", id: 1, result: { data } }), /does not read/);
  assert.equal(closed, 1);
  await assert.rejects(wire.send(note), /closed/);
});
