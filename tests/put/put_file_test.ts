import assert from "node:assert/strict";
import { permissionFlags } from "../../lib/sandbox/permissions.ts";
import { baseEnv, canMountTmpfs, finish, MAIN, runJn, tempDir } from "../helpers.ts";

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await tempDir();
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function listDir(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  return names.sort();
}

const INPUT = '{"a":1}\n\n  [1, 2]  \r\n12345678901234567890\n1.0\n"text"\nnull\n{"b":{"c":true}}';

Deno.test("jn put FILE.json writes the records as one array, each exactly as read", async () => {
  await withDir(async (dir) => {
    const { code, stdout, stderr } = await runJn(["put", "out.json"], { stdin: INPUT, cwd: dir });
    assert.equal(code, 0, stderr);
    assert.equal(stdout, "");
    assert.match(stderr, /^jn put: 7 records written to out\.json in /);
    const text = await Deno.readTextFile(`${dir}/out.json`);
    assert.equal(
      text,
      '[\n{"a":1},\n[1, 2],\n12345678901234567890,\n1.0,\n"text",\nnull,\n{"b":{"c":true}}\n]\n',
    );
    assert.equal(JSON.parse(text).length, 7);
    assert.deepEqual(await listDir(dir), ["out.json"]);
  });
});

Deno.test("jn put FILE.ndjson and FILE.jsonl write one record per line", async () => {
  await withDir(async (dir) => {
    for (const name of ["out.ndjson", "OUT.JSONL"]) {
      const { code } = await runJn(["put", "-q", name], { stdin: INPUT, cwd: dir });
      assert.equal(code, 0);
      assert.equal(
        await Deno.readTextFile(`${dir}/${name}`),
        '{"a":1}\n[1, 2]\n12345678901234567890\n1.0\n"text"\nnull\n{"b":{"c":true}}\n',
      );
    }
  });
});

Deno.test("jn put FILE.json with no records writes an empty array", async () => {
  await withDir(async (dir) => {
    const { code } = await runJn(["put", "-q", "out.json"], { stdin: "\n", cwd: dir });
    assert.equal(code, 0);
    assert.equal(await Deno.readTextFile(`${dir}/out.json`), "[]\n");
  });
});

Deno.test("a line that is not JSON leaves an existing file untouched, exit 1", async () => {
  await withDir(async (dir) => {
    const path = `${dir}/out.json`;
    await Deno.writeTextFile(path, "precious\n");
    const stdin = '{"a":1}\n'.repeat(20_000) + "{oops\n" + '{"a":2}\n';
    const { code, stdout, stderr } = await runJn(["put", "out.json"], { stdin, cwd: dir });
    assert.equal(code, 1);
    assert.equal(stdout, "");
    assert.match(stderr, /^jn: Line 20001 of stdin is not JSON, "out\.json" was not written: /);
    assert.equal(await Deno.readTextFile(path), "precious\n");
    assert.deepEqual(await listDir(dir), ["out.json"]);
  });
});

Deno.test("jn put FILE replaces an existing file and keeps its permissions", async () => {
  await withDir(async (dir) => {
    const path = `${dir}/out.json`;
    await Deno.writeTextFile(path, "old\n");
    await Deno.chmod(path, 0o600);
    const { code } = await runJn(["put", "-q", "out.json"], { stdin: "1\n", cwd: dir });
    assert.equal(code, 0);
    assert.equal(await Deno.readTextFile(path), "[\n1\n]\n");
    assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
  });
});

Deno.test("jn put FILE refuses what it cannot do with exit 2", async (t) => {
  await withDir(async (dir) => {
    const cases: [string, string[], RegExp][] = [
      [
        "a missing directory",
        ["put", "no/such/dir/out.json"],
        /directory "no\/such\/dir" does not exist/,
      ],
      [
        "tool flags",
        ["put", "-c", "4", "--arg", "x=1", "out.json"],
        /--concurrency, --arg only apply/,
      ],
    ];
    for (const [name, args, message] of cases) {
      await t.step(name, async () => {
        const { code, stderr } = await runJn(args, { stdin: "1\n", cwd: dir });
        assert.equal(code, 2, stderr);
        assert.match(stderr, message);
        assert.deepEqual(await listDir(dir), []);
      });
    }
  });
});

Deno.test("Ctrl-C during jn put FILE leaves no file behind, exit 130", async () => {
  await withDir(async (dir) => {
    const created = firstCreated(dir, /\.out\.json\.jn-[0-9a-z]+\.tmp$/);
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", ...permissionFlags(), MAIN, "put", "out.json"],
      cwd: dir,
      env: baseEnv(),
      clearEnv: true,
      stdin: "piped",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode('{"a":1}\n'));
    // Wait for the temporary file: jn is then reading (stdin stays open).
    try {
      await Promise.race([created.path, child.status.then(() => assert.fail("jn exited first"))]);
    } finally {
      created.close();
    }
    assert.match((await listDir(dir))[0] ?? "", /^\.out\.json\.jn-[0-9a-z]+\.tmp$/);
    child.kill("SIGINT");
    // Keep stdin open until jn has exited: an EOF racing the signal would let it finish normally.
    const [status, stderr] = await Promise.all([child.status, new Response(child.stderr).text()]);
    await writer.close().catch(() => {});
    assert.equal(status.code, 130, stderr);
    assert.equal(stderr, "jn: interrupted\n");
    assert.deepEqual(await listDir(dir), []);
  });
});

