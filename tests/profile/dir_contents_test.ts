/**
 * readProfileDir(): one read of a profile directory through its real path;
 * read whole, every entry fingerprinted from the same bytes the loader
 * parses; FIFOs never opened; symlinks recorded, not followed; a size cap.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { ConfigError } from "../../lib/errors.ts";
import { readProfileDir, WHOLE_LIMITS } from "../../lib/profile/dir_contents.ts";
import { parseJsonc } from "../../lib/profile/load.ts";
import { visibleLine } from "../../lib/output/visible.ts";
import { tempDir } from "../helpers.ts";

/** The reference digest (node:crypto), independent of jn's. */
function sha256(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

Deno.test("readProfileDir() reads whole: every entry, fingerprinted from the bytes it parses", async () => {
  const root = await tempDir();
  try {
    const dir = join(root, "p");
    const meta = new Uint8Array([
      0xef,
      0xbb,
      0xbf,
      ...new TextEncoder().encode(`{"command": "x"}`),
    ]);
    await Deno.mkdir(join(dir, "sub", "deeper"), { recursive: true });
    await Deno.writeFile(join(dir, "_meta.json"), meta);
    await Deno.writeTextFile(join(dir, "sub", "deeper", "run.sh"), "#!/bin/sh\n");
    await Deno.writeTextFile(join(root, "outside.json"), `{"tool": "t"}`);
    await Deno.symlink(join(root, "outside.json"), join(dir, "linked.json"));
    await Deno.symlink("/etc", join(dir, "etc"));
    await new Deno.Command("mkfifo", { args: [join(dir, "pipe")] }).output();
    const contents = (await readProfileDir(dir, { whole: true }))!;
    assert.equal(contents.realPath, await Deno.realPath(dir));
    assert.deepEqual(Object.keys(contents.entries!), [
      "_meta.json",
      "etc",
      "linked.json",
      "pipe",
      "sub",
      "sub/deeper",
      "sub/deeper/run.sh",
    ]);
    assert.equal(contents.entries!["_meta.json"], `sha256:${sha256(meta)}`, "the bytes read");
    assert.equal(contents.entries!.etc, `symlink:${sha256("/etc")}`, "a link is not followed");
    assert.equal(
      contents.entries!["linked.json"],
      `symlink:${sha256(join(root, "outside.json"))} sha256:${sha256(`{"tool": "t"}`)}`,
      "a profile file link is read (the loader parses it), both recorded",
    );
    assert.equal(contents.entries!.pipe, "other", "a FIFO is never opened");
    assert.deepEqual([...contents.texts.keys()], ["_meta.json", "linked.json"]);
    assert.deepEqual(parseJsonc(contents.texts.get("_meta.json")!, "m").value, { command: "x" });
    const again = (await readProfileDir(dir, { whole: true }))!;
    assert.equal(again.digest, contents.digest);
    await Deno.writeTextFile(join(dir, "sub", "deeper", "run.sh"), "#!/bin/sh\nexit 1\n");
    assert.notEqual((await readProfileDir(dir, { whole: true }))!.digest, contents.digest);
    const light = (await readProfileDir(dir, { whole: false }))!;
    assert.deepEqual([light.entries, light.digest], [undefined, undefined]);
    assert.equal(await readProfileDir(join(root, "missing"), { whole: true }), undefined);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("readProfileDir() refuses a directory too large to trust", async () => {
  const root = await tempDir();
  try {
    await Deno.writeTextFile(join(root, "_meta.json"), `{}`);
    await Deno.writeFile(join(root, "blob"), new Uint8Array(2048));
    for (const limits of [{ entries: 100, bytes: 1024 }, { entries: 1, bytes: 1 << 20 }]) {
      await assert.rejects(
        readProfileDir(root, { whole: true, limits }),
        (error: unknown) => error instanceof ConfigError && /too large/.test(error.message),
      );
    }
    assert.ok(WHOLE_LIMITS.entries >= 1000 && WHOLE_LIMITS.bytes >= 1 << 20);
    assert.ok(await readProfileDir(root, { whole: false }), "only the project layer is read whole");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("readProfileDir() never reads past its size limit, in any layer (red team, #12)", async () => {
  const root = await tempDir();
  try {
    const limits = { entries: 100, bytes: 1 << 20 };
    // A sparse file far over the limit: checked by its size before any read.
    const big = join(root, "big");
    await Deno.writeFile(big, new Uint8Array(0));
    await Deno.truncate(big, 8 << 20);
    const dir = join(root, "p");
    await Deno.mkdir(dir);
    await Deno.symlink(big, join(dir, "_meta.json"));
    for (const whole of [false, true]) {
      await assert.rejects(
        readProfileDir(dir, { whole, limits }),
        (error: unknown) => error instanceof ConfigError && /too large/.test(error.message),
        `whole: ${whole}`,
      );
    }
    if (Deno.build.os === "linux") {
      // A device is never read: it is not a regular file.
      await Deno.remove(join(dir, "_meta.json"));
      await Deno.symlink("/dev/zero", join(dir, "_meta.json"));
      const contents = await readProfileDir(dir, { whole: true, limits });
      assert.equal(contents?.texts.size, 0);
      assert.match(contents?.entries?.["_meta.json"] ?? "", /^symlink:/);
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("visibleLine() escapes control and invisible format characters", () => {
  assert.equal(visibleLine("evil\x1b[2J\u202e.json\n"), "evil\\x1b[2J\\u202e.json\\n");
  assert.equal(visibleLine("plain name-1.json"), "plain name-1.json");
});
