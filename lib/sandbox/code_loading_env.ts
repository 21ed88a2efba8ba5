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
 *   npm's `node_options` setting, `NODE_PATH`; `PYTHONPATH`, `PYTHONHOME`,
 *   `PYTHONSTARTUP`, `PYTHONUSERBASE` (its `.pth` files run code);
 *   `PERL5OPT`, `PERL5LIB`, `PERLLIB`; `RUBYOPT`, `RUBYLIB`; the JVM's
 *   `JAVA_TOOL_OPTIONS`, `_JAVA_OPTIONS`, `JDK_JAVA_OPTIONS` (`-javaagent`);
 * - what a shell runs on its own: `BASH_ENV`, `ENV`, `BASH_FUNC_*`
 *   (exported functions), `SHELLOPTS` and `PS4` (`xtrace` runs `PS4`);
 * - where programs read configuration that can run code: `HOME` and
 *   `XDG_CONFIG_HOME` (an `.npmrc`'s `node-options`, a `.gitconfig`'s
 *   `core.fsmonitor`), `GIT_CONFIG_*`;
 * - a `PATH` with a relative or empty entry: a name the server runs is then
 *   a file of the directory it runs in (an absolute `PATH` is shown, not
 *   flagged: it names what it runs).
 *
 * Not on it: values that choose which package a launcher fetches (a
 * registry, an index URL), which are like the profile's `args`.
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
  /** A name, or a prefix ending in `*`; matched case-sensitively unless `anyCase`. */
  match: string;
  reason: string;
  loader?: boolean;
  anyCase?: boolean;
  /** Whether the value makes it one (PATH: a relative entry only). */
  when?: (value: string) => boolean;
}

const RULES: readonly Rule[] = [
  { match: "LD_*", reason: "the dynamic loader's: a library in every program", loader: true },
  { match: "DYLD_*", reason: "macOS's dynamic loader's: a library in every program", loader: true },
  { match: "GCONV_PATH", reason: "glibc loads character-set modules from it", loader: true },
  { match: "GLIBC_TUNABLES", reason: "read by glibc's loader as a program starts", loader: true },
  { match: "NODE_OPTIONS", reason: "Node.js options: --require/--import run a module first" },
  { match: "npm_config_node_options", reason: "npm's node-options", anyCase: true },
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
  {
    match: "PATH",
    reason: "a relative entry: a name the server runs is a file of the directory it runs in",
    when: hasRelativeEntry,
  },
];

/** The rule `name` (with `value`) falls under, if any. */
export function codeLoadingVariable(name: string, value = ""): CodeLoadingVariable | undefined {
  for (const rule of RULES) {
    const wanted = rule.anyCase ? rule.match.toLowerCase() : rule.match;
    const given = rule.anyCase ? name.toLowerCase() : name;
    const matches = wanted.endsWith("*") ? given.startsWith(wanted.slice(0, -1)) : given === wanted;
    if (matches && (rule.when?.(value) ?? true)) {
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
export function codeLoadingVariables(env: Record<string, string>): CodeLoadingVariable[] {
  return Object.entries(env).flatMap(([name, value]) => {
    const found = codeLoadingVariable(name, value);
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
