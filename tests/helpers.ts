/**
 * Test helpers: run the jn CLI from source exactly as users and CI do
 * (`deno run` with the production permission set of deno.json on main.ts),
 * and build throwaway HOME/project trees.
 *
 * @module
 */

import { permissionFlags } from "../lib/sandbox/permissions.ts";

/** The repository root. */
export const ROOT = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
/** main.ts of the repository. */
export const MAIN = `${ROOT}/main.ts`;
/** The fixture servers' directory. */
export const FIXTURES = `${ROOT}/tests/fixtures`;

/** What a jn run produced. */
export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Options of {@linkcode runJn}. */
export interface RunOptions {
  /** Text for stdin (stdin is closed otherwise). */
  stdin?: string;
  /** Environment variables added to a minimal base (PATH, HOME, DENO_DIR). */
  env?: Record<string, string>;
  cwd?: string;
  /** Kill jn after this many ms (a hung test fails instead of hanging). */
  timeoutMs?: number;
  /** Deno permission flags instead of the production set. */
  permissions?: string[];
}

/** The base environment of a test run: no caller secrets, a private HOME unless given. */
export function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: Deno.env.get("HOME") ?? "/tmp",
    NO_COLOR: "1",
  };
  // Tests give jn a private HOME; Deno's module cache must stay the real one.
  env.DENO_DIR = DENO_DIR;
  return env;
}

/** Deno's module cache directory of the test runner. */
export const DENO_DIR: string = Deno.env.get("DENO_DIR") ?? defaultDenoDir();

function defaultDenoDir(): string {
  const home = Deno.env.get("HOME") ?? "/tmp";
  if (Deno.build.os === "darwin") return `${home}/Library/Caches/deno`;
  if (Deno.build.os === "windows") return `${Deno.env.get("LOCALAPPDATA")}\\deno`;
  return `${Deno.env.get("XDG_CACHE_HOME") ?? `${home}/.cache`}/deno`;
}

/** The arguments of `deno` that run `jn ARGS…` from source (the production permission set by default). */
export function jnArgs(args: string[], permissions: string[] = permissionFlags()): string[] {
  return ["run", "--config", `${ROOT}/deno.json`, ...permissions, MAIN, ...args];
}

/** Runs `jn ARGS…` from source with the production permission set. */
export async function runJn(args: string[], options: RunOptions = {}): Promise<RunResult> {
  const command = new Deno.Command(Deno.execPath(), {
    args: jnArgs(args, options.permissions),
    cwd: options.cwd ?? ROOT,
    env: { ...baseEnv(), ...options.env },
    clearEnv: true,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  });
  return await finish(command.spawn(), { stdin: options.stdin, timeoutMs: options.timeoutMs });
}

/**
 * Feeds a spawned child its stdin (if any), collects its output, and kills
 * it after `timeoutMs` (a hung test fails instead of hanging).
 */
export async function finish(
  child: Deno.ChildProcess,
  options: { stdin?: string; timeoutMs?: number } = {},
): Promise<RunResult> {
  const timer = setTimeout(() => {
    try {
      child.kill("SIGKILL");
    } catch { /* gone */ }
  }, options.timeoutMs ?? 60_000);
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  }
  const output = await child.output();
  clearTimeout(timer);
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

/** Parses NDJSON output into values (fails on a line that is not JSON). */
export function parseNdjson(text: string): unknown[] {
  return text.split("\n").filter((line) => line !== "").map((line) => JSON.parse(line));
}

/** A temporary directory removed when the returned disposable is disposed. */
export async function tempDir(prefix = "jn-test-"): Promise<string> {
  return await Deno.makeTempDir({ prefix });
}

/**
 * A file the fixture server appends each tools/call to (`--call-log PATH`),
 * and the event a test waits for: the call reached the server.
 */
