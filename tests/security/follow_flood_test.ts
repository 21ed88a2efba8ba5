/**
 * `--follow --timeout D` against a server that floods what jn follows (a
 * million `notifications/resources/updated`, or `tools/list_changed`, written
 * before it answers anything else: tests/fixtures/servers/flooder.mjs): the
 * duration is a deadline — jn ends at it, exit 0, even with a read still
 * waiting behind the flood — and jn's memory stays flat (the repeated
 * notifications are coalesced before the SDK sees them), measured as the
 * peak resident size of jn's own process, bound loosely.
 */
import assert from "node:assert/strict";
import { baseEnv, FIXTURES, jnArgs, ROOT } from "../helpers.ts";

const FLOODER = `mcp+node://${FIXTURES}/servers/flooder.mjs`;
/** Far above jn's own size (~100 MB while flooded), far below what buffering the flood takes. */
const MAX_RSS_MB = 250;
const LINUX = Deno.build.os === "linux";
if (!LINUX) {
  // deno-lint-ignore no-console
  console.warn("follow_flood_test: ignored: it reads jn's peak memory from /proc (Linux only)");
}

/** Runs jn; resolves to its exit code, output and the peak resident size of its own process. */
async function runMeasured(args: string[]) {
  const child = new Deno.Command(Deno.execPath(), {
    args: jnArgs(args),
    cwd: ROOT,
    env: baseEnv(),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  // VmHWM: the peak resident size so far, read while jn runs (Deno reads /proc/PID only
  // with every permission, so through `cat`).
  let peakKb = 0;
  let running = true;
  const polling = (async () => {
    while (running) {
      const { stdout } = await new Deno.Command("cat", {
        args: [`/proc/${child.pid}/status`],
        stdout: "piped",
        stderr: "null",
      }).output();
      const kb = Number(/VmHWM:\s+(\d+)/.exec(new TextDecoder().decode(stdout))?.[1] ?? 0);
      peakKb = Math.max(peakKb, kb);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const killer = setTimeout(() => child.kill("SIGKILL"), 90_000);
  try {
    const output = await child.output();
    running = false;
    const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    return {
      code: output.code,
      stdout: text(output.stdout),
      stderr: text(output.stderr),
      peakMb: peakKb / 1024,
    };
  } finally {
    running = false;
    await polling;
    clearTimeout(killer);
  }
}

for (
  const [what, query] of [
    ["resources/updated", "resource=flood://r"],
    ["tools/list_changed", "list=tools&command=--list"],
  ]
) {
  Deno.test({
    name: `--follow --timeout 3s under a flood of ${what}: ends at the deadline, memory flat`,
    ignore: !LINUX,
    async fn() {
      const { code, stdout, stderr, peakMb } = await runMeasured([
        "cat",
        `${FLOODER}?${query}&command=--count&command=1000000`,
        "--follow",
        "--timeout",
        "3s",
      ]);
      assert.equal(code, 0, stderr);
      assert.equal(stderr, "");
      for (const line of stdout.split("\n").filter(Boolean)) {
        assert.equal(typeof JSON.parse(line).version, "number");
      }
      assert.ok(peakMb > 0, "jn's memory was measured");
      assert.ok(peakMb < MAX_RSS_MB, `jn's peak resident size: ${peakMb.toFixed(0)} MB`);
    },
  });
}
