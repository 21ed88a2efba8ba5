/**
 * `jn agent-guide`: a SKILL.md an agent loads to learn jn, rendered from
 * jn's tables — so it names every command, launcher, query key, record type
 * and exit code of this jn — with valid frontmatter; `--out DIR` writes it
 * like a fetched skill. And README's record table lists the record types
 * the guide teaches.
 */

import assert from "node:assert/strict";
import { load } from "js-yaml";
import { agentGuide } from "../../lib/cli/agent_guide.ts";
import { EXIT_CODES } from "../../lib/cli/exit_table.ts";
import { COMMANDS } from "../../lib/cli/table/commands.ts";
import { LAUNCHERS } from "../../lib/launch/registry.ts";
import { RECORD_TYPES } from "../../lib/output/record_types.ts";
import { QUERY_KEYS } from "../../lib/uri/query_keys.ts";
import { ROOT, runJnHere, tempDir } from "../helpers.ts";

Deno.test("the guide names every command, source form, query key, record type and exit code", async () => {
  const { code, stdout, stderr } = await runJnHere(["agent-guide"]);
  assert.equal(code, 0, stderr);
  assert.equal(stdout, agentGuide());
  for (const command of COMMANDS.filter((c) => !c.hidden)) {
    assert.ok(stdout.includes(`\`jn ${command.path.join(" ")}`), command.path.join(" "));
  }
  for (const launcher of LAUNCHERS) assert.ok(stdout.includes(launcher.usage), launcher.usage);
  for (const key of QUERY_KEYS) assert.ok(stdout.includes(`${key.name}=${key.value}`), key.name);
  for (const record of RECORD_TYPES) assert.ok(stdout.includes(`\`${record.type}\``), record.type);
  for (const row of EXIT_CODES) assert.ok(stdout.includes(`- ${row.code}: ${row.meaning}`));
  // Flags it teaches exist, spelled as the CLI takes them.
  for (const flag of ["--format", "--json", "--args", "--max-bytes", "--save-dir"]) {
    assert.ok(stdout.includes(`\`${flag}`), flag);
  }
});

Deno.test("its frontmatter is a valid Agent Skills header", () => {
  const text = agentGuide();
  const match = /^---\n([\s\S]*?)\n---\n/.exec(text);
  assert.ok(match, "frontmatter");
  const header = load(match[1]) as Record<string, unknown>;
  assert.deepEqual(Object.keys(header), ["name", "description"]);
  assert.match(header.name as string, /^[a-z0-9]+(-[a-z0-9]+)*$/);
  assert.ok((header.name as string).length <= 64);
  const description = header.description as string;
  assert.ok(description.length > 0 && description.length <= 1024, description);
  assert.ok(new TextEncoder().encode(text).length < 12_000, "compact");
});

Deno.test("--out DIR writes DIR/jn/SKILL.md; an existing one is replaced only with --force", async () => {
  const dir = await tempDir();
  try {
    const first = await runJnHere(["agent-guide", "--out", "skills"], { cwd: dir });
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.stdout, "");
    assert.equal(first.stderr, `Wrote ${dir}/skills/jn/SKILL.md\n`);
    assert.equal(await Deno.readTextFile(`${dir}/skills/jn/SKILL.md`), agentGuide());
    const again = await runJnHere(["agent-guide", "--out", "skills"], { cwd: dir });
    assert.equal(again.code, 2);
    assert.match(again.stderr, /already exists: .*\/skills\/jn\nhint: add --force/);
    const forced = await runJnHere(["agent-guide", "--out", "skills", "--force"], { cwd: dir });
    assert.equal(forced.code, 0, forced.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("README's record table lists every record type the guide teaches", async () => {
  const readme = await Deno.readTextFile(`${ROOT}/README.md`);
  const rows = readme.split("\n").filter((line) => line.startsWith('| `{"type":')).join("\n");
  for (const record of RECORD_TYPES) assert.ok(rows.includes(`"${record.type}"`), record.type);
});

Deno.test("the profile document of docs/agents.md is examples/demo_profile.json", async () => {
  const doc = await Deno.readTextFile(`${ROOT}/docs/agents.md`);
  const at = doc.indexOf("This one is [examples/demo_profile.json]");
  const block = /```json\n([\s\S]*?)\n```/.exec(doc.slice(at));
  assert.ok(at >= 0 && block, "the walkthrough shows the document");
  const file = JSON.parse(await Deno.readTextFile(`${ROOT}/examples/demo_profile.json`));
  assert.deepEqual(JSON.parse(block[1]), file);
  // It is the seed's format with what the exploration found: notes, examples, tested_with.
  for (const tool of Object.values(file.tools) as Record<string, unknown>[]) {
    for (const field of ["description", "output_format", "notes", "examples"]) {
      assert.ok(tool[field] !== undefined, field);
    }
  }
  assert.deepEqual(Object.keys(file.tested_with), Object.keys(file.tools));
});