export async function callLog(): Promise<{
  /** The log's path (give it to the fixture: `command=--call-log&command=PATH`). */
  path: string;
  /** Resolves once a call of `tool` is in the log. */
  called(tool: string): Promise<void>;
  /** Removes the log. */
  dispose(): Promise<void>;
}> {
  const dir = await Deno.makeTempDir({ prefix: "jn-call-log-" });
  const path = `${dir}/calls.ndjson`;
  await Deno.writeTextFile(path, "");
  const logged = async (tool: string) =>
    (await Deno.readTextFile(path)).split("\n").some((line) => {
      try {
        return JSON.parse(line).name === tool;
      } catch {
        return false; // empty, or still being written
      }
    });
  return {
    path,
    async called(tool) {
      using watcher = Deno.watchFs(path);
      if (await logged(tool)) return;
      for await (const _ of watcher) if (await logged(tool)) return;
    },
    dispose: () => Deno.remove(dir, { recursive: true }),
  };
}

/**
 * Runs `jn ARGS…` in this process: lib/cli's `main()` with an `Io` of plain
 * data (the environment {@linkcode runJn} gives, stdin from `options.stdin`,
 * no TTYs). The same CLI code from argv to exit code, without starting a
 * Deno process (~0.5 s of CPU each): for tests of what a command does, its
 * records, messages and exit codes. Whatever depends on the process itself
 * (Deno permissions, signals, process exit, the light paths of main.ts) is
 * tested with {@linkcode runJn}.
 */
export async function runJnHere(
  args: string[],
  options: Omit<RunOptions, "permissions"> = {},
): Promise<RunResult> {
  const { main } = await import("../lib/cli/main.ts");
  const collect = () => {
    const chunks: Uint8Array[] = [];
    return {
      chunks,
      write: (bytes: Uint8Array) => {
        chunks.push(bytes.slice());
        return Promise.resolve(bytes.length);
      },
    };
  };
  const out = collect();
  const err = collect();
  const input = options.stdin === undefined ? undefined : new TextEncoder().encode(options.stdin);
  const stdin = new ReadableStream<Uint8Array>({
    start(controller) {
      if (input !== undefined && input.length > 0) controller.enqueue(input);
      controller.close();
    },
  });
  const run = main(args, {
    stdout: { write: out.write },
    stderr: { write: err.write },
    stdin,
    env: { ...baseEnv(), ...options.env },
    cwd: options.cwd ?? ROOT,
    tty: { stdin: false, stdout: false, stderr: false },
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`jn ${args.join(" ")} ran over ${options.timeoutMs ?? 60_000} ms`)),
      options.timeoutMs ?? 60_000,
    );
  });
  try {
    const code = await Promise.race([run, timeout]);
    const text = (chunks: Uint8Array[]) => {
      const bytes = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
      let offset = 0;
      for (const chunk of chunks) {
        bytes.set(chunk, offset);
        offset += chunk.length;
      }
      return new TextDecoder().decode(bytes);
    };
    return { code, stdout: text(out.chunks), stderr: text(err.chunks) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A run of jn from source with Deno's module log (`--log-level=debug`): its
 * exit code, its stdout, and the URLs of the modules it loaded, to check
 * which path a command took. `stdin` is written to it when given.
 */
export async function loadedModules(
  args: string[],
  options: { cwd: string; env: Record<string, string>; stdin?: string },
): Promise<{ code: number; stdout: string; loaded: string[] }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--log-level=debug", ...permissionFlags(), MAIN, ...args],
    cwd: options.cwd,
    env: options.env,
    clearEnv: true,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  }
  const out = await child.output();
  const log = new TextDecoder().decode(out.stderr);
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    loaded: [...log.matchAll(/for ES module: (\S+?),/g)].map((m) => m[1]),
  };
}

/**
 * True on Linux when an unprivileged user namespace may mount a tmpfs
 * (`unshare -rm`), for tests of a full or read-only file system.
 */
export async function canMountTmpfs(): Promise<boolean> {
  if (Deno.build.os !== "linux") return false;
  try {
    const dir = await tempDir();
    const { code } = await new Deno.Command("unshare", {
      args: ["-rm", "sh", "-c", `mount -t tmpfs none ${dir}`],
      stdout: "null",
      stderr: "null",
    }).output();
    await Deno.remove(dir);
    return code === 0;
  } catch {
    return false;
  }
}

/** Whether anything is at `path` (a dangling symlink counts). */
export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}
