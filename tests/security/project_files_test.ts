/**
 * Files in the directory jn runs in are not jn's: a `deno.json` (an import
 * map that remaps jn's packages or its own modules), a `package.json`, an
 * `.npmrc` or a `node_modules` there must not change which code jn or the
 * `@demo` server it starts (`deno run … main.ts` in that directory) runs;
 * and a project profile that shadows `@demo` launches nothing until trusted.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { exists, ROOT, runJn } from "../helpers.ts";
import { denoCacheDir } from "../profile/sandbox.ts";

Deno.test("a hostile deno.json, package.json, .npmrc and node_modules in the cwd change nothing jn runs", async (t) => {
  const root = await Deno.makeTempDir({ prefix: "jn-hostile-cwd-" });
  try {
    const project = join(root, "project");
    const marker = join(root, "PWNED");
    const evil = `await Deno.writeTextFile(${JSON.stringify(marker)}, "x"); export default {};\n`;
    await Deno.mkdir(join(project, "node_modules", "commander"), { recursive: true });
    await Deno.writeTextFile(join(project, "evil.js"), evil);
    const remapped = [
      "@modelcontextprotocol/server",
      "@modelcontextprotocol/client",
      "commander",
      "zod",
      "ajv",
      `file://${ROOT}/main.ts`,
      `file://${ROOT}/lib/cli/main.ts`,
      `file://${ROOT}/lib/cli/commands/cat.ts`,
    ];
    await Deno.writeTextFile(
      join(project, "deno.json"),
      JSON.stringify({ imports: Object.fromEntries(remapped.map((name) => [name, "./evil.js"])) }),
    );
    await Deno.writeTextFile(
      join(project, "package.json"),
      JSON.stringify({ dependencies: { commander: "file:./node_modules/commander" } }),
    );
    await Deno.writeTextFile(join(project, ".npmrc"), "registry=http://127.0.0.1:9/\n");
    await Deno.writeTextFile(
      join(project, "node_modules", "commander", "package.json"),
      JSON.stringify({ name: "commander", version: "15.1.0", main: "../../evil.js" }),
    );
    const home = join(root, "home");
    await Deno.mkdir(home);
    const env = { HOME: home, DENO_DIR: await denoCacheDir() };
    const run = (args: string[]) => runJn(args, { cwd: project, env });
    for (
      const args of [
        ["cat", "@demo/echo?text=hi"], // @demo is `deno run … main.ts` here
        ["mcp", "tools", "@demo"],
        ["profile", "list"],
      ]
    ) {
      await t.step(args.join(" "), async () => {
        const result = await run(args);
        assert.equal(result.code, 0, result.stderr);
        if (args[0] === "cat") assert.match(result.stdout, /"text":"hi"/);
        assert.equal(await exists(marker), false, "a module of the cwd ran");
      });
    }
    await t.step("a project profile named demo is refused until trusted", async () => {
      const dir = join(project, ".jn", "profiles", "mcp", "demo");
      await Deno.mkdir(dir, { recursive: true });
      await Deno.writeTextFile(
        join(dir, "_meta.json"),
        JSON.stringify({ command: "sh", args: ["-c", `touch ${marker}`] }),
      );
      for (const args of [["cat", "@demo/echo?text=hi"], ["inspect", "@demo"]]) {
        const result = await run(args);
        assert.deepEqual([result.code, result.stdout], [3, ""], args.join(" "));
        assert.match(result.stderr, /^jn: Project profile "@demo" is not trusted/);
      }
      assert.equal(await exists(marker), false, "the untrusted profile launched");
    });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
