/**
 * The launchers' sandbox data (`sandbox` of each descriptor, lib/launch/)
 * says what lib/sandbox does for them: read by the small readers below, it
 * gives the interpreter and script runtime_mounts.ts finds in an argv, the
 * host caches and jn's own caches launcher_state.ts sets up. The readers are
 * how lib/sandbox can take these facts from the descriptors instead of
 * naming launchers.
 */

import assert from "node:assert/strict";
import { basename, join } from "node:path";
import { programName, type ScriptRuntime } from "../../lib/launch/descriptor.ts";
import { type LauncherDescriptor, LAUNCHERS } from "../../lib/launch/registry.ts";
import type { StdioLaunch } from "../../lib/launch/spec.ts";
import type { HostView } from "../../lib/sandbox/host_view.ts";
import { adaptLauncher, jnCache, npmCache } from "../../lib/sandbox/launcher_state.ts";
import { parseNpxArgs } from "../../lib/sandbox/npx_cache.ts";
import { findScript, runtimeOf } from "../../lib/sandbox/runtime_mounts.ts";
import { fakeHost } from "../sandbox/fake_host.ts";

const CALLER = { HOME: "/home/me", PATH: "/usr/bin" };

function launch(command: string, ...args: string[]): StdioLaunch {
  return { transport: "stdio", command, args, env: {}, label: command };
}

function byName(scheme: string): LauncherDescriptor {
  return LAUNCHERS.find((launcher) => launcher.schemes.includes(scheme))!;
}

/** The interpreter a launch's program is, by the descriptors' `sandbox.script.programs`. */
function interpreter(command: string): [string, ScriptRuntime] | undefined {
  for (const launcher of LAUNCHERS) {
    const script = launcher.sandbox?.script;
    if (script?.programs.test(programName(command))) return [launcher.schemes[0], script];
  }
  return undefined;
}

/** The script an interpreter launch names, read from the descriptors' data alone. */
function scriptOf(target: StdioLaunch): { runtime: string; index: number } | undefined {
  const found = interpreter(target.command);
  if (!found) return undefined;
  const [runtime, data] = found;
  let index = 0;
  if (data.subcommand !== undefined) {
    if (target.args[0] !== data.subcommand) return undefined;
    index = 1;
  }
  while (index < target.args.length) {
    const arg = target.args[index];
    if (arg === "--") {
      index++;
      break;
    }
    if (data.noScript.includes(arg)) return undefined;
    if (!arg.startsWith("-")) break;
    index += data.valueOptions.includes(arg) ? 2 : 1;
  }
  const arg = target.args[index];
  if (arg === undefined || arg === "" || /^[a-z][a-z0-9+.-]*:/i.test(arg)) return undefined;
  return { runtime, index };
}

/** The host cache a launcher reads, from its `sandbox.hostCache`. */
function hostCache(launcher: LauncherDescriptor, host: HostView): string | undefined {
  const data = launcher.sandbox?.hostCache;
  if (!data) return undefined;
  const env = host.env;
  const named = Object.entries(env).find(([key]) =>
    data.envAnyCase ? key.toLowerCase() === data.env.toLowerCase() : key === data.env
  );
  if (named?.[1]) return named[1];
  if (!env.HOME) return undefined;
  if (data.userCache !== undefined) {
    const base = host.os === "darwin"
      ? join(env.HOME, "Library", "Caches")
      : env.XDG_CACHE_HOME || join(env.HOME, ".cache");
    return join(base, data.userCache);
  }
  return data.home === undefined ? undefined : join(env.HOME, data.home);
}

/** The environment jn's own cache gives a launch, from `sandbox.ownCache`. */
function ownCacheEnv(launcher: LauncherDescriptor, target: StdioLaunch, network: boolean) {
  const data = launcher.sandbox!.ownCache!;
  const key = data.key === "packages"
    ? parseNpxArgs(target.args)!.packages
    : [basename(target.command), ...target.args];
  const root = join(
    jnCache({ callerEnv: CALLER, host: { os: "linux" } }, data.name, key)!,
    data.dir,
  );
  const env: Record<string, string> = { ...target.env };
  for (const [name, sub] of Object.entries(data.env)) env[name] = sub ? join(root, sub) : root;
  Object.assign(env, data.fixedEnv, network ? {} : data.offlineEnv);
  return { env, root };
}

