/**
 * `jn put` records on stdout: a profile's `${VAR}` secret echoed by the
 * server in an error never appears (redacted as `cat` redacts its errors),
 * and what a terminal would act on is escaped (red team, #12).
 */
import assert from "node:assert/strict";
import { runJn, tempDir } from "../helpers.ts";
import { FIXTURE } from "./put_helpers.ts";

const SECRET = "sk-live-SECRET-123";

Deno.test("jn put: error records never show a secret, and every record is terminal-safe", async (t) => {
  const home = await tempDir("jn-put-secrets-");
  try {
    const dir = `${home}/.local/jn/profiles/mcp/sec`;
    await Deno.mkdir(dir, { recursive: true });
    await Deno.writeTextFile(
      `${dir}/_meta.json`,
      JSON.stringify({ command: "node", args: [FIXTURE] }),
    );
    for (const tool of ["fail", "rpc_error"]) {
      await Deno.writeTextFile(
        `${dir}/${tool}.json`,
        JSON.stringify({ tool, defaults: { message: "key=${API_KEY}" } }),
      );
    }
    const put = (tool: string, stdin: string) =>
      runJn(["put", `@sec/${tool}`], { stdin, env: { HOME: home, API_KEY: SECRET } });
    for (const tool of ["fail", "rpc_error"]) {
      await t.step(`${tool}: the server's error text echoes the secret`, async () => {
        const result = await put(tool, "{}\n");
        assert.equal(result.code, 1, result.stderr);
        assert.match(result.stdout, /"type":"error"/);
        assert.ok(!result.stdout.includes(SECRET), result.stdout);
        assert.ok(!result.stderr.includes(SECRET), result.stderr);
      });
    }
    await t.step("a server's bidi and C1 characters are escaped, the value unchanged", async () => {
      const message = "evil\u202eright\u009b2J";
      const result = await put("fail", JSON.stringify({ message }) + "\n");
      assert.doesNotMatch(result.stdout, /[\u202e\u009b]/);
      assert.ok(JSON.stringify(JSON.parse(result.stdout)).includes("right"));
    });
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
