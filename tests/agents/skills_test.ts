/**
 * Skills (SEP-2640) through the library against the skills fixture server:
 * listing reads no file, a fetch reads SKILL.md first and stops at the first
 * file that differs from the listing (digest, size, frontmatter), writes
 * nothing then, and what it writes lands inside DIR exactly as listed.
 */

import assert from "node:assert/strict";
import {
  fetchSkill,
  listSkills,
  offersSkills,
  SkillVerificationError,
  UsageError,
} from "../../mod.ts";
import { exitCodeFor } from "../../lib/cli/exit_codes.ts";
import { skillFileLine, skillLine } from "../../lib/output/agent_lines.ts";
import { style } from "../../lib/output/style.ts";
import { tempDir } from "../helpers.ts";
import { names, present, withSkills } from "./skills_support.ts";

const PDF = "skill://pdf-processing/SKILL.md";
const FORMS = "skill://pdf-processing/references/FORMS.md";

Deno.test("connecting and listing read no skill file; listing gives one record per skill", async () => {
  await withSkills([], async ({ conn, log, reads }) => {
    assert.equal(offersSkills(conn), true);
    assert.deepEqual(await log(), [], "nothing is asked on connect");
    const skills = await listSkills(conn);
    assert.deepEqual(await reads(), [], "listing reads no file");
    assert.deepEqual(skills.map((s) => [s.name, s.uri, s.files]), [
      ["pdf-processing", PDF, 4],
      ["refunds", "skill://acme/billing/refunds/SKILL.md", 2],
    ]);
    const [pdf] = skills;
    assert.equal(pdf.type, "skill");
    assert.equal(pdf.description, "Extract, fill, and assemble PDF documents");
    assert.equal(pdf.problem, undefined);
    assert.deepEqual((pdf.frontmatter as { metadata: unknown }).metadata, {
      version: "2.1",
      tags: ["pdf", "forms"],
    });
    assert.ok(Array.isArray(pdf.resources), "the entry's fields are kept");
  });
});

Deno.test("listSkills() walks every page of skills/list", async () => {
  await withSkills(["--pages"], async ({ conn, log }) => {
    const skills = await listSkills(conn);
    assert.deepEqual(skills.map((s) => s.name), ["pdf-processing", "refunds"]);
    assert.equal((await log()).filter((line) => line === "skills/list").length, 2);
  });
});

Deno.test("a server without the extension gets no skills request", async () => {
  await withSkills(["--no-extension"], async ({ conn, log }) => {
    assert.equal(offersSkills(conn), false);
    assert.deepEqual(await listSkills(conn), []);
    await assert.rejects(fetchSkill(conn, "pdf-processing"), (error: Error) => {
      assert.ok(error instanceof UsageError);
      assert.match(error.message, /offers no skills/);
      return true;
    });
    assert.deepEqual(await log(), []);
  });
});

Deno.test("fetchSkill() without a directory returns each verified file, SKILL.md first", async () => {
  await withSkills([], async ({ conn, reads }) => {
    const skill = await fetchSkill(conn, "pdf-processing");
    assert.equal(skill.dir, undefined);
    assert.deepEqual(skill.files.map((f) => f.path), [
      "SKILL.md",
      "references/FORMS.md",
      "scripts/extract.py",
      "assets/logo.bin",
    ]);
    assert.deepEqual(await reads(), skill.files.map((f) => f.uri), "each file read once, in order");
    assert.match(skill.files[0].text ?? "", /^---\nname: pdf-processing\n/);
    assert.equal(skill.files[3].blob, "AAEC//4K", "binary content stays base64");
    assert.equal(skill.files[3].text, undefined);
    assert.match(skill.files[1].digest, /^sha256:[0-9a-f]{64}$/);
  });
});

