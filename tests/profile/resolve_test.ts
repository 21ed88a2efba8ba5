/**
 * Resolving `@server` references against the layers, in process: precedence,
 * how lower layers' tool files extend a server, tool mapping, defaults,
 * launch specs, path safety and trust.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ConfigError } from "../../lib/errors.ts";
import type { HttpLaunch, StdioLaunch } from "../../lib/launch/spec.ts";
import { loadProfile } from "../../lib/profile/resolve.ts";
import { recordTrust } from "../../lib/profile/trust.ts";
import { resolveTarget } from "../../lib/client/resolve.ts";
import { parseSource } from "../../lib/uri/parse.ts";
import { sandbox } from "./sandbox.ts";

const meta = (fields: Record<string, unknown>) => JSON.stringify({ command: "node", ...fields });

Deno.test("profiles: the first layer with _meta.json wins (project, user, JN_HOME, bundled)", async (t) => {
  const box = await sandbox();
  const jnHome = join(box.root, "jn_home");
  const options = { cwd: box.project, env: { HOME: box.home, JN_HOME: jnHome } };
  const description = async () => (await loadProfile("demo", options)).meta.description;
  try {
    await t.step("bundled when no other layer has it", async () => {
      assert.match((await description())!, /embedded demo server/);
    });
    await box.write(`${jnHome}/profiles/mcp/demo/_meta.json`, meta({ description: "jn_home" }));
    await t.step(
      "$JN_HOME before bundled",
      async () => assert.equal(await description(), "jn_home"),
    );
    await box.write(
      `${box.user}/demo/_meta.jsonc`,
      `// user\n{"command": "node", "description": "user",}`,
    );
    await t.step(
      "user (.jsonc too) before $JN_HOME",
      async () => assert.equal(await description(), "user"),
    );
    await box.write(`${box.projectProfiles}/demo/_meta.json`, meta({ description: "project" }));
    await t.step("project before user", async () => {
      const profile = await loadProfile("demo", options);
      assert.equal(profile.meta.description, "project");
      assert.equal(profile.layer, "project");
      assert.equal(profile.dir, join(box.projectProfiles, "demo"));
    });
  } finally {
    await box.dispose();
  }
});

Deno.test("profiles: tool files of lower layers extend the defining one, never those above it", async (t) => {
  const box = await sandbox();
  const options = { cwd: box.project, env: { HOME: box.home } };
  try {
    await box.write(`${box.user}/demo/_meta.json`, meta({ description: "mine" }));
    await box.write(
      `${box.user}/demo/items.json`,
      `{"tool": "list_items", "defaults": {"count": 1}}`,
    );
    await t.step("overriding a bundled _meta.json keeps the bundled tool files", async () => {
      const profile = await loadProfile("demo", options);
      assert.deepEqual(profile.tools.map((t) => [t.name, t.layer]), [["echo", "bundled"], [
        "items",
        "user",
      ]]);
      assert.deepEqual(
        profile.tools[1].def.defaults,
        { count: 1 },
        "the higher layer's file wins whole",
      );
    });
    await t.step(`"inherit_tools": false keeps only the defining layer's tools`, async () => {
      await box.write(`${box.user}/demo/_meta.json`, meta({ inherit_tools: false }));
      const profile = await loadProfile("demo", options);
      assert.deepEqual(profile.tools.map((t) => t.name), ["items"]);
    });
    await t.step(
      "a project directory without _meta.json adds nothing and is reported",
      async () => {
        await box.write(
          `${box.projectProfiles}/demo/evil.json`,
          `{"tool": "rm", "defaults": {"path": "/"}}`,
        );
        const profile = await loadProfile("demo", options);
        assert.deepEqual(profile.tools.map((t) => t.name), ["items"]);
        assert.deepEqual(profile.ignored, [join(box.projectProfiles, "demo")]);
      },
    );
    await t.step("tool files without any _meta.json are not a profile", async () => {
      await box.write(`${box.user}/orphan/t.json`, `{}`);
      await assert.rejects(
        loadProfile("orphan", options),
        (error: unknown) =>
          error instanceof ConfigError && error.message.includes("has no _meta.json"),
      );
    });
    await t.step("an unknown profile is a ConfigError", async () => {
      await assert.rejects(
        loadProfile("nope", options),
        (error: unknown) =>
          error instanceof ConfigError && error.message === `Profile "@nope" not found`,
      );
    });
    await t.step(
      "_meta.json beside _meta.jsonc, or t.json beside t.jsonc, is ambiguous",
      async () => {
        await box.write(`${box.user}/two/_meta.json`, meta({}));
        await box.write(`${box.user}/two/t.json`, `{}`);
        await box.write(`${box.user}/two/t.jsonc`, `{}`);
        await assert.rejects(loadProfile("two", options), /defines tool "t" twice/);
        await box.write(`${box.user}/two/_meta.jsonc`, meta({}));
        await assert.rejects(loadProfile("two", options), /both _meta.json and _meta.jsonc/);
      },
    );
  } finally {
    await box.dispose();
  }
});

Deno.test("resolveTarget() maps profile tools to server tools with their defaults", async (t) => {
  const box = await sandbox();
  const options = { cwd: box.project, env: { HOME: box.home, API_KEY: "k-123456789" } };
  const target = (ref: string) => resolveTarget(parseSource(ref), options);
  try {
    await box.write(
      `${box.user}/s/_meta.json`,
      meta({
        args: ["server.js", "--key", "${API_KEY}"],
        env: { LEVEL: "${LEVEL:-info}" },
        cwd: "work",
        tools: { greet: { defaults: { a: "meta", b: "meta" } } },
      }),
    );
    await box.write(
      `${box.user}/s/greet.json`,
      `{"tool": "echo", "defaults": {"text": "file", "a": "file"}}`,
    );
    await box.write(`${box.user}/x.json`, `{"tool": "escaped", "defaults": {"leak": true}}`);
    await t.step("@s/greet calls echo with tool-file defaults under _meta.json's", async () => {
      const resolved = await target("@s/greet?b=uri");
      assert.deepEqual(resolved.operation, { kind: "tool", name: "echo" });
      assert.deepEqual(resolved.defaults, { text: "file", a: "meta", b: "meta" });
      assert.deepEqual(resolved.queryArgs, [{ key: "b", value: "uri" }]);
      assert.equal(resolved.name, "@s");
    });
    await t.step(
      "?tool=greet is the same as /greet; an unknown tool goes to the server as is",
      async () => {
        assert.deepEqual((await target("@s?tool=greet")).operation, { kind: "tool", name: "echo" });
        const raw = await target("@s/search");
        assert.deepEqual([raw.operation, raw.defaults], [{ kind: "tool", name: "search" }, {}]);
      },
    );
    await t.step("resources, prompts and lists pass through", async () => {
      assert.deepEqual((await target("@s?resource=demo://x")).operation, {
        kind: "resource",
        uri: "demo://x",
      });
      assert.deepEqual((await target("@s?prompt=p&k=v")).operation, { kind: "prompt", name: "p" });
      assert.deepEqual((await target("@s?list=prompts")).operation, {
        kind: "list",
        what: "prompts",
      });
    });
    await t.step("a tool name never escapes the profile directory", async () => {
      for (const ref of ["@s/../x", "@s/..%2Fx", "@s/%2E%2E%2Fx", "@s?tool=../x"]) {
        const resolved = await target(ref);
        assert.deepEqual(resolved.defaults, {}, ref);
        assert.equal(resolved.operation.kind, "tool");
      }
    });
    await t.step(
      "the launch: argv, env, cwd relative to the profile, secrets collected",
      async () => {
        const resolved = await target("@s");
        const launch = resolved.launch as StdioLaunch;
        assert.deepEqual([launch.command, launch.args], ["node", [
          "server.js",
          "--key",
          "k-123456789",
        ]]);
        assert.deepEqual(launch.env, { LEVEL: "info" });
        assert.equal(launch.cwd, join(box.user, "s", "work"));
        assert.deepEqual(resolved.secrets, ["k-123456789"]);
      },
    );
  } finally {
    await box.dispose();
  }
});

Deno.test("resolveTarget() builds http launches and refuses contradictory configs", async (t) => {
  const box = await sandbox();
  const options = { cwd: box.project, env: { HOME: box.home, TOKEN: "t-abcdefgh" } };
  try {
    await box.write(
      `${box.user}/remote/_meta.json`,
      JSON.stringify({
        url: "https://example.com/mcp",
        headers: { Authorization: "Bearer ${TOKEN}" },
      }),
    );
    await t.step("url + headers → an http launch", async () => {
      const launch = (await resolveTarget(parseSource("@remote"), options)).launch as HttpLaunch;
      assert.deepEqual(launch, {
        transport: "http",
        url: "https://example.com/mcp",
        headers: { Authorization: "Bearer t-abcdefgh" },
        label: "@remote",
      });
    });
    for (
      const [fields, message] of [
        [{ command: "x", url: "https://e/mcp" }, `give "command" (a local server) or "url"`],
        [{ description: "nothing" }, `it needs "command" (a local server) or "url"`],
        [{ transport: "sse" }, `"transport": "sse" needs "url"`],
        [{ url: "ftp://e" }, `"url" must start with http:// or https://`],
      ] as const
    ) {
      await t.step(message, async () => {
        await box.write(`${box.user}/bad/_meta.json`, JSON.stringify(fields));
        await assert.rejects(
          resolveTarget(parseSource("@bad"), options),
          (error: unknown) => error instanceof ConfigError && error.message.includes(message),
        );
      });
    }
  } finally {
    await box.dispose();
  }
});

Deno.test("resolveTarget() launches a project profile only while its directory is as trusted", async (t) => {
  const box = await sandbox();
  const options = { cwd: box.project, env: { HOME: box.home } };
  const resolve = () => resolveTarget(parseSource("@p/t"), options);
  const dir = `${box.projectProfiles}/p`;
  const file = `${dir}/_meta.json`;
  try {
    await box.write(file, meta({ args: ["a.js"], env: { K: "${K:-1}" } }));
    await t.step("untrusted: a ConfigError with the command to run", async () => {
      await assert.rejects(resolve(), (error: unknown) =>
        error instanceof ConfigError &&
        error.message === `Project profile "@p" is not trusted to launch "node a.js"` &&
        error.hint!.endsWith("then run: jn profile trust @p"));
    });
    await t.step("trusted: it resolves; the record lives in ~/.local/jn/trust.json", async () => {
      await recordTrust(await loadProfile("p", options), options.env);
      await resolve();
      const store = JSON.parse(await Deno.readTextFile(`${box.home}/.local/jn/trust.json`));
      assert.equal(store.version, 2);
      const records = Object.values(store.profiles) as { files: Record<string, string> }[];
      assert.deepEqual(records.map((r) => Object.keys(r.files)), [["_meta.json"]]);
    });
    await t.step("a variable's value does not matter: ${VAR} is trusted as written", async () => {
      await resolveTarget(parseSource("@p"), { ...options, env: { ...options.env, K: "2" } });
    });
    await t.step("any change of any file asks again: a description, a tool file", async () => {
      await box.write(file, meta({ args: ["a.js"], env: { K: "${K:-1}" }, description: "new" }));
      await assert.rejects(
        resolve(),
        /changed since you trusted it: modified _meta.json \(description\)/,
      );
      await recordTrust(await loadProfile("p", options), options.env);
      await resolve();
      await box.write(`${dir}/t.json`, `{"defaults": {"x": 1}}`);
      await assert.rejects(resolve(), /changed since you trusted it: added t.json$/);
    });
  } finally {
    await box.dispose();
  }
});

Deno.test("resolveTarget(): a relative cwd resolves through the profile directory's real path", async () => {
  const box = await sandbox();
  const options = { cwd: box.project, env: { HOME: box.home } };
  const real = join(box.root, "elsewhere", "s");
  try {
    await box.write(`${real}/_meta.json`, meta({ args: ["./server.js"], cwd: "work" }));
    await Deno.mkdir(box.user, { recursive: true });
    await Deno.symlink(real, `${box.user}/s`);
    const target = await resolveTarget(parseSource("@s"), options);
    // Not the symlink's path: a later swap of the link cannot move the server.
    assert.equal((target.launch as StdioLaunch).cwd, join(real, "work"));
    assert.equal(target.profile?.dir, `${box.user}/s`);
    assert.equal(target.profile?.realDir, real);
  } finally {
    await box.dispose();
  }
});
