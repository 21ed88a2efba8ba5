/**
 * The floor of any proxy that is a process of its own: the host's bytes to
 * the server and the server's back, unread (no parsing, no framing). What
 * a host loses to it is the price of one more process and two more pipes
 * per message; a proxy that reads messages cannot do better.
 *
 * Usage: deno run --allow-run pipe_proxy.ts -- SERVER ARGV…
 *
 * @module
 */

const [_dashes, command, ...args] = Deno.args;
const child = new Deno.Command(command, {
  args,
  stdin: "piped",
  stdout: "piped",
  stderr: "inherit",
}).spawn();
await Promise.all([
  Deno.stdin.readable.pipeTo(child.stdin),
  child.stdout.pipeTo(Deno.stdout.writable),
]);
