/**
 * Where a fetched skill lands: inside DIR only, never through a symlink —
 * not one at `DIR/<name>`, not one inside a directory being replaced — and
 * an existing skill directory is replaced only when asked.
 */

import assert from "node:assert/strict";
import { fetchSkill, UsageError } from "../../mod.ts";
import { writeSkill } from "../../lib/client/skill_files.ts";
import { tempDir } from "../helpers.ts";
import { names, withSkills } from "./skills_support.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

async function scratch(fn: (root: string) => Promise<void>): Promise<void> {
  const root = await Deno.realPath(await tempDir("jn-skill-files-"));
  try {
    await fn(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("a symlink at DIR/<name> is refused, even with replace, and its target is untouched", async () => {
  await scratch(async (root) => {
    await Deno.mkdir(`${root}/out`);
    await Deno.mkdir(`${root}/elsewhere`);
    await Deno.symlink(`${root}/elsewhere`, `${root}/out/pdf-processing`);
    await withSkills([], async ({ conn }) => {
      for (const replace of [false, true]) {
        await assert.rejects(
          fetchSkill(conn, "pdf-processing", { outDir: `${root}/out`, replace }),
          (error: Error) => {
            assert.ok(error instanceof UsageError, String(error));
            assert.match(error.message, /through a symlink/);
            return true;
          },
        );
      }
    });
    assert.deepEqual(await names(`${root}/elsewhere`), []);
    assert.deepEqual(await names(`${root}/out`), ["pdf-processing"], "no staging left behind");
  });
});

Deno.test("an existing skill directory is kept unless replace; replacing follows no link in it", async () => {
  await scratch(async (root) => {
    const out = `${root}/out`;
    await Deno.mkdir(`${out}/pdf-processing`, { recursive: true });
    await Deno.mkdir(`${root}/elsewhere`);
    await Deno.writeTextFile(`${root}/elsewhere/keep.txt`, "mine");
    // A planted link where the skill has a directory: writing through it would land in elsewhere/.
    await Deno.symlink(`${root}/elsewhere`, `${out}/pdf-processing/references`);
    await withSkills([], async ({ conn }) => {
      await assert.rejects(fetchSkill(conn, "pdf-processing", { outDir: out }), /already exists/);
      const skill = await fetchSkill(conn, "pdf-processing", { outDir: out, replace: true });
      assert.equal(skill.dir, `${out}/pdf-processing`);
    });
    assert.equal((await Deno.lstat(`${out}/pdf-processing/references`)).isDirectory, true);
    assert.equal(
      await Deno.readTextFile(`${out}/pdf-processing/references/FORMS.md`),
      "# Forms\n\nFill every field.\n",
    );
    assert.deepEqual(
      await names(`${root}/elsewhere`),
      ["keep.txt"],
      "nothing written or removed there",
    );
    assert.deepEqual(await names(out), ["pdf-processing"]);
  });
});

Deno.test("DIR may itself be a link the user made; it is created when missing", async () => {
  await scratch(async (root) => {
    await Deno.mkdir(`${root}/real`);
    await Deno.symlink(`${root}/real`, `${root}/link`);
    const written = await writeSkill(`${root}/link`, "demo", [
      { path: ["SKILL.md"], bytes: bytes("x") },
    ]);
    assert.equal(written.dir, `${root}/real/demo`);
    const fresh = await writeSkill(`${root}/new/deep`, "demo", [
      { path: ["SKILL.md"], bytes: bytes("y") },
      { path: ["a", "b", "c.md"], bytes: bytes("z") },
    ]);
    assert.deepEqual(fresh.paths, [
      `${root}/new/deep/demo/SKILL.md`,
      `${root}/new/deep/demo/a/b/c.md`,
    ]);
    assert.equal(await Deno.readTextFile(`${root}/new/deep/demo/a/b/c.md`), "z");
  });
});

Deno.test("a file where DIR should be is one line, not a stack trace", async () => {
  await scratch(async (root) => {
    await Deno.writeTextFile(`${root}/file`, "");
    await assert.rejects(
      writeSkill(`${root}/file`, "demo", [{ path: ["SKILL.md"], bytes: bytes("x") }]),
      (error: Error) => {
        assert.doesNotMatch(error.message, /\n/);
        assert.match(error.message, /file/);
        return true;
      },
    );
  });
});
