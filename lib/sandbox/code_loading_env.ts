/**
 * The variables that make a program run code that is not its own: the one
 * list jn keeps of them, each with the reason it is on it. A profile's `env`
 * is the server's (jn's own steps never see it: lib/sandbox/confine.ts), so
 * this list is not a filter: `jn profile trust` and `jn profile info` warn
 * about each such variable a profile sets, so that a reviewer sees that
 * `LD_PRELOAD=./x.so` is more than a setting; the macOS sandbox keeps the
 * loader's (`loader`) off its helper, `sandbox-exec` (seatbelt.ts).
 *
 * What is on the list, and why:
 * - the dynamic loader's variables act on every program as it starts,
 *   before its own code: `LD_*` (`LD_PRELOAD`, `LD_AUDIT` and
 *   `LD_LIBRARY_PATH` load libraries; `LD_DEBUG_OUTPUT` writes files),
 *   macOS's `DYLD_*`, glibc's `GCONV_PATH` (loads modules) and
 *   `GLIBC_TUNABLES` (parsed by the loader);
 * - a runtime's options and module paths: `NODE_OPTIONS` (`--require`),
 *   `NODE_PATH`; `PYTHONPATH`, `PYTHONHOME`, `PYTHONSTARTUP`,
 *   `PYTHONUSERBASE` (its `.pth` files run code); `PERL5OPT`, `PERL5LIB`,
 *   `PERLLIB`; `RUBYOPT`, `RUBYLIB`; the JVM's `JAVA_TOOL_OPTIONS`,
 *   `_JAVA_OPTIONS`, `JDK_JAVA_OPTIONS` (`-javaagent`); Go's `GOFLAGS`
 *   (`-toolexec`);
 * - a launcher's settings that run code or choose where it comes from:
 *   npm's (`npm_config_*` as npm reads it: any case, `-` and `_` alike:
 *   `node-options`, `userconfig`/`globalconfig` (an npmrc's
 *   `node-options`), `cache` and `prefix` (npx runs what is installed
 *   there), `script-shell`, `shell`, `git`, `node-gyp`, `init-module`,
 *   `call`, `onload-script`), `PREFIX` (npm's prefix: its global npmrc),
 *   uv's (`UV_CACHE_DIR`, `UV_TOOL_DIR`, `UV_PYTHON_INSTALL_DIR`: uvx runs
 *   what is installed there; `UV_PYTHON`: the interpreter; `UV_CONFIG_FILE`),
 *   `XDG_CACHE_HOME` (uv's cache is in it), Deno's `DENO_DIR` (the modules
 *   `deno run` runs), `CARGO_HOME`, and jn's own `JN_HOME` (the profiles a
 *   server that is jn starts);
 * - what a shell runs on its own: `BASH_ENV`, `ENV`, `BASH_FUNC_*`
 *   (exported functions), `SHELLOPTS` and `PS4` (`xtrace` runs `PS4`);
 * - where programs read configuration that can run code: `HOME` and
 *   `XDG_CONFIG_HOME` (an `.npmrc`'s `node-options`, a `.gitconfig`'s
 *   `core.fsmonitor`), `GIT_CONFIG_*`, and the programs git runs (an npm
 *   or uv git dependency): `GIT_SSH_COMMAND`, `GIT_SSH`, `GIT_EXEC_PATH`,
 *   `GIT_ASKPASS`, `SSH_ASKPASS`, `GIT_PROXY_COMMAND`, `GIT_DIR`,
 *   `GIT_TEMPLATE_DIR` (hooks);
 * - a `PATH` with an entry that is relative or empty, made of a variable
 *   (`${PWD}/tools`), or inside a directory no trust covers (`local`: the
 *   current directory, a project profile's repository): a name the server
 *   runs is then a file of the directory it runs in (an absolute `PATH`
 *   elsewhere is shown, not flagged: it names what it runs). jn drops such
 *   entries when it starts a server unsandboxed (server_path.ts); the
 *   warning is for the review.
 *
 * Names match in any case (Windows's variables have none; npm reads its
 * own in any case). Not on it: values that choose which package a launcher
 * fetches (a registry, an index URL), which are like the profile's `args`.
 *
 * @module
 */

/** A variable that loads code into a process, and why it is one. */
export interface CodeLoadingVariable {
  /** Its name, as the profile spells it. */
  name: string;
  /** What it makes a program do, in a few words (read after "NAME can load code"). */
  reason: string;
  /** Read by the dynamic loader of every program, helpers included (`sandbox-exec`). */
  loader: boolean;
}

