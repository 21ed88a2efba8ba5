/**
 * The environment a spawned server sees: a small allow-list of the caller's
 * variables (the MCP SDK's safe defaults), what the launch config declares,
 * and variables the user passes through by name. Nothing else of the caller's
 * environment reaches a server, so API keys in the shell stay in the shell.
 *
 * @module
 */

/** Caller variables every server inherits (the MCP SDK's `DEFAULT_INHERITED_ENV_VARS`). */
export const SAFE_ENV_VARS: readonly string[] = Deno.build.os === "windows"
  ? [
    "APPDATA",
    "COMSPEC",
    "HOMEDRIVE",
    "HOMEPATH",
    "LOCALAPPDATA",
    "PATH",
    "PATHEXT",
    "PROCESSOR_ARCHITECTURE",
    "PROGRAMDATA",
    "PROGRAMFILES",
    "PROGRAMFILES(X86)",
    "PROGRAMW6432",
    "SYSTEMDRIVE",
    "SYSTEMROOT",
    "TEMP",
    "USERNAME",
    "USERPROFILE",
    "WINDIR",
  ]
  : ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"];

/** Inputs of {@linkcode childEnvironment}. */
export interface ChildEnvOptions {
  /** The caller's environment (a plain map, so tests need not touch `Deno.env`). */
  callerEnv: Record<string, string>;
  /** Variables declared by the launch config (profile `env`). They win over inherited ones. */
  declared?: Record<string, string>;
  /** Names of caller variables to pass through deliberately. */
  passthrough?: readonly string[];
}

/** Builds the complete environment of a child server process. */
export function childEnvironment(options: ChildEnvOptions): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of SAFE_ENV_VARS) {
    const value = options.callerEnv[name];
    // Bash exported functions look like `() { …`; the SDK skips them too.
    if (value !== undefined && !value.startsWith("()")) env[name] = value;
  }
  for (const name of options.passthrough ?? []) {
    const value = options.callerEnv[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...options.declared };
}
