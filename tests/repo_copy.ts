/**
 * A copy of jn's source (main.ts, mod.ts, deno.json, deno.lock, lib/,
 * scripts/) in a temporary directory, for tests that prove what a change
 * touches: they change the copy the way CONTRIBUTING.md says (add a
 * launcher, a query key) and run jn, its help generator and `deno check`
 * there. The repository itself is never written.
 *
 * @module
 */

import assert from "node:assert/strict";
import { permissionFlags } from "../lib/sandbox/permissions.ts";
import { baseEnv, finish, ROOT, type RunResult } from "./helpers.ts";

const SOURCE = ["main.ts", "mod.ts", "deno.json", "deno.lock", "lib", "scripts"];

/** A changeable copy of jn's source; disposing of it removes it. */
export interface RepoCopy extends AsyncDisposable {
  /** Its root directory. */
  dir: string;
  /** Writes `text` to `path` (relative to the root). */
  write(path: string, text: string): Promise<void>;
  /** Replaces `from` (which must occur exactly once) with `to` in `path`. */
  edit(path: string, from: string, to: string): Promise<void>;
  /** Removes `path`. */
  remove(path: string): Promise<void>;
  /** Runs `jn ARGS…` from the copy, with the production permission set. */
  jn(args: string[], env?: Record<string, string>): Promise<RunResult>;
  /** Runs `deno ARGS…` in the copy (e.g. `check main.ts`). */
  deno(args: string[]): Promise<RunResult>;
}

/** A fresh copy of jn's source. */
export async function repoCopy(): Promise<RepoCopy> {
  const dir = await Deno.makeTempDir({ prefix: "jn-repo-copy-" });
  for (const entry of SOURCE) await copy(`${ROOT}/${entry}`, `${dir}/${entry}`);
  const run = (args: string[], env: Record<string, string> = {}) =>
    finish(
      new Deno.Command(Deno.execPath(), {
        args,
        cwd: dir,
        env: { ...baseEnv(), ...env },
        clearEnv: true,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).spawn(),
      { timeoutMs: 120_000 },
    );
  return {
    dir,
    write: (path, text) => Deno.writeTextFile(`${dir}/${path}`, text),
    async edit(path, from, to) {
      const text = await Deno.readTextFile(`${dir}/${path}`);
      assert.equal(text.split(from).length, 2, `"${from}" occurs once in ${path}`);
      await Deno.writeTextFile(`${dir}/${path}`, text.replace(from, to));
    },
    remove: (path) => Deno.remove(`${dir}/${path}`),
    jn: (args, env) =>
      run(["run", "--config", `${dir}/deno.json`, ...permissionFlags(), "main.ts", ...args], env),
    deno: (args) => run(args),
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

async function copy(from: string, to: string): Promise<void> {
  if ((await Deno.stat(from)).isFile) return await Deno.copyFile(from, to);
  await Deno.mkdir(to);
  for await (const entry of Deno.readDir(from)) {
    await copy(`${from}/${entry.name}`, `${to}/${entry.name}`);
  }
}