interface Rule {
  /** A name, or a prefix ending in `*`; matched in any case. */
  match: string;
  reason: string;
  loader?: boolean;
  /** Whether the value makes it one (PATH: a relative entry, say). */
  when?: (value: string, context: ReviewContext) => boolean;
}

/** What judging a value may need to know. */
export interface ReviewContext {
  /**
   * Directories whose files no trust covers (absolute: the directory jn
   * runs in, a project profile's repository): a PATH entry inside one is flagged.
   */
  local?: readonly string[];
}

const GIT = "git runs it (an npm or uv git dependency)";
const UV_RUNS = "uvx runs what is installed there";

const RULES: readonly Rule[] = [
  { match: "LD_*", reason: "the dynamic loader's: a library in every program", loader: true },
  { match: "DYLD_*", reason: "macOS's dynamic loader's: a library in every program", loader: true },
  { match: "GCONV_PATH", reason: "glibc loads character-set modules from it", loader: true },
  { match: "GLIBC_TUNABLES", reason: "read by glibc's loader as a program starts", loader: true },
  { match: "NODE_OPTIONS", reason: "Node.js options: --require/--import run a module first" },
  { match: "NODE_PATH", reason: "where Node.js finds modules named in code" },
  { match: "PYTHONPATH", reason: "searched before Python's own modules" },
  { match: "PYTHONHOME", reason: "where Python finds its standard library" },
  { match: "PYTHONSTARTUP", reason: "a file Python runs as it starts" },
  { match: "PYTHONUSERBASE", reason: "Python's user site: its .pth files run code" },
  { match: "PERL5OPT", reason: "Perl options: -M loads a module into every perl" },
  { match: "PERL5LIB", reason: "searched before Perl's own modules" },
  { match: "PERLLIB", reason: "searched before Perl's own modules" },
  { match: "RUBYOPT", reason: "Ruby options: -r loads a library into every ruby" },
  { match: "RUBYLIB", reason: "searched before Ruby's own libraries" },
  { match: "JAVA_TOOL_OPTIONS", reason: "JVM options: -javaagent loads code" },
  { match: "_JAVA_OPTIONS", reason: "JVM options: -javaagent loads code" },
  { match: "JDK_JAVA_OPTIONS", reason: "JVM options: -javaagent loads code" },
  { match: "GOFLAGS", reason: "go options: -toolexec runs a program" },
  { match: "PREFIX", reason: "npm's prefix: its global npmrc (node-options) and packages" },
  { match: "UV_CACHE_DIR", reason: `uv's cache: ${UV_RUNS}` },
  { match: "UV_TOOL_DIR", reason: `uv's tools: ${UV_RUNS}` },
  { match: "UV_PYTHON_INSTALL_DIR", reason: "uv's Pythons: uvx runs the server with one" },
  { match: "UV_PYTHON", reason: "the Python interpreter uv runs the server with" },
  { match: "UV_CONFIG_FILE", reason: "uv's settings: where it finds Python and packages" },
  { match: "XDG_CACHE_HOME", reason: `where uv keeps its cache: ${UV_RUNS}` },
  { match: "DENO_DIR", reason: "Deno's cache: deno run runs the modules in it" },
  { match: "CARGO_HOME", reason: "cargo's home: its installed programs and configuration" },
  {
    match: "JN_HOME",
    reason: "where jn finds profiles: a server that is jn starts their commands",
  },
  { match: "BASH_ENV", reason: "a file every non-interactive bash runs first" },
  { match: "ENV", reason: "a file sh runs as it starts" },
  { match: "BASH_FUNC_*", reason: "a function bash defines as it starts" },
  { match: "SHELLOPTS", reason: "bash options (xtrace runs PS4)" },
  { match: "PS4", reason: "bash runs it with xtrace on" },
  {
    match: "HOME",
    reason: "where programs read configuration that can run code (.npmrc, .gitconfig)",
  },
  { match: "XDG_CONFIG_HOME", reason: "where programs read configuration that can run code" },
  {
    match: "GIT_CONFIG_*",
    reason: "git configuration (core.sshCommand, core.fsmonitor run programs)",
  },
  { match: "GIT_SSH_COMMAND", reason: GIT },
  { match: "GIT_SSH", reason: GIT },
  { match: "GIT_ASKPASS", reason: GIT },
  { match: "SSH_ASKPASS", reason: GIT },
  { match: "GIT_PROXY_COMMAND", reason: GIT },
  { match: "GIT_EXEC_PATH", reason: "where git finds its own programs" },
  { match: "GIT_DIR", reason: "the repository git reads: its config runs programs" },
  { match: "GIT_TEMPLATE_DIR", reason: "hooks git copies into a clone, which it runs" },
  {
    match: "PATH",
    reason: "an entry that is relative, a variable or inside the current directory: " +
      "a name the server runs is a file of the directory it runs in",
    when: (value, context) => hasRelativeEntry(value) || hasLocalEntry(value, context.local ?? []),
  },
];

