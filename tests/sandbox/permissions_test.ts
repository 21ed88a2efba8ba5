/**
 * jn's own Deno permissions: the production set is the one every task uses,
 * a refused permission is one line naming the exact flag (exit 6), and the
 * narrow CI set of docs/install.md is enough to call a node server.
 */

import assert from "node:assert/strict";
import config from "../../deno.json" with { type: "json" };
import { describeRefusal, refusalMessage } from "../../lib/errors.ts";
import { JN_PERMISSIONS, permissionFlags } from "../../lib/sandbox/permissions.ts";
import { FIXTURES, parseNdjson, ROOT, runJn } from "../helpers.ts";
import { requireBwrap } from "./bwrap_support.ts";

const FIXTURE = `mcp+node://${FIXTURES}/servers/fixture.mjs`;
const NO_BWRAP = await requireBwrap("tests/sandbox/permissions_test.ts");

/** The narrow set of docs/install.md ("CI recipe"), for a checkout at ROOT. */
const CI_FLAGS = [`--allow-read=${ROOT}`, "--allow-env", "--allow-run=node,npx", "--no-prompt"];

Deno.test("the deno.json tasks run with exactly permissionFlags()", async (t) => {
  const tasks = config.tasks as Record<string, string>;
  for (const name of ["jn", "demo", "bench", "compile"]) {
    await t.step(`task "${name}" uses the production flags, in order`, () => {
      const words = tasks[name].split(/\s+/);
      assert.deepEqual(words.slice(0, 2), ["deno", "run"]);
      const flags = words.slice(2).filter((word) => word.startsWith("--"));
      assert.deepEqual(flags, permissionFlags());
    });
  }
  await t.step('task "install" installs jn with the production flags', () => {
    // First the CLI's packages are cached: main.ts loads the CLI by a computed specifier, which
    // `deno install --global` does not follow.
    const [cache, install] = tasks.install.split(" && ");
    assert.equal(cache, "deno install --entrypoint lib/cli/main.ts");
    const words = install.split(/\s+/);
    assert.deepEqual(words.slice(0, 3), ["deno", "install", "--global"]);
    const flags = words.filter((word) => word.startsWith("--allow-") || word === "--no-prompt");
    assert.deepEqual(flags, permissionFlags());
    assert.equal(words.at(-1), "main.ts");
  });
  await t.step('task "test" uses the named set -P=jn', () => {
    assert.match(tasks.test, /^(DENO_JOBS=\d+ )?deno test -P=jn /);
  });
  await t.step("the production set grants no sys, ffi or import access", () => {
    assert.deepEqual(Object.keys(JN_PERMISSIONS).sort(), ["env", "net", "read", "run", "write"]);
    assert.equal(permissionFlags().some((flag) => /sys|ffi|import|-A$/.test(flag)), false);
  });
});

Deno.test("describeRefusal() names the flag and value Deno refused", async (t) => {
  const cases: [string, string][] = [
    ['await Deno.readTextFile("/etc/hostname")', "--allow-read=/etc/hostname"],
    ['Deno.env.get("API_KEY")', "--allow-env=API_KEY"],
    ["Deno.env.toObject()", "--allow-env"],
    ['new Deno.Command("ls").outputSync()', "--allow-run=ls"],
    ["Deno.hostname()", "--allow-sys=hostname"],
  ];
  for (const [code, flag] of cases) {
    await t.step(`${code} → ${flag}`, async () => {
      // A real refusal: a deno process with no permissions at all.
      const script = await Deno.makeTempFile({ suffix: ".ts" });
      await Deno.writeTextFile(script, code);
      const output = await new Deno.Command(Deno.execPath(), {
        args: ["run", "--no-prompt", script],
        env: { NO_COLOR: "1" },
        stdout: "null",
        stderr: "piped",
      }).output();
      await Deno.remove(script);
      const message = /NotCapable: (.*)/.exec(new TextDecoder().decode(output.stderr))?.[1];
      assert.ok(message, "deno refused nothing");
      assert.equal(describeRefusal(new Error(message))?.flag, flag);
      assert.match(refusalMessage(new Error(message)), new RegExp(`needs ${flag} \\(`));
    });
  }
  await t.step("a message of another shape is left alone", () => {
    assert.equal(describeRefusal(new Error("something else")), undefined);
    assert.equal(refusalMessage(new Error("something else")), "something else");
  });
});