Deno.test("sandbox.script: the same interpreter and script as runtime_mounts.ts", async (t) => {
  const names = ["node", "nodejs", "bun", "/usr/bin/node", "node.exe", "python", "python3"];
  names.push("python3.12", "pypy3", "/venv/bin/python", "deno", "uvx", "npx", "ruby", "denox");
  await t.step("runtimeOf()", () => {
    for (const name of names) assert.equal(interpreter(name)?.[0], runtimeOf(name), name);
  });
  const argvs: StdioLaunch[] = [
    launch("node", "s.js", "x"),
    launch("node", "-r", "./hook.js", "--import", "m", "/srv/s.js"),
    launch("node", "-e", "code"),
    launch("node", "--", "-odd.js"),
    launch("python3", "-W", "ignore", "-u", "server.py"),
    launch("python3", "-m", "module"),
    launch("python3", "-c", "print()"),
    launch("deno", "run", "--no-prompt", "--config", "deno.json", "/s/m.ts", "a"),
    launch("deno", "run", "-c", "x", "-"),
    launch("deno", "serve", "m.ts"),
    launch("deno", "run", "https://example.com/m.ts"),
    launch("node"),
    launch("npx", "-y", "pkg"),
  ];
  await t.step("findScript()", () => {
    for (const argv of argvs) {
      const found = findScript(argv, "/cwd");
      const expected = found && { runtime: found.runtime, index: found.index };
      assert.deepEqual(scriptOf(argv), expected, [argv.command, ...argv.args].join(" "));
    }
  });
});

Deno.test("sandbox.hostCache: the caches launcher_state.ts shows", async (t) => {
  await t.step("npx: npm_config_cache in any case, else ~/.npm", () => {
    const envs: Record<string, string>[] = [
      { HOME: "/h" },
      { HOME: "/h", NPM_CONFIG_CACHE: "/c" },
      { npm_config_cache: "/n" },
    ];
    for (const env of envs) {
      const host = fakeHost({}, { env });
      assert.equal(hostCache(byName("npx"), host), npmCache(host));
    }
  });
  await t.step("deno: DENO_DIR, else the user's cache directory, read-only", () => {
    const hosts: HostView[] = [
      fakeHost({ dirs: ["/home/me/.cache/deno"] }),
      fakeHost({ dirs: ["/x/deno"] }, { env: { HOME: "/home/me", XDG_CACHE_HOME: "/x" } }),
      fakeHost({ dirs: ["/home/me/Library/Caches/deno"] }, { os: "darwin" }),
      fakeHost({ dirs: ["/d"] }, { env: { HOME: "/home/me", DENO_DIR: "/d" } }),
    ];
    for (const host of hosts) {
      const adapted = adaptLauncher(launch("deno", "run", "/s/m.ts"), {
        network: true,
        callerEnv: CALLER,
        host,
      });
      assert.deepEqual(adapted.mounts.read, [hostCache(byName("deno"), host)]);
    }
  });
});

Deno.test("sandbox.ownCache: the variables and the writable cache of launcher_state.ts", () => {
  const host = fakeHost({});
  for (const network of [false, true]) {
    const uv = launch("uvx", "--from", "pkg", "cmd");
    const adapted = adaptLauncher(uv, { network, callerEnv: CALLER, host });
    const expected = ownCacheEnv(byName("uvx"), uv, network);
    assert.deepEqual(adapted.launch.env, expected.env);
    assert.deepEqual(adapted.mounts.write, [expected.root]);
  }
  const npx = launch("npx", "-y", "@scope/pkg@1");
  const adapted = adaptLauncher(npx, { network: true, callerEnv: CALLER, host });
  const expected = ownCacheEnv(byName("npx"), npx, true);
  assert.deepEqual(adapted.launch.env, expected.env);
  assert.deepEqual(adapted.mounts.write, [expected.root]);
  assert.equal(byName("npx").sandbox?.cachedPackages, "npx");
});