Deno.test("fetchSkill() writes DIR/<name>/… with the exact bytes, nothing executable", async () => {
  const out = await tempDir("jn-skills-out-");
  try {
    await withSkills([], async ({ conn }) => {
      const skill = await fetchSkill(conn, "pdf-processing", { outDir: out });
      const dir = `${await Deno.realPath(out)}/pdf-processing`;
      assert.equal(skill.dir, dir);
      assert.equal(skill.files[2].file, `${dir}/scripts/extract.py`);
      assert.equal(await Deno.readTextFile(`${dir}/scripts/extract.py`), "print('extract')\n");
      assert.deepEqual(
        await Deno.readFile(`${dir}/assets/logo.bin`),
        new Uint8Array([0, 1, 2, 255, 254, 10]),
      );
      assert.equal((await Deno.stat(`${dir}/scripts/extract.py`)).mode! & 0o111, 0);
      assert.deepEqual(await names(out), ["pdf-processing"], "no staging directory is left");
    });
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("a skill is found by name, by skill path, or by URI (skills/get)", async () => {
  await withSkills([], async ({ conn, log }) => {
    assert.equal((await fetchSkill(conn, "refunds")).uri, "skill://acme/billing/refunds/SKILL.md");
    assert.equal((await fetchSkill(conn, "acme/billing/refunds")).name, "refunds");
    const byUri = await fetchSkill(conn, PDF);
    assert.equal(byUri.name, "pdf-processing");
    assert.ok((await log()).includes(`skills/get ${PDF}`));
    await assert.rejects(fetchSkill(conn, "nope"), /lists no skill named "nope"/);
  });
});

Deno.test("two skills of one name are not guessed between", async () => {
  await withSkills(["--collide"], async ({ conn, reads }) => {
    await assert.rejects(fetchSkill(conn, "refunds"), (error: Error) => {
      assert.ok(error instanceof UsageError);
      assert.match(error.message, /2 skills are named "refunds": skill:\/\/acme\/billing/);
      return true;
    });
    assert.deepEqual(await reads(), []);
  });
});

for (
  const [name, check, file, readsBefore] of [
    ["--wrong-size", "size", PDF, [PDF]],
    ["--bad-frontmatter", "frontmatter", PDF, [PDF]],
    ["--wrong-digest", "digest", FORMS, [PDF, FORMS]],
  ] as const
) {
  Deno.test(`${name}: refused (exit 5) naming the file; no later file read, nothing written`, async () => {
    const out = await tempDir("jn-skills-out-");
    try {
      await withSkills([name], async ({ conn, reads }) => {
        await assert.rejects(
          fetchSkill(conn, "pdf-processing", { outDir: out }),
          (error: Error) => {
            assert.ok(error instanceof SkillVerificationError, String(error));
            assert.equal(error.check, check);
            assert.equal(error.file, file);
            assert.ok(error.message.includes(file), error.message);
            assert.doesNotMatch(error.message, /\n/);
            assert.equal(exitCodeFor(error), 5);
            return true;
          },
        );
        assert.deepEqual(await reads(), readsBefore);
        assert.deepEqual(await names(out), [], "nothing written, no staging left");
      });
    } finally {
      await Deno.remove(out, { recursive: true });
    }
  });
}

for (const kind of ["dotdot", "encoded", "slash", "absolute", "nul", "outside", "control"]) {
  Deno.test(`a listed file path that leaves the skill (${kind}) is refused before any read`, async () => {
    const root = await tempDir("jn-skills-trav-");
    const out = `${root}/a/b/out`;
    try {
      await withSkills([`--traversal=${kind}`], async ({ conn, reads }) => {
        const [pdf] = await listSkills(conn);
        assert.match(String(pdf.problem), /outside the skill's directory|unsafe path/);
        await assert.rejects(
          fetchSkill(conn, "pdf-processing", { outDir: out }),
          (error: Error) => {
            assert.ok(error instanceof SkillVerificationError, String(error));
            assert.equal(error.check, "path");
            return true;
          },
        );
        assert.deepEqual(await reads(), []);
      });
      assert.equal(await present(`${root}/a/b/evil.md`), false);
      assert.equal(await present(`${root}/a/evil.md`), false);
      assert.equal(await present("/etc/evil.md"), false);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  });
}

Deno.test("a dynamic skill is listed with its problem and not fetched", async () => {
  await withSkills(["--dynamic"], async ({ conn, reads }) => {
    const daily = (await listSkills(conn)).find((s) => s.name === "daily");
    assert.match(String(daily?.problem), /dynamic/);
    await assert.rejects(fetchSkill(conn, "daily"), (error: Error) => {
      assert.ok(error instanceof SkillVerificationError);
      assert.equal(error.check, "dynamic");
      return true;
    });
    assert.deepEqual(await reads(), []);
  });
});

Deno.test("the text lines of a listing and of a fetch", async () => {
  const plain = style(false);
  await withSkills(["--dynamic"], async ({ conn }) => {
    const lines = (await listSkills(conn)).map((record) => skillLine(record, plain));
    assert.deepEqual(lines, [
      "pdf-processing  4 files, 269 bytes — Extract, fill, and assemble PDF documents",
      "refunds  2 files, 131 bytes — Process refund requests per policy",
      'daily — Today\'s report  (publishes no digests ("resources": "dynamic"))',
    ]);
    const skill = await fetchSkill(conn, "refunds");
    assert.equal(skillFileLine(skill.files[1], plain), "examples/email.md  15 bytes");
  });
});
