/**
 * Files jn did not write — a repository's `.mcp.json`, an editor's config, a
 * project profile — are read the one bounded way (lib/profile/bounded_read.ts):
 * a FIFO is not opened (it would block), a device or a symlink to one
 * (`/dev/zero`) is refused, a huge file is refused before it fills memory;
 * and a JSONC document nested thousands of levels deep is a one-line
 * configuration error (exit 3) naming the file, never a stack overflow.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ConfigError } from "../../lib/errors.ts";
import { parseJsonc } from "../../lib/profile/load.ts";
import { sandbox } from "../profile/sandbox.ts";

/** `{"a": {"a": … 1 …}}`, `depth` objects deep. */
function nested(depth: number, inner = "1"): string {
  return `${'{"a": '.repeat(depth)}${inner}${"}".repeat(depth)}`;
}

/** A JSON document with `depth` levels of arrays under a servers map. */
function deepServers(depth: number): string {
  return `{"mcpServers": {"deep": {"command": "x", "args": ${"[".repeat(depth)}${
    "]".repeat(depth)
  }}}}`;
}

Deno.test("a JSONC document nested too deep is a ConfigError naming the file, not a stack overflow", () => {
  for (const text of [nested(3000), `{"a": ${"[".repeat(100_000)}${"]".repeat(100_000)}}`]) {
    assert.throws(() => parseJsonc(text, "/p/_meta.json"), (error: unknown) => {
      assert.ok(error instanceof ConfigError, String(error));
      assert.match(
        error.message,
        /^Invalid JSON in \/p\/_meta\.json:1:\d+: nested more than \d+ levels deep$/,
      );
      return true;
    });
  }
  // Deep, but within the bound, is fine.
  assert.ok(parseJsonc(nested(500), "/p/_meta.json").value);
});

Deno.test("nesting bombs in profile files and editor configs: one line, exit 3", async (t) => {
  const box = await sandbox({ here: true });
  try {
    await t.step("a project _meta.json (profile list and info)", async () => {
      await box.write(join(box.projectProfiles, "deep", "_meta.json"), nested(5000));
      const info = await box.run(["profile", "info", "@deep"]);
      assert.equal(info.code, 3, info.stderr);
      assert.match(info.stderr, /^jn: Invalid JSON in \S+_meta\.json:1:\d+: nested more than/);
      assert.doesNotMatch(info.stderr, /call stack|internal error/i);
      const list = await box.run(["profile", "list"]);
      assert.doesNotMatch(list.stderr, /call stack|internal error/i);
      await Deno.remove(join(box.projectProfiles, "deep"), { recursive: true });
    });
    await t.step("a repository's .mcp.json (profile import claude)", async () => {
      await box.write(join(box.project, ".mcp.json"), deepServers(5000));
      const result = await box.run(["profile", "import", "claude", "--project"]);
      assert.equal(result.code, 3, result.stderr);
      assert.match(result.stderr, /^jn: Invalid JSON in \S+\.mcp\.json:1:\d+: nested more than/);
      assert.equal(result.stderr.trimEnd().split("\n").length, 2, result.stderr);
    });
    await t.step("profile create from stdin", async () => {
      const result = await box.run(["profile", "create", "deep"], { stdin: nested(5000) });
      assert.equal(result.code, 3, result.stderr);
      assert.match(result.stderr, /^jn: Invalid JSON in <stdin>:1:\d+: nested more than/);
    });
  } finally {
    await box.dispose();
  }
});

Deno.test("profile import reads a repository's config the bounded way", async (t) => {
  const box = await sandbox();
  const mcpJson = join(box.project, ".mcp.json");
  try {
    await t.step("a FIFO is refused at once, never opened", async () => {
      const made = await new Deno.Command("mkfifo", { args: [mcpJson] }).output();
      assert.ok(made.success, "mkfifo");
      const result = await box.run(["profile", "import", "claude", "--project"]);
      assert.equal(result.code, 3, result.stderr);
      assert.match(result.stderr, /^jn: Cannot read \S+\.mcp\.json: it is not a regular file/);
      await Deno.remove(mcpJson);
    });
    await t.step("a symlink to /dev/zero is refused, not read", async () => {
      await Deno.symlink("/dev/zero", mcpJson);
      const result = await box.run(["profile", "import", "claude", "--project"]);
      assert.equal(result.code, 3, result.stderr);
      assert.match(result.stderr, /^jn: Cannot read \S+\.mcp\.json: it is not a regular file/);
      await Deno.remove(mcpJson);
    });
    await t.step("a huge file is refused before it is read whole", async () => {
      const big = await box.write(join(box.root, "big.json"), "");
      await Deno.truncate(big, 200 * 1024 * 1024);
      await Deno.symlink(big, mcpJson);
      const result = await box.run(["profile", "import", "claude", "--project"]);
      assert.equal(result.code, 3, result.stderr);
      assert.match(
        result.stderr,
        /^jn: Cannot read \S+\.mcp\.json: it is too large \(over \d+ MiB\)/,
      );
      await Deno.remove(mcpJson);
    });
    await t.step("a FILE named on the command line too", async () => {
      const result = await box.run(["profile", "import", "/dev/zero"]);
      assert.equal(result.code, 3, result.stderr);
      assert.match(result.stderr, /^jn: Cannot read \/dev\/zero: it is not a regular file/);
    });
    await t.step("a symlink to a regular config is read, as the profile loader reads", async () => {
      const real = await box.write(
        join(box.root, "real.json"),
        JSON.stringify({ mcpServers: { linked: { command: "node", args: ["x.js"] } } }),
      );
      await Deno.symlink(real, mcpJson);
      const result = await box.run(["profile", "import", "claude", "--project", "--dry-run"]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /"name": "linked"/);
    });
  } finally {
    await box.dispose();
  }
});