Deno.test("a refused permission is one line naming the flag, exit 6", async (t) => {
  await t.step("a uvx server when only node and npx may run", async () => {
    const result = await runJn(["cat", "mcp+uvx://some-package?tool=echo"], {
      permissions: CI_FLAGS,
      // The fake uvx exists on PATH: what stops it is the permission, not a missing program.
      env: { PATH: `${FIXTURES}/bin:${Deno.env.get("PATH")}` },
    });
    assert.equal(result.code, 6);
    assert.equal(result.stdout, "");
    assert.equal(
      result.stderr,
      'jn: Cannot start server "uvx some-package": jn was started without --allow-run=uvx\n' +
        "hint: add --allow-run=uvx to jn's permissions (see docs/install.md)\n",
    );
  });

  await t.step("a launcher that is not installed is exit 4 at once (it used to hang)", async () => {
    // The watchdog (timeoutMs) kills a jn that hangs, which then fails on its exit code.
    const result = await runJn(["cat", "mcp+uvx://some-package?tool=echo"], {
      permissions: ["--allow-read", "--allow-env", "--allow-run", "--no-prompt"],
      env: { PATH: "/nonexistent" },
      timeoutMs: 20_000,
    });
    assert.equal(result.code, 4);
    assert.match(
      result.stderr,
      /^jn: Cannot start server "uvx some-package": uvx not found on PATH\n/,
    );
  });

  await t.step("no --allow-env at all", async () => {
    const result = await runJn(["cat", `${FIXTURE}?tool=echo`], {
      permissions: ["--allow-read", "--allow-run=node", "--no-prompt"],
    });
    assert.equal(result.code, 6);
    assert.equal(
      result.stderr,
      "jn: Permission refused: env access needs --allow-env (jn was started without it)\n",
    );
  });
});

Deno.test("the narrow CI permission set runs a node server", async (t) => {
  await t.step("cat calls the fixture's echo tool", async () => {
    const result = await runJn(["cat", `${FIXTURE}?tool=echo&text=ci`], { permissions: CI_FLAGS });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, "");
    assert.deepEqual(parseNdjson(result.stdout), [{
      type: "tool_result",
      tool: "echo",
      content_type: "text",
      text: '{"text":"ci"}',
    }]);
  });

  await t.step(
    "a sessions directory it cannot check (who runs jn is unknown) is passed by silently",
    async () => {
      const home = await Deno.makeTempDir({ prefix: "jn-perm-home-" });
      try {
        await Deno.mkdir(`${home}/.local/jn/sessions`, { recursive: true, mode: 0o700 });
        const result = await runJn(["cat", `${FIXTURE}?tool=echo&text=ci`], {
          permissions: [`--allow-read=${ROOT},${home}`, ...CI_FLAGS.slice(1)],
          env: { HOME: home },
        });
        assert.equal(result.code, 0, result.stderr);
        assert.equal(result.stderr, "");
      } finally {
        await Deno.remove(home, { recursive: true });
      }
    },
  );

  await t.step({
    name: "with bwrap runnable too, --sandbox works",
    ignore: NO_BWRAP,
    fn: async () => {
      const result = await runJn(["cat", "--sandbox", `${FIXTURE}?tool=echo&text=boxed`], {
        permissions: [...CI_FLAGS.slice(0, 2), "--allow-run=node,npx,bwrap", "--no-prompt"],
        cwd: `${FIXTURES}/servers`,
      });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stderr, "");
      assert.match(result.stdout, /\{\\"text\\":\\"boxed\\"\}/);
    },
  });

  await t.step("inspect lists its tools", async () => {
    const result = await runJn(["inspect", "--format", "json", FIXTURE], {
      permissions: CI_FLAGS,
    });
    assert.equal(result.code, 0, result.stderr);
    const inventory = JSON.parse(result.stdout) as { tools: { name: string }[] };
    assert.ok(inventory.tools.some((tool) => tool.name === "echo"));
  });
});