/** npm's settings that run code or choose where it comes from (see the module doc). */
const NPM_SETTINGS: Record<string, string> = {
  node_options: "npm's node-options: --require runs a module first",
  userconfig: "an npmrc npm reads (its node-options run)",
  globalconfig: "an npmrc npm reads (its node-options run)",
  cache: "npm's cache: npx runs what is installed there",
  prefix: "npm's prefix: its global npmrc (node-options) and packages",
  script_shell: "the shell npm runs scripts with",
  shell: "the shell npm exec runs commands with",
  git: "the git npm runs",
  node_gyp: "the node-gyp npm runs",
  init_module: "a module npm init runs",
  call: "a command npm exec runs",
  onload_script: "a module npm loads as it starts",
};

/** The npm setting a variable is (npm's own reading: any case, `-` and `_` alike), if any. */
function npmSetting(name: string): string | undefined {
  const lower = name.toLowerCase();
  if (!lower.startsWith("npm_config_")) return undefined;
  const setting = lower.slice("npm_config_".length).replaceAll("-", "_");
  return Object.hasOwn(NPM_SETTINGS, setting) ? NPM_SETTINGS[setting] : undefined;
}

/** The rule `name` (with `value`) falls under, if any. */
export function codeLoadingVariable(
  name: string,
  value = "",
  context: ReviewContext = {},
): CodeLoadingVariable | undefined {
  const npm = npmSetting(name);
  if (npm) return { name, reason: npm, loader: false };
  const given = name.toUpperCase();
  for (const rule of RULES) {
    const matches = rule.match.endsWith("*")
      ? given.startsWith(rule.match.slice(0, -1))
      : given === rule.match;
    if (matches && (rule.when?.(value, context) ?? true)) {
      return { name, reason: rule.reason, loader: rule.loader === true };
    }
  }
  return undefined;
}

/**
 * The variables of `env` that load code, in its order.
 *
 * @example
 * ```ts
 * codeLoadingVariables({ LD_PRELOAD: "./x.so", TOKEN: "t" });
 * // [{ name: "LD_PRELOAD", reason: "the dynamic loader's: …", loader: true }]
 * ```
 */
export function codeLoadingVariables(
  env: Record<string, string>,
  context: ReviewContext = {},
): CodeLoadingVariable[] {
  return Object.entries(env).flatMap(([name, value]) => {
    const found = codeLoadingVariable(name, value, context);
    return found ? [found] : [];
  });
}

/**
 * Whether a PATH value has a relative or empty entry (which names the
 * directory a program runs in, or one below it).
 */
export function hasRelativeEntry(path: string | undefined): boolean {
  if (path === undefined) return false;
  const windows = Deno.build.os === "windows";
  return path.split(windows ? ";" : ":").some((dir) =>
    windows ? !/^([a-zA-Z]:)?[\\/]/.test(dir) : !dir.startsWith("/")
  );
}

/**
 * Whether a PATH value, as written, has an entry made of a variable
 * (`${PWD}/tools`: judged only once expanded), with a `.` or `..` step, or
 * inside one of `local`.
 */
function hasLocalEntry(path: string, local: readonly string[]): boolean {
  return path.split(Deno.build.os === "windows" ? ";" : ":").some((dir) =>
    dir.includes("$") || /(^|[\\/])\.\.?([\\/]|$)/.test(dir) ||
    local.some((root) => isInside(dir, root))
  );
}

/** Whether `path` is `root` or below it (both absolute, compared as written). */
export function isInside(path: string, root: string): boolean {
  const trimmed = path.replace(/\/+$/, "") || "/";
  const base = root.replace(/\/+$/, "") || "/";
  return trimmed === base || trimmed.startsWith(base === "/" ? "/" : `${base}/`);
}

/**
 * The directories whose files no trust covers for a project profile (its
 * layer is `.jn/profiles/mcp/` of the directory jn runs in): `cwd`, as
 * named and by its real path. The trust report flags a PATH entry inside
 * one; an unsandboxed server's PATH loses it (server_path.ts).
 */
export function untrustedDirs(cwd: string): string[] {
  let real = cwd;
  try {
    real = Deno.realPathSync(cwd);
  } catch { /* not there, or not ours to see: as named */ }
  return real === cwd ? [cwd] : [cwd, real];
}