Deno.test("jn put FILE never writes through a symlink it did not create, exit 2", async (t) => {
  await withDir(async (dir) => {
    const victim = `${dir}/victim.txt`;
    await Deno.writeTextFile(victim, "precious\n");
    await t.step("a link to an existing file is refused, the file is untouched", async () => {
      await Deno.symlink(victim, `${dir}/out.json`);
      const { code, stdout, stderr } = await runJn(["put", "out.json"], { stdin: "1\n", cwd: dir });
      assert.equal(code, 2, stderr);
      assert.equal(stdout, "");
      assert.equal(
        stderr,
        `jn: Cannot write "out.json": it is a symbolic link (to "${victim}")\n` +
          "hint: jn put does not write through links: name the file itself, or remove the link\n",
      );
      assert.equal(await Deno.readTextFile(victim), "precious\n");
      assert.equal((await Deno.lstat(`${dir}/out.json`)).isSymlink, true);
      await Deno.remove(`${dir}/out.json`);
    });
    await t.step("a dangling link is refused too, and nothing is created", async () => {
      await Deno.symlink(`${dir}/planted.json`, `${dir}/out.json`);
      const { code, stderr } = await runJn(["put", "out.json"], { stdin: "1\n", cwd: dir });
      assert.equal(code, 2, stderr);
      assert.match(stderr, /it is a symbolic link/);
      assert.deepEqual(await listDir(dir), ["out.json", "victim.txt"]);
      await Deno.remove(`${dir}/out.json`);
    });
  });
});

Deno.test("jn put FILE names a directory or a name too long in one line, exit 2", async (t) => {
  await withDir(async (dir) => {
    await t.step("a directory", async () => {
      await Deno.mkdir(`${dir}/d.json`);
      const { code, stderr } = await runJn(["put", "d.json"], { stdin: "1\n", cwd: dir });
      assert.equal(code, 2, stderr);
      assert.equal(
        stderr,
        'jn: Cannot write "d.json": it is a directory\nhint: name a file: jn put DIR/records.json\n',
      );
    });
    await t.step("a name too long", async () => {
      const name = `${"n".repeat(300)}.json`;
      const { code, stderr } = await runJn(["put", name], { stdin: "1\n", cwd: dir });
      assert.equal(code, 2, stderr);
      assert.equal(
        stderr,
        `jn: Cannot write "${name}": file name too long\n` +
          "hint: use a shorter name (most file systems allow 255 bytes per name)\n",
      );
      assert.deepEqual(await listDir(dir), ["d.json"]);
    });
  });
});

const TMPFS = await canMountTmpfs();
if (!TMPFS) {
  // deno-lint-ignore no-console
  console.warn(
    "skipping 'jn put FILE on a full file system': it needs `unshare -rm` and " +
      "`mount -t tmpfs` in a user namespace (Linux with unprivileged user namespaces)",
  );
}

Deno.test({
  name: "jn put FILE on a full file system is exit 2 and leaves nothing behind",
  ignore: !TMPFS,
  async fn() {
    await withDir(async (dir) => {
      // A 16 KiB tmpfs over `dir`, in a mount namespace of jn's own.
      const child = new Deno.Command("unshare", {
        args: [
          "-rm",
          "sh",
          "-c",
          `mount -t tmpfs -o size=16k none "$0" && cd "$0" && "$@"; code=$?; ls -A; exit $code`,
          dir,
          Deno.execPath(),
          "run",
          ...permissionFlags(),
          MAIN,
          "put",
          "out.json",
        ],
        env: baseEnv(),
        clearEnv: true,
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const stdin = `{"pad":"${"x".repeat(200)}"}\n`.repeat(500);
      const { code, stdout, stderr } = await finish(child, { stdin });
      assert.equal(code, 2, stderr);
      assert.equal(
        stderr,
        'jn: Cannot write "out.json": no space left on device\n' +
          "hint: free some space (or raise the quota) on that file system, or write elsewhere\n",
      );
      assert.equal(stdout, "", "ls -A: the temporary file was removed");
    });
  },
});

/** The first file created in `dir` whose path matches `pattern` (a file-system event). */
function firstCreated(dir: string, pattern: RegExp): { path: Promise<string>; close(): void } {
  const watcher = Deno.watchFs(dir);
  const path = (async () => {
    for await (const event of watcher) {
      const found = event.paths.find((path) => pattern.test(path));
      if (event.kind === "create" && found) return found;
    }
    throw new Error(`No file matching ${pattern} was created in ${dir}`);
  })();
  path.catch(() => {});
  return {
    path,
    close: () => {
      try {
        watcher.close();
      } catch { /* closed */ }
    },
  };
}
