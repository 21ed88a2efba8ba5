/**
 * lib/sandbox takes what it does for a launcher from the launcher's
 * descriptor (`sandbox` of lib/launch/*.ts) and names no launcher itself:
 * for every descriptor, what its data declares is what the real code does —
 * the interpreter and script runtime_mounts.ts finds in an argv (its
 * subcommand, value options and no-script options), the package markers and
 * resolution trees it shows, the host cache and jn's own cache
 * launcher_state.ts sets up, and where Deno's permission flags go.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { programName } from "../../lib/launch/descriptor.ts";
import { type LauncherDescriptor, LAUNCHERS } from "../../lib/launch/registry.ts";
import type { StdioLaunch } from "../../lib/launch/spec.ts";
import { isDenoRun } from "../../lib/sandbox/deno_permissions.ts";
import { adaptLauncher, hostCache, jnCache } from "../../lib/sandbox/launcher_state.ts";
import { findScript, scriptMounts } from "../../lib/sandbox/runtime_mounts.ts";
import { fakeHost } from "../sandbox/fake_host.ts";

const CALLER = { HOME: "/home/me", PATH: "/usr/bin" };

function launch(command: string, ...args: string[]): StdioLaunch {
  return { transport: "stdio", command, args, env: {}, label: command };
}

/** The launchers with script data, each with a program name its `programs` pattern takes. */
function interpreters() {
  return LAUNCHERS.flatMap((launcher) => {
    const script = launcher.sandbox?.script;
    const program = launcher.programs.find((name) => script?.programs.test(name));
    return script && program ? [{ launcher, script, program }] : [];
  });
}

Deno.test("every launcher with script data is an interpreter findScript() knows", () => {
  assert.ok(interpreters().length >= 3, "node, python and deno declare their scripts");
  for (const { launcher, script, program } of interpreters()) {
    const before = script.subcommand === undefined ? [] : [script.subcommand];
    for (const command of [program, `/opt/bin/${program}`]) {
      const found = findScript(launch(command, ...before, "s.x", "arg"), "/cwd");
      assert.deepEqual(found, {
        runtime: launcher.schemes[0],
        needs: script,
        index: before.length,
        path: "/cwd/s.x",
      });
    }
    if (script.subcommand !== undefined) {
      assert.equal(findScript(launch(program, "other", "s.x"), "/cwd"), undefined, program);
    }
    for (const option of script.valueOptions) {
      const found = findScript(launch(program, ...before, option, "v", "/s/m.x"), "/cwd");
      assert.equal(found?.index, before.length + 2, `${program} ${option}`);
    }
    for (const option of script.noScript) {
      const found = findScript(launch(program, ...before, option, "x"), "/cwd");
      assert.equal(found, undefined, `${program} ${option}`);
    }
  }
  for (const command of ["ruby", "npx", "uvx", "denox", "nodes"]) {
    assert.equal(findScript(launch(command, "s.x"), "/cwd"), undefined, command);
  }
});

Deno.test("scriptMounts() shows what each interpreter's data asks for", async (t) => {
  for (const { launcher, script, program } of interpreters()) {
    await t.step(launcher.schemes[0], () => {
      const before = script.subcommand === undefined ? [] : [script.subcommand];
      const found = findScript(launch(program, ...before, "/srv/app/src/s.x"), "/cwd")!;
      for (const marker of script.packageMarkers) {
        const host = fakeHost({
          files: { "/srv/app/src/s.x": "", [`/srv/app/${marker}`]: "" },
          dirs: ["/srv/app/node_modules", "/home/me/.local/lib/python3.12/site-packages"],
        });
        const mounts = scriptMounts(found, host);
        assert.equal(mounts[0], "/srv/app", marker);
        assert.equal(mounts.includes("/srv/app/node_modules"), script.nodeModules === true);
        assert.equal(
          mounts.includes("/home/me/.local/lib/python3.12/site-packages"),
          script.userSitePackages === true,
        );
      }
      const bare = scriptMounts(found, fakeHost({ files: { "/srv/app/src/s.x": "" } }));
      assert.deepEqual(bare, ["/srv/app/src"], "no marker: the script's directory");
    });
  }
});

Deno.test("sandbox.hostCache: where launcher_state.ts finds the host's cache", async (t) => {
  await t.step("a variable (in any case when it says so), else under the home", () => {
    const where = { env: "npm_config_cache", envAnyCase: true, home: ".npm" };
    const at = (env: Record<string, string>) => hostCache(where, fakeHost({}, { env }));
    assert.equal(at({ HOME: "/h" }), "/h/.npm");
    assert.equal(at({ HOME: "/h", NPM_CONFIG_CACHE: "/c" }), "/c");
    assert.equal(at({ npm_config_cache: "/n" }), "/n");
    assert.equal(
      hostCache({ env: "X" }, fakeHost({}, { env: { HOME: "/h", x: "/y" } })),
      undefined,
    );
  });
  await t.step("the user's cache directory: XDG_CACHE_HOME, ~/.cache, macOS Library/Caches", () => {
    const where = { env: "DENO_DIR", userCache: "deno" };
    const at = (env: Record<string, string>, os: "linux" | "darwin" = "linux") =>
      hostCache(where, fakeHost({}, { env, os }));
    assert.equal(at({ HOME: "/h" }), "/h/.cache/deno");
    assert.equal(at({ HOME: "/h", XDG_CACHE_HOME: "/x" }), "/x/deno");
    assert.equal(at({ HOME: "/h" }, "darwin"), "/h/Library/Caches/deno");
    assert.equal(at({ HOME: "/h", DENO_DIR: "/d" }), "/d");
    assert.equal(at({}), undefined);
  });
  const plain = LAUNCHERS.filter((l) =>
    l.sandbox?.hostCache && !l.sandbox.ownCache && !l.sandbox.cachedPackages
  );
  assert.ok(plain.length > 0, "deno reads the host's cache");
  for (const launcher of plain) {
    await t.step(
      `${launcher.schemes[0]}: read-only when present, a throw-away one when not`,
      async () => {
        const program = launcher.programs[0];
        const host = fakeHost({ dirs: ["/home/me/.cache/deno", "/home/me/.npm"] });
        const dir = hostCache(launcher.sandbox!.hostCache!, host)!;
        const adapt = async (tree: { dirs?: string[] }) =>
          await adaptLauncher(launch(program, "run", "/s/m.ts"), {
            network: true,
            callerEnv: CALLER,
            host: fakeHost(tree),
          });
        assert.deepEqual((await adapt({ dirs: [dir] })).mounts, {
          read: [dir],
          write: [],
          scratch: [],
        });
        assert.deepEqual((await adapt({})).mounts, { read: [], write: [], scratch: [dir] });
      },
    );
  }
});

