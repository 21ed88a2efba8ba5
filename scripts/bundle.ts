/**
 * `deno task bundle [--out DIR]`: jn as a code-split ESM bundle (`deno
 * bundle --code-splitting`, esbuild): `main.js` starts it, and everything
 * else is chunks loaded lazily, as the source tree loads its modules
 * (`--version` and the help texts load no npm code; the CLI, `lib/cli/main.js`,
 * and the calls run without commander, `lib/cli/light_calls.js`, are entry
 * points too, loaded by a computed URL; each command loads when a run needs
 * it), plus `lib/cli/light.js`, `profile list` and `profile info` as one
 * file (see {@linkcode BUNDLE_LIGHT}).
 * npm packages are inlined (CommonJS converted); only `node:` modules stay
 * imports. It runs with `deno run --no-config <jn's permission flags>
 * DIR/main.js` and is what `deno task compile` compiles
 * (scripts/compile.ts); tests/cli/bundle_test.ts checks that it behaves as
 * the source tree does.
 *
 * Default output: dist/bundle (not committed).
 *
 * @module
 */

/** The repository root. */
export const ROOT: string = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
/** The bundle's entry point, relative to its folder. */
export const BUNDLE_MAIN = "main.js";
/** The CLI's entry point in the bundle (main.js imports it by a computed URL). */
export const BUNDLE_CLI = "lib/cli/main.js";
/** The entry point of the calls run without commander (main.js imports it by a computed URL). */
export const BUNDLE_CALLS = "lib/cli/light_calls.js";
/**
 * The commands answered without commander, `profile list` and `profile info`
 * (lib/cli/light.ts), bundled apart as one file with everything they load:
 * main.js imports it by a computed URL. Code-split, they loaded ~20 chunks
 * (chunks follow which entry points reach a module, so the light path's
 * modules were spread over many); one file of ~90 KB starts ~2–4 ms sooner.
 * Nothing crosses between it and the code-split part but plain data (an
 * error there sends the run back to the CLI, which starts afresh).
 */
export const BUNDLE_LIGHT = "lib/cli/light.js";

/**
 * Builds the bundle into `out` (emptied first) and returns the path of its
 * entry point; throws with deno's message when bundling fails.
 */
export async function buildBundle(out: string): Promise<string> {
  await Deno.remove(out, { recursive: true }).catch((error) => {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  });
  await denoBundle([
    "--code-splitting",
    "--outdir",
    out,
    // The entry points, laid out as in the source tree (their common folder is the root).
    `${ROOT}/scripts/bundle_entry.ts`,
    `${ROOT}/lib/cli/main.ts`,
    `${ROOT}/lib/cli/light_calls.ts`,
  ]);
  await denoBundle(["--output", `${out}/${BUNDLE_LIGHT}`, `${ROOT}/lib/cli/light.ts`]);
  const main = `${out}/${BUNDLE_MAIN}`;
  await Deno.writeTextFile(main, 'import "./scripts/bundle_entry.js";\n');
  return main;
}

/** Runs `deno bundle` with jn's config for Deno; throws with deno's message when it fails. */
async function denoBundle(args: string[]): Promise<void> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["bundle", "--config", `${ROOT}/deno.json`, "--platform", "deno", ...args],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!output.success) {
    throw new Error(`deno bundle failed: ${new TextDecoder().decode(output.stderr).trim()}`);
  }
}

if (import.meta.main) {
  const args = Deno.args;
  let out = `${ROOT}/dist/bundle`;
  if (args.length === 2 && args[0] === "--out") out = args[1];
  else if (args.length > 0) {
    Deno.stderr.writeSync(new TextEncoder().encode("jn: usage: deno task bundle [--out DIR]\n"));
    Deno.exit(2);
  }
  const main = await buildBundle(out);
  Deno.stderr.writeSync(new TextEncoder().encode(`jn: wrote ${main}\n`));
}
