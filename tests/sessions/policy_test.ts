/**
 * A session keeps jn's policy live: `session start` of an untrusted project
 * profile is refused as a call is (exit 3, the same message); once a file
 * of the profile changes, the session serves no further call and ends; the
 * profile's drift is checked at start as a call checks it (breaking drift
 * under `schema_validation: "error"` refuses the start), and after the
 * server says its tools changed, each call through the session checks the
 * new list as a call would.
 *
 * @module
 */

import assert from "node:assert/strict";
import { FIXTURES } from "../helpers.ts";
import { waitGone } from "../session/tree_support.ts";
import { COUNTER, listed, output, sessionHome, sessionPid, until } from "./support.ts";

const COUNTER_META = JSON.stringify({
  command: "node",
  args: [`${FIXTURES}/servers/counter.mjs`],
  transport: "stdio",
});

Deno.test("session: an untrusted project profile is refused like a call; a changed one stops being served", async () => {
  await using home = await sessionHome();
  const profile = `${home.dir}/.jn/profiles/mcp/ctr`;
  await Deno.mkdir(profile, { recursive: true });
  await Deno.writeTextFile(`${profile}/_meta.json`, COUNTER_META);
  const call = await home.jn(["cat", "@ctr/count"]);
  const start = await home.jn(["session", "start", "@ctr"]);
  assert.equal(call.code, 3);
  assert.equal(start.code, 3);
  assert.equal(start.stderr, call.stderr, "the same message as a call");
  assert.equal((await home.jn(["profile", "trust", "@ctr"])).code, 0);
  assert.equal((await home.jn(["session", "start", "@ctr"])).code, 0);
  const session = await sessionPid(home);
  assert.equal(output(await home.jn(["cat", "--json", "@ctr/increment"])).count, 1);
  // A file of the profile changes, and the user trusts it again: the session serves the
  // profile as it was when it started, so it serves no more.
  await Deno.writeTextFile(`${profile}/notes.txt`, "changed");
  assert.equal((await home.jn(["profile", "trust", "@ctr"])).code, 0);
  const after = await home.jn(["cat", "--json", "@ctr/increment"]);
  assert.ok([3, 4].includes(after.code), `refused: ${after.code} ${after.stderr}`);
  assert.match(after.stderr, /The profile @ctr changed since its session started/);
  assert.ok(await waitGone(session, 15_000), "the session ended");
  const [entry] = await listed(home);
  assert.equal(entry.state, "ended");
  assert.equal((await home.jn(["session", "start", "@ctr"])).code, 0);
  assert.equal(output(await home.jn(["cat", "--json", "@ctr/increment"])).count, 1);
});

Deno.test("session: a changed project profile ends its session even without a call", async () => {
  await using home = await sessionHome();
  const profile = `${home.dir}/.jn/profiles/mcp/ctr`;
  await Deno.mkdir(profile, { recursive: true });
  await Deno.writeTextFile(`${profile}/_meta.json`, COUNTER_META);
  assert.equal((await home.jn(["profile", "trust", "@ctr"])).code, 0);
  assert.equal((await home.jn(["session", "start", "@ctr"])).code, 0);
  const session = await sessionPid(home);
  await Deno.writeTextFile(`${profile}/_meta.json`, COUNTER_META.replace("stdio", 'stdio" '));
  assert.ok(await waitGone(session, 15_000), "the session ended by itself");
});

Deno.test("session: drift is checked at start as a call checks it", async () => {
  await using home = await sessionHome();
  const profiles = `${home.home}/.local/jn/profiles/mcp`;
  assert.equal((await home.jn(["profile", "create", "ctr", "--from", COUNTER])).code, 0);
  // The profile knows a tool the server does not have: breaking drift.
  await Deno.writeTextFile(
    `${profiles}/ctr/vanished.json`,
    JSON.stringify({ inputSchema: { type: "object", properties: {} } }),
  );
  const meta = JSON.parse(await Deno.readTextFile(`${profiles}/ctr/_meta.json`));
  await Deno.writeTextFile(
    `${profiles}/ctr/_meta.json`,
    JSON.stringify({ ...meta, schema_validation: "error" }),
  );
  const call = await home.jn(["cat", "@ctr/count"]);
  const start = await home.jn(["session", "start", "@ctr"]);
  assert.equal(call.code, 3, call.stderr);
  assert.equal(start.code, 3, start.stderr);
  assert.equal(start.stderr, call.stderr, "the same drift report and error as a call");
  assert.deepEqual(await listed(home), []);
});

Deno.test("session: after the server's tools change, a call through the session checks them as a call would", async () => {
  await using home = await sessionHome();
  const changer = `mcp+node://${FIXTURES}/servers/changer.mjs`;
  assert.equal((await home.jn(["profile", "create", "chg", "--from", changer])).code, 0);
  assert.equal((await home.jn(["session", "start", "@chg"])).code, 0);
  // The session's own listing made the server add a tool and say its list changed.
  let call = await home.jn(["cat", "@chg?list=tools"]);
  await until(async () => {
    call = await home.jn(["cat", "@chg?list=tools"]);
    return call.stdout.trim().split("\n").length > 1;
  });
  assert.equal(call.code, 0, call.stderr);
  assert.match(call.stderr, /the MCP server schema of @chg has changed/);
});

void COUNTER;
