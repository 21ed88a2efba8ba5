/**
 * `profile list` and `profile info` run without commander (lib/cli/light.ts):
 * main.ts's output is byte for byte the CLI's (lib/cli/main.ts run in this
 * process on the same HOME, project and environment), errors included (they
 * are handed back to the CLI); the argv parser takes only what it knows; and
 * the run loads no npm package and not Deno's Node compatibility layer.
 */

import assert from "node:assert/strict";
import type { Io } from "../../lib/cli/io.ts";
import { parseLight } from "../../lib/cli/light.ts";
import { main } from "../../lib/cli/main.ts";
import { permissionFlags } from "../../lib/sandbox/permissions.ts";
import { baseEnv, MAIN, ROOT } from "../helpers.ts";
import { denoCacheDir, fixtureMeta, sandbox } from "../profile/sandbox.ts";

/** The CLI (commander) in this process, on an Io of the given environment. */
async function viaCli(args: string[], env: Record<string, string>, cwd: string) {
  const out: number[][] = [[], []];
  const writer = (i: number) => ({
    write: (bytes: Uint8Array) => {
      out[i].push(...bytes);
      return Promise.resolve(bytes.length);
    },
  });
  const io: Io = {
    stdout: writer(0),
    stderr: writer(1),
    stdin: new ReadableStream({ start: (controller) => controller.close() }),
    env,
    cwd,
    tty: { stdin: false, stdout: false, stderr: false },
  };
  const code = await main(args, io);
  const text = (bytes: number[]) => new TextDecoder().decode(new Uint8Array(bytes));
  return { code, stdout: text(out[0]), stderr: text(out[1]) };
}

Deno.test("parseLight() takes only the argv it fully knows", () => {
  const plain = { format: "text", debug: false, quiet: false };
  assert.deepEqual(parseLight(["profile", "list"]), { command: "profile list", ...plain });
  assert.deepEqual(parseLight(["--debug", "profile", "-q", "info", "@x", "--format=json"]), {
    command: "profile info",
    server: "@x",
    format: "json",
    debug: true,
    quiet: true,
  });
  assert.equal(parseLight(["profile", "list", "--format", "json"])?.format, "json");
  for (
    const args of [
      ["profile"],
      ["profile", "list", "extra"],
      ["profile", "info"],
      ["profile", "list", "--format", "xml"],
      ["profile", "list", "--format"],
      ["profile", "list", "--format", "-q"],
      ["profile", "--format", "json", "list"],
      ["profile", "list", "--help"],
      ["profile", "list", "--"],
      ["profile", "info", "-x"],
      ["profile", "list", "--fromat", "json"],
      ["profile", "create", "x"],
      ["cat", "profile", "list"],
    ]
  ) assert.equal(parseLight(args), undefined, args.join(" "));
});

Deno.test("main.ts answers profile list/info as the CLI does, without commander", async (t) => {
  const box = await sandbox();
  try {
    await box.write(
      `${box.user}/srv/_meta.json`,
      fixtureMeta({ description: "a stdio server", env: { TOKEN: "${SRV_TOKEN}" } }),
    );
    await box.write(`${box.user}/srv/echo.json`, `{"tool": "echo", "description": "says it"}`);
    await box.write(`${box.projectProfiles}/srv/extra.json`, `{}`);
    await box.write(`${box.user}/broken/_meta.json`, `{"command": "x",,}`);
    const env = { ...baseEnv(), HOME: box.home, DENO_DIR: await denoCacheDir() };
    const secret = { SRV_TOKEN: "sk-light-0123456789" };
    const cases: string[][] = [
      ["profile", "list"],
      ["profile", "list", "--format", "json"],
      ["-q", "profile", "info", "@srv"],
      ["profile", "info", "srv", "--format=json"],
      ["profile", "info", "@demo"],
      // Errors: handed back to the CLI.
      ["profile", "info", "@nope"],
      ["profile", "info", "@broken"],
      ["profile", "info", "bad/name"],
      ["profile", "list", "--format", "xml"],
    ];
    for (const args of cases) {
      await t.step(args.join(" "), async () => {
        const light = await box.run(args, { env: secret });
        const cli = await viaCli(args, { ...env, ...secret }, box.project);
        assert.deepEqual(light, cli);
        if (args.includes("@srv")) {
          assert.match(light.stdout, /TOKEN=\*\*\*/);
          assert.doesNotMatch(light.stdout, /sk-light/);
        }
      });
    }
    await t.step("the run loads no npm package, no node: module", async () => {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "--log-level=debug", ...permissionFlags(), MAIN, "profile", "info", "@srv"],
        cwd: box.project,
        env: { ...env, ...secret },
        clearEnv: true,
        stdout: "null",
        stderr: "piped",
      }).output();
      assert.equal(out.code, 0);
      const log = new TextDecoder().decode(out.stderr);
      const loaded = [...log.matchAll(/for ES module: (\S+?),/g)].map((m) => m[1]);
      assert.ok(loaded.includes(`file://${ROOT}/lib/cli/light.ts`), "the light path ran");
      assert.ok(loaded.includes(`file://${ROOT}/lib/profile/trust.ts`), "the log lists modules");
      assert.deepEqual(loaded.filter((url) => /npm|node:|ext:deno_node|commander/.test(url)), []);
    });
  } finally {
    await box.dispose();
  }
});
