/**
 * The places where this user's sessions live whatever jn's environment,
 * for the end-to-end tests of the sandbox's session masks
 * (tests/security/sandbox_sessions_test.ts): the runtime directory the
 * system gives the user (`/run/user/UID`: made for the test, and removed
 * after, when absent and this user may make it, as root may) and the home
 * `/etc/passwd` gives. Told independently of jn (`id -u`, `getent`). When
 * one cannot be used, {@linkcode requirePlace} says so in one loud line and
 * its tests are ignored.
 *
 * These are the user's real places: a test starts a session there and stops
 * it by its source, never `--all`, and looks only at the sockets it made.
 *
 * @module
 */

/** The output of a command, trimmed; undefined when it fails. */
async function run(command: string, args: string[]): Promise<string | undefined> {
  try {
    const out = await new Deno.Command(command, { args, stdout: "piped", stderr: "null" })
      .output();
    return out.success ? new TextDecoder().decode(out.stdout).trim() : undefined;
  } catch {
    return undefined;
  }
}

const UID = await run("id", ["-u"]);
const LOGIN = "; to run it: run the tests as a user logged in through systemd-logind " +
  "(it makes /run/user/UID), or as root";
const OWN_HOME = "; to run it: run the tests as a user whose home (in /etc/passwd) is theirs";

/** This user's `/run/user/UID`, or why it cannot be used. */
async function runtimePlace(): Promise<string | { reason: string }> {
  if (Deno.build.os !== "linux" || UID === undefined) {
    return { reason: "/run/user/UID is Linux's" };
  }
  const path = `/run/user/${UID}`;
  try {
    const info = await Deno.stat(path);
    if (info.isDirectory && String(info.uid) === UID) return path;
    return { reason: `${path} is not this user's directory${LOGIN}` };
  } catch { /* absent: can this user make it? */ }
  try {
    await Deno.mkdir(path, { mode: 0o700 });
    await Deno.remove(path);
    return path;
  } catch (error) {
    return { reason: `${path} is absent and cannot be made (${(error as Error).message})${LOGIN}` };
  }
}

/** The home `/etc/passwd` gives this user, or why it cannot be used. */
async function passwdPlace(): Promise<string | { reason: string }> {
  const entry = UID === undefined ? undefined : await run("getent", ["passwd", UID]);
  const home = entry?.split(":")[5];
  if (!home?.startsWith("/")) return { reason: `getent gives no home for this user${OWN_HOME}` };
  try {
    const info = await Deno.stat(home);
    if (info.isDirectory && String(info.uid) === UID) return home;
  } catch { /* told below */ }
  return { reason: `the home ${home} is not this user's directory${OWN_HOME}` };
}

/** This user's runtime directory the system gives (`/run/user/UID`), or why not. */
export const RUNTIME: string | { reason: string } = await runtimePlace();
/** This user's home as `/etc/passwd` gives it, or why not. */
export const PASSWD_HOME: string | { reason: string } = await passwdPlace();

/** `true` (saying so on stderr) when `place` cannot be used by the tests of `what`. */
export function requirePlace(place: string | { reason: string }, what: string): boolean {
  if (typeof place === "string") return false;
  // deno-lint-ignore no-console
  console.error(
    `SKIPPED ${what}: ${place.reason}; to run it: run the tests as a user ` +
      "logged in through systemd-logind (it makes /run/user/UID), or as root",
  );
  return true;
}

/** The runtime directory, made for a test when absent; removed after when the test made it. */
export async function useRuntime(path: string): Promise<AsyncDisposable & { path: string }> {
  const made = await Deno.mkdir(path, { mode: 0o700 }).then(() => true, () => false);
  return {
    path,
    async [Symbol.asyncDispose]() {
      if (made) await Deno.remove(path, { recursive: true }).catch(() => {});
    },
  };
}

/** The sockets in `dir` (none when it is absent). */
export function socketsIn(dir: string): string[] {
  try {
    return [...Deno.readDirSync(dir)].filter((entry) => entry.name.endsWith(".sock"))
      .map((entry) => `${dir}/${entry.name}`);
  } catch {
    return [];
  }
}
