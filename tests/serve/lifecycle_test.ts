/**
 * `jn serve`'s lifecycle as a host drives it: when the host quits (stdin
 * ends) or serve gets SIGTERM or SIGHUP, every source's whole process tree
 * ends (even a server that ignores SIGTERM) and jn exits 0; Ctrl-C (SIGINT)
 * ends them too and exits 130, as any command interrupted; a server that
 * dies is started again on the next request (reported), the request in
 * flight gets an error at once, and after the last allowed restart the
 * requests fail with the reason.
 *
 * @module
 */

import assert from "node:assert/strict";
import { ALL_ROLES, endTree, readTree, survivors, treeFiles } from "../session/tree_support.ts";
import { fixtureUri, rawHost, stdioHost } from "./support.ts";

const call = (id: number, name: string, args: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

const ENDS = [
  ["stdin EOF", 0],
  ["SIGTERM", 0],
  ["SIGHUP", 0],
  ["SIGINT", 130],
] as const;

for (const [end, code] of ENDS) {
  for (const stubborn of end === "SIGINT" ? [true] : [false, true]) {
    Deno.test(`jn serve: ${end} ends every source's process tree${stubborn ? " (a server ignoring SIGTERM too)" : ""}, exit ${code}`, async () => {
      const { dir, pidFile } = await treeFiles();
      const switches = ["--tree", pidFile, ...(stubborn ? ["--stubborn"] : [])];
      const host = rawHost([fixtureUri("hostile.mjs", switches), "@demo"]);
      try {
        await host.handshake();
        await host.write(call(1, "hostile__echo", { text: "x" }));
        await host.response(1);
        const tree = await readTree(pidFile);
        if (end === "stdin EOF") await host.endInput();
        else host.child.kill(end);
        const status = await host.exited();
        assert.equal(status.code, code, host.stderr());
        assert.deepEqual(await survivors(tree, ALL_ROLES), [], "orphans survived serve");
        assert.doesNotMatch(host.stderr(), /error|Error/, "an asked-for end is no error");
      } finally {
        await host.exited(1);
        await endTree(pidFile);
        await Deno.remove(dir, { recursive: true });
      }
    });
  }
}

Deno.test("jn serve: a server that dies is started again on the next request, at most as often as allowed", async () => {
  const host = await stdioHost([
    "--restarts",
    "1",
    fixtureUri("fixture.mjs", ["--crash-after", "1"]),
  ]);
  try {
    const client = host.client;
    await client.callTool({ name: "echo", arguments: { text: "one" } });
    const crashed = await client.callTool({ name: "echo", arguments: { text: "two" } }).catch((e) =>
      e
    );
    assert.match(String(crashed?.message), /exited with code 1 during tools\/call "echo"/);
    const third = await client.callTool({ name: "echo", arguments: { text: "three" } });
    assert.deepEqual(third.content, [{ type: "text", text: '{"text":"three"}' }]);
    assert.match(
      host.stderr(),
      /^jn: "fixture" ended \(The server "[^"]*" exited with code 1[^\n]*\): starting it again \(attempt 1\)$/m,
    );
    const crashedAgain = await client.callTool({ name: "echo", arguments: { text: "four" } })
      .catch((e) => e);
    assert.ok(crashedAgain instanceof Error);
    const refused = await client.callTool({ name: "echo", arguments: { text: "five" } }).catch((
      e,
    ) => e);
    assert.match(String(refused?.message), /stopped and was started again 1 times: not again/);
  } finally {
    await host.close();
  }
});
