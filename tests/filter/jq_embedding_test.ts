/** The embedded jq needs no permission: it works the same inside `deno compile`. */

import assert from "node:assert/strict";

Deno.test("compileJq() runs in a process with no file or network permission", async () => {
  const config = new URL("../../deno.json", import.meta.url).pathname;
  const script = new URL("./fixtures/jq_without_permissions.ts", import.meta.url).pathname;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", "--config", config, script],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode('{"a":1}\n{"a":[2.0]}\n'));
  await writer.close();
  const { code, stdout, stderr } = await child.output();
  const errors = new TextDecoder().decode(stderr).replace(/^.*Warning.*\n/gm, "");
  assert.equal(errors, "");
  assert.equal(code, 0);
  assert.equal(new TextDecoder().decode(stdout), "1\n[2.0]\n");
});
