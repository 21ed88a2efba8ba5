/**
 * `jn profile untrust` ends a project profile's session, and the server it
 * started, without waiting for a call or the idle limit (`--idle 0`: none):
 * withdrawing trust rewrites the trust store, not the profile, and the
 * session's trust watch looks at both (lib/client/session_trust.ts). Calls
 * are refused then as any call of an untrusted profile is (exit 3).
 *
 * @module
 */

import assert from "node:assert/strict";
import { FIXTURES } from "../helpers.ts";
import { waitGone } from "../session/tree_support.ts";
import { listed, output, sessionHome, sessionPid } from "./support.ts";

const COUNTER_META = JSON.stringify({
  command: "node",
  args: [`${FIXTURES}/servers/counter.mjs`],
  transport: "stdio",
});

Deno.test("session: untrusting a project profile ends its session and its server", async () => {
  await using home = await sessionHome();
  const profile = `${home.dir}/.jn/profiles/mcp/ctr`;
  await Deno.mkdir(profile, { recursive: true });
  await Deno.writeTextFile(`${profile}/_meta.json`, COUNTER_META);
  assert.equal((await home.jn(["profile", "trust", "@ctr"])).code, 0);
  assert.equal((await home.jn(["session", "start", "--idle", "0", "@ctr"])).code, 0);
  const session = await sessionPid(home);
  const server = output(await home.jn(["cat", "--json", "@ctr/increment"])).pid as number;
  // Trusting another profile rewrites the store too: the session serves on.
  const other = `${home.dir}/.jn/profiles/mcp/other`;
  await Deno.mkdir(other, { recursive: true });
  await Deno.writeTextFile(`${other}/_meta.json`, COUNTER_META);
  assert.equal((await home.jn(["profile", "trust", "@other"])).code, 0);
  assert.equal(output(await home.jn(["cat", "--json", "@ctr/increment"])).count, 2);
  assert.equal(await sessionPid(home), session);

  assert.equal((await home.jn(["profile", "untrust", "@ctr"])).code, 0);
  assert.ok(await waitGone(session, 20_000), "the session ended");
  assert.ok(await waitGone(server, 20_000), `its server (pid ${server}) ended`);
  const [entry] = await listed(home);
  assert.equal(entry.state, "ended");
  const call = await home.jn(["cat", "@ctr/count"]);
  assert.equal(call.code, 3, call.stderr);
});