Deno.test("sandbox.ownCache: every program of the launcher gets jn's own cache", async (t) => {
  const owners = LAUNCHERS.filter((l) => l.sandbox?.ownCache);
  assert.ok(owners.length >= 2, "npx and uvx write to jn's own caches");
  for (const launcher of owners) {
    const cache = launcher.sandbox!.ownCache!;
    for (const program of launcher.programs) {
      await t.step(`${program} (${launcher.schemes[0]})`, async () => {
        // An argv npx's parser does not follow: keyed by the argv, like any other.
        const argv = launch(program, "--registry", "https://r", "pkg");
        for (const network of [false, true]) {
          const adapted = await adaptLauncher(argv, {
            network,
            callerEnv: CALLER,
            host: fakeHost({}),
          });
          const key = [programName(program), ...argv.args];
          const own =
            (await jnCache({ callerEnv: CALLER, host: { os: "linux" } }, cache.name, key))!;
          const root = join(own, cache.dir);
          assert.match(own, new RegExp(`/home/me/\\.cache/jn/sandbox/${cache.name}-[0-9a-f]{16}$`));
          const env: Record<string, string> = {};
          for (const [name, sub] of Object.entries(cache.env)) env[name] = join(root, sub);
          Object.assign(env, cache.fixedEnv, network ? {} : cache.offlineEnv);
          assert.deepEqual(adapted.launch.env, env);
          assert.deepEqual(adapted.mounts, { read: [], write: [root], scratch: [] });
        }
      });
    }
  }
  await t.step("without a home for jn's caches: a throw-away one", async () => {
    for (const launcher of owners) {
      const adapted = await adaptLauncher(launch(launcher.programs[0], "x"), {
        network: true,
        callerEnv: {},
        host: fakeHost({}, { env: {} }),
      });
      const dir = launcher.sandbox!.ownCache!.dir;
      assert.ok(Object.values(adapted.launch.env).some((v) => v.startsWith(`/tmp/.${dir}`)));
      assert.deepEqual(adapted.mounts.write, []);
    }
  });
});

Deno.test("programs no launcher names are left as they are", async () => {
  for (const command of ["ruby", "/usr/bin/env", "python3"]) {
    const original = launch(command, "x");
    const adapted = await adaptLauncher(original, {
      network: false,
      callerEnv: CALLER,
      host: fakeHost({}),
    });
    assert.equal(adapted.launch, original);
    assert.deepEqual(adapted.mounts, { read: [], write: [], scratch: [] });
  }
});

Deno.test("Deno's permission flags go to the launchers that declare them", () => {
  const takers: LauncherDescriptor[] = LAUNCHERS.filter((l) => l.sandbox?.denoPermissions);
  assert.ok(takers.length > 0);
  for (const launcher of takers) {
    const subcommand = launcher.sandbox!.script?.subcommand;
    for (const program of launcher.programs) {
      assert.equal(isDenoRun(launch(program, subcommand ?? "m.ts", "m.ts")), true, program);
      if (subcommand) assert.equal(isDenoRun(launch(program, "serve", "m.ts")), false);
    }
  }
  for (const launcher of LAUNCHERS.filter((l) => !l.sandbox?.denoPermissions)) {
    for (const program of launcher.programs) {
      assert.equal(isDenoRun(launch(program, "run", "m.ts")), false, program);
    }
  }
});

Deno.test("a change to a descriptor's data is a change of the sandbox, nothing else to edit", async () => {
  const node = LAUNCHERS.find((l) => l.schemes.includes("node"))!;
  const uvx = LAUNCHERS.find((l) => l.schemes.includes("uvx"))!;
  const saved = { script: node.sandbox!.script!, ownCache: uvx.sandbox!.ownCache! };
  try {
    Object.assign(node.sandbox!, {
      script: { ...saved.script, packageMarkers: ["jn.marker"], valueOptions: ["--jn"] },
    });
    Object.assign(uvx.sandbox!, { ownCache: { ...saved.ownCache, env: { JN_CACHE: "x" } } });
    const found = findScript(launch("node", "--jn", "v", "/srv/app/src/s.js"), "/cwd")!;
    assert.equal(found.index, 2);
    const host = fakeHost({ files: { "/srv/app/src/s.js": "", "/srv/app/jn.marker": "" } });
    assert.equal(scriptMounts(found, host)[0], "/srv/app");
    const adapted = await adaptLauncher(launch("uvx", "pkg"), {
      network: true,
      callerEnv: CALLER,
      host: fakeHost({}),
    });
    assert.deepEqual(Object.keys(adapted.launch.env), ["JN_CACHE"]);
  } finally {
    Object.assign(node.sandbox!, { script: saved.script });
    Object.assign(uvx.sandbox!, { ownCache: saved.ownCache });
  }
});
