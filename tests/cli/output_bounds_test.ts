/**
 * Output an agent can hold: `--save-dir DIR` writes binary content to
 * content-addressed files (no name from the server) and the records carry
 * the path; `--max-bytes N` bounds what a call prints, a `truncated` record
 * saying what was cut. Both are `cat` options of the library.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { boundRecords, lineBytes, saveBinaries } from "../../mod.ts";
import { parseNdjson, runJnHere, tempDir } from "../helpers.ts";
import { serverEverything } from "../remote/support.ts";

type Rec = Record<string, unknown>;

async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

Deno.test("--save-dir writes images and blobs to files named by their content", async (t) => {
  const dir = await tempDir();
  try {
    const plain = await runJnHere(["cat", "@demo/tiny_image"]);
    const base64 = (parseNdjson(plain.stdout)[0] as Rec).data as string;
    const bytes = Uint8Array.fromBase64(base64);
    const name = `sha256-${await sha256Hex(bytes)}.png`;

    await t.step("the record carries the file (as DIR was given) instead of base64", async () => {
      const result = await runJnHere(["cat", "@demo/tiny_image", "--save-dir", "shots"], {
        cwd: dir,
      });
      assert.equal(result.code, 0, result.stderr);
      const [image, caption] = parseNdjson(result.stdout) as Rec[];
      assert.deepEqual(image, {
        type: "tool_result",
        tool: "tiny_image",
        content_type: "image",
        file: join("shots", name),
        bytes: bytes.length,
        mimeType: "image/png",
      });
      assert.equal(caption.text, "A 16x16 checkerboard PNG");
      assert.deepEqual(await Deno.readFile(join(dir, "shots", name)), bytes);
      assert.equal((await Deno.stat(join(dir, "shots", name))).mode! & 0o777, 0o644);
    });

    await t.step("a resource's blob too; the same content is the same file", async () => {
      const result = await runJnHere([
        "cat",
        "@demo?resource=demo://logo.png",
        "--save-dir",
        "shots",
      ], { cwd: dir });
      assert.equal(result.code, 0, result.stderr);
      const [record] = parseNdjson(result.stdout) as Rec[];
      assert.equal(record.file, join("shots", name));
      assert.equal(record.blob, undefined);
      assert.deepEqual([...Deno.readDirSync(join(dir, "shots"))].map((e) => e.name), [name]);
    });

    await t.step("a symlink planted at the name is replaced, never written through", async () => {
      const victim = join(dir, "victim.txt");
      await Deno.writeTextFile(victim, "keep me");
      await Deno.remove(join(dir, "shots", name));
      await Deno.symlink(victim, join(dir, "shots", name));
      const result = await runJnHere(["cat", "@demo/tiny_image", "--save-dir", "shots"], {
        cwd: dir,
      });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(await Deno.readTextFile(victim), "keep me");
      assert.ok((await Deno.lstat(join(dir, "shots", name))).isFile);
    });

    await t.step("a DIR that cannot be made is exit 2, naming it", async () => {
      await Deno.writeTextFile(join(dir, "afile"), "");
      const result = await runJnHere(["cat", "@demo/tiny_image", "--save-dir", "afile/x"], {
        cwd: dir,
      });
      assert.equal(result.code, 2);
      assert.match(result.stderr, /^jn: Cannot write .*afile\/x/);
      assert.equal(result.stdout, "");
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("saveBinaries(): names from the content and an allow-list of types only", async () => {
  const dir = await tempDir();
  try {
    const data = btoa("hello");
    const hex = await sha256Hex(new TextEncoder().encode("hello"));
    const records = await saveBinaries([
      { type: "tool_result", content_type: "audio", data, mimeType: "audio/wav" },
      { type: "tool_result", content_type: "image", data, mimeType: "../../etc/passwd" },
      {
        type: "tool_result",
        content_type: "resource",
        resource: { uri: "file:///../../x.sh", mimeType: "application/x-sh", blob: data },
      },
      { type: "tool_result", content_type: "image", data: "not base64!", mimeType: "image/png" },
      { type: "tool_result", content_type: "text", text: data },
    ], { dir: "out", cwd: dir });
    assert.deepEqual(records.map((r) => (r as Rec).file ?? ((r as Rec).resource as Rec)?.file), [
      `out/sha256-${hex}.wav`,
      `out/sha256-${hex}.bin`,
      `out/sha256-${hex}.bin`,
      undefined,
      undefined,
    ]);
    assert.equal((records[3] as Rec).data, "not base64!", "left as it came");
    assert.deepEqual(
      [...Deno.readDirSync(join(dir, "out"))].map((e) => e.name).sort(),
      [`sha256-${hex}.bin`, `sha256-${hex}.wav`],
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("--max-bytes bounds what a call prints; a truncated record says what was cut", async (t) => {
  await t.step("a long text is cut to fit, the record marked, the marker last", async () => {
    const result = await runJnHere(["cat", "@demo/list_items?count=50", "--max-bytes", "300"]);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(new TextEncoder().encode(result.stdout).length <= 300, result.stdout);
    const [cut, marker] = parseNdjson(result.stdout) as Rec[];
    assert.equal(cut.truncated, true);
    assert.match(cut.text as string, /^\[\{"id":1,"name":"item-1"/);
    assert.equal(marker.type, "truncated");
    assert.equal(marker.max_bytes, 300);
    assert.equal(marker.records, 1);
    const whole = await runJnHere(["cat", "@demo/list_items?count=50"]);
    const printed = new TextEncoder().encode(result.stdout).length - lineBytes(marker);
    assert.equal(marker.bytes, new TextEncoder().encode(whole.stdout).length - printed);
  });

  await t.step("--json: payload records are kept whole or left out, never cut", async () => {
    const result = await runJnHere([
      "cat",
      "--json",
      "@demo/list_items?count=50",
      "--max-bytes",
      "300",
    ]);
    const records = parseNdjson(result.stdout) as Rec[];
    const marker = records.pop()!;
    assert.ok(records.length >= 3 && records.every((r) => typeof r.id === "number"));
    assert.deepEqual(
      { type: marker.type, records: marker.records },
      { type: "truncated", records: 50 - records.length },
    );
  });

  await t.step("what fits is printed as is, with no marker", async () => {
    const result = await runJnHere(["cat", "@demo/add?a=1&b=2", "--max-bytes", "1000"]);
    assert.equal(parseNdjson(result.stdout).length, 2);
  });

  await t.step("not with --follow; N is a whole number from 1", async () => {
    const follow = await runJnHere([
      "cat",
      "@demo?resource=demo://ticker",
      "--follow",
      "--max-bytes",
      "10",
    ]);
    assert.equal(follow.code, 2);
    assert.match(follow.stderr, /--save-dir and --max-bytes apply to one call, not to --follow/);
    const zero = await runJnHere(["cat", "@demo/add", "--max-bytes", "0"]);
    assert.equal(zero.code, 2);
    assert.match(zero.stderr, /Invalid --max-bytes "0"/);
  });

  await t.step("boundRecords(): N below the marker's size prints the marker alone", () => {
    const out = boundRecords([{ text: "x".repeat(100) }], 20);
    assert.deepEqual(out, [{ type: "truncated", max_bytes: 20, records: 1, bytes: 112 }]);
  });
});

const EVERYTHING = await serverEverything();

Deno.test({
  name: "--save-dir with server-everything: an image and an embedded blob",
  ignore: EVERYTHING === undefined,
  async fn() {
    const dir = await tempDir();
    try {
      const source = `mcp+node://${EVERYTHING}`;
      const image = await runJnHere(["cat", `${source}?tool=get-tiny-image`, "--save-dir", "."], {
        cwd: dir,
      });
      assert.equal(image.code, 0, image.stderr);
      const saved = (parseNdjson(image.stdout) as Rec[]).find((r) => r.content_type === "image")!;
      assert.match(saved.file as string, /^sha256-[0-9a-f]{64}\.png$/);
      assert.equal(saved.data, undefined);
      const blob = await runJnHere([
        "cat",
        `${source}?tool=get-resource-reference&resourceType=Blob&resourceId=2`,
        "--save-dir",
        ".",
      ], { cwd: dir });
      const embedded = (parseNdjson(blob.stdout) as Rec[]).find((r) =>
        r.content_type === "resource"
      )!;
      const resource = embedded.resource as Rec;
      assert.match(resource.file as string, /^sha256-[0-9a-f]{64}\.txt$/);
      assert.equal(resource.blob, undefined);
      assert.ok((await Deno.stat(join(dir, resource.file as string))).size > 0);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
