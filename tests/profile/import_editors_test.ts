/**
 * `jn profile import windsurf|zed`, and what every import does whatever the
 * editor: switched-off entries are not imported, a file with a UTF-8 byte
 * order mark reads, and credentials in URLs become `${VAR}` references that
 * still work (the value is never written or printed).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { editorConfigs, type EditorName } from "../../lib/profile/edit/import_paths.ts";
import { moveUrlSecrets } from "../../lib/profile/edit/import_secrets.ts";
import { parseNdjson } from "../helpers.ts";
import { startFixture } from "../remote/support.ts";
import { type Sandbox, sandbox } from "./sandbox.ts";

function configPath(box: Sandbox, editor: EditorName, scope: "user" | "project"): string {
  return editorConfigs(editor, { env: { HOME: box.home }, cwd: box.project })
    .find((l) => l.scope === scope)!.path;
}

async function readMeta(box: Sandbox, name: string, root = box.user) {
  return JSON.parse(await Deno.readTextFile(join(root, name, "_meta.json")));
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

Deno.test("editorConfigs() knows where Windsurf and Zed keep their servers", () => {
  const env = { HOME: "/h", XDG_CONFIG_HOME: "/xdg", APPDATA: "C:\\AppData" };
  const paths = (editor: EditorName, os: typeof Deno.build.os) =>
    editorConfigs(editor, { env, cwd: "/p", os }).map((l) => [l.scope, l.path]);
  assert.deepEqual(paths("windsurf", "linux"), [[
    "user",
    "/h/.codeium/windsurf/mcp_config.json",
  ]]);
  assert.deepEqual(paths("zed", "linux"), [
    ["project", "/p/.zed/settings.json"],
    ["user", "/xdg/zed/settings.json"],
  ]);
  assert.deepEqual(paths("zed", "darwin")[1], ["user", "/h/.config/zed/settings.json"]);
});

Deno.test("jn profile import windsurf: serverUrl entries, switched-off entries left out", async () => {
  const box = await sandbox({ here: true });
  try {
    await box.write(
      configPath(box, "windsurf", "user"),
      JSON.stringify({
        mcpServers: {
          docs: { serverUrl: "https://docs.example/mcp", headers: { "X-Team": "a" } },
          git: { command: "uvx", args: ["mcp-server-git"], disabled: false },
          old: { command: "uvx", args: ["old-server"], disabled: true },
        },
      }),
    );
    const result = await box.run(["profile", "import", "windsurf"]);
    assert.deepEqual([result.code, result.stdout], [0, ""], result.stderr);
    const docs = await readMeta(box, "docs");
    assert.deepEqual([docs.transport, docs.url, docs.headers], [
      "http",
      "https://docs.example/mcp",
      { "X-Team": "a" },
    ]);
    assert.deepEqual((await readMeta(box, "git")).args, ["mcp-server-git"]);
    assert.equal(await exists(join(box.user, "old")), false);
    assert.match(
      result.stderr,
      /^jn: skipped entry "old" is switched off in Windsurf \(.*\): not imported$/m,
    );
  } finally {
    await box.dispose();
  }
});

Deno.test("jn profile import zed: context_servers in both command forms (JSONC), project settings held back", async () => {
  const box = await sandbox({ here: true });
  try {
    await box.write(
      configPath(box, "zed", "user"),
      `// Zed settings
{
  "theme": "One Dark",
  "context_servers": {
    "flat": { "source": "custom", "command": "uvx", "args": ["mcp-server-time"], "env": { "TZ": "UTC" } },
    "nested": { "command": { "path": "/usr/bin/node", "args": ["srv.js"], "env": { "LEVEL": "1" } }, "settings": {} },
    "remote": { "url": "https://r.example/mcp", "headers": { "Authorization": "Bearer \${env:R_TOKEN}" } },
    "off": { "command": "uvx", "args": ["x"], "enabled": false },
    "postgres-context-server": { "settings": { "database_url": "postgresql://localhost/db" } },
  },
}`,
    );
    await box.write(
      configPath(box, "zed", "project"),
      JSON.stringify({ context_servers: { repo: { command: "./run.sh", args: [] } } }),
    );
    const result = await box.run(["profile", "import", "zed"]);
    assert.deepEqual([result.code, result.stdout], [0, ""], result.stderr);
    const flat = await readMeta(box, "flat");
    assert.deepEqual([flat.command, flat.args, flat.env], ["uvx", ["mcp-server-time"], {
      TZ: "UTC",
    }]);
    const nested = await readMeta(box, "nested");
    assert.deepEqual([nested.command, nested.args, nested.env], ["/usr/bin/node", ["srv.js"], {
      LEVEL: "1",
    }]);
    assert.deepEqual((await readMeta(box, "remote")).headers, {
      Authorization: "Bearer ${R_TOKEN}",
    });
    for (const name of ["off", "postgres-context-server", "repo"]) {
      assert.equal(await exists(join(box.user, name)), false, name);
    }
    assert.match(result.stderr, /skipped entry "off" is switched off in Zed \(user\)/);
    assert.match(
      result.stderr,
      /warning: skipped entry "postgres-context-server" configures a Zed extension's server: jn cannot start it/,
    );
    assert.match(result.stderr, /not imported: @repo \(Zed \(project\)\) came with this directory/);
    const project = await box.run(["profile", "import", "zed", "--project"]);
    assert.equal(project.code, 0, project.stderr);
    assert.equal((await readMeta(box, "repo", box.projectProfiles)).command, "./run.sh");
  } finally {
    await box.dispose();
  }
});

Deno.test("jn profile import reads a config that starts with a UTF-8 byte order mark", async () => {
  const box = await sandbox({ here: true });
  try {
    const file = join(box.root, "bom.json");
    await Deno.writeFile(
      file,
      new Uint8Array([
        0xef,
        0xbb,
        0xbf,
        ...new TextEncoder().encode(`{"mcpServers": {"b": {"command": "uvx", "args": ["b"]}}}`),
      ]),
    );
    const result = await box.run(["profile", "import", file]);
    assert.deepEqual([result.code, result.stdout], [0, ""], result.stderr);
    assert.equal((await readMeta(box, "b")).command, "uvx");
  } finally {
    await box.dispose();
  }
});

Deno.test("jn profile import moves credentials out of URLs into ${VAR}, and the profile still works", async (t) => {
  const box = await sandbox({ here: true });
  const server = await startFixture("http_server.ts");
  const password = "hunter2-Pa55word";
  const key = "k3y-0123456789";
  try {
    const port = new URL(server.url).port;
    await box.write(
      "creds.json",
      JSON.stringify({
        mcpServers: {
          h: { url: `http://me:${password}@127.0.0.1:${port}/headers/mcp?api_key=${key}&x=1` },
          bridge: {
            command: "npx",
            args: ["mcp-remote", `https://${key}@r.example/mcp`],
            env: { DATABASE_URL: `postgres://app:${password}@db.example/app` },
          },
        },
      }),
    );
    await t.step(
      "the user-info password and the api_key become variables; nothing printed",
      async () => {
        const result = await box.run(["profile", "import", `${box.root}/creds.json`]);
        assert.deepEqual([result.code, result.stdout], [0, ""], result.stderr);
        for (const secret of [password, key]) {
          assert.ok(!result.stderr.includes(secret), result.stderr);
          const written = await Deno.readTextFile(join(box.user, "h", "_meta.json")) +
            await Deno.readTextFile(join(box.user, "bridge", "_meta.json"));
          assert.ok(!written.includes(secret), written);
        }
        assert.equal(
          (await readMeta(box, "h")).url,
          `http://me:\${H_URL_PASSWORD}@127.0.0.1:${port}/headers/mcp?api_key=\${H_URL_API_KEY}&x=1`,
        );
        assert.deepEqual((await readMeta(box, "bridge")).args, [
          "mcp-remote",
          "https://${BRIDGE_URL_TOKEN}@r.example/mcp",
        ]);
        assert.match(
          result.stderr,
          /@h: set H_URL_PASSWORD before use: the literal password in the URL/,
        );
        assert.match(
          result.stderr,
          /@h: set H_URL_API_KEY before use: the literal value of "api_key"/,
        );
        assert.match(result.stderr, /@bridge: set BRIDGE_URL_TOKEN before use/);
        assert.match(result.stderr, /@bridge: set DATABASE_URL_PASSWORD before use/);
      },
    );
    await t.step(
      "with the variables set, the server gets the credentials (Basic authentication)",
      async () => {
        const result = await box.run(["cat", "@h/echo?text=x"], {
          env: { H_URL_PASSWORD: password, H_URL_API_KEY: key },
        });
        assert.equal(result.code, 0, result.stderr);
        const [record] = parseNdjson(result.stdout) as { text: string }[];
        const headers = JSON.parse(record.text);
        assert.equal(headers.authorization, `Basic ${btoa(`me:${password}`)}`);
        assert.ok(!result.stderr.includes(password));
      },
    );
  } finally {
    await server.stop();
    await box.dispose();
  }
});

Deno.test("moveUrlSecrets() moves credentials only: names, fragments and references stay", () => {
  const notes: string[] = [];
  const cases: [string, string][] = [
    [
      "https://me:Secret1@h/x?key=Secret2&page=2",
      "https://me:${P_PASSWORD}@h/x?key=${P_KEY}&page=2",
    ],
    ["https://Secret3@h/x", "https://${P_TOKEN}@h/x"],
    ["postgres://app@db/x", "postgres://app@db/x"],
    ["https://h/x#frag?api_key=1", "https://h/x#frag?api_key=1"],
    ["https://h/x?token=&sig=${SIG}", "https://h/x?token=&sig=${SIG}"],
    ["https://${HOST}/mcp?apiKey=Secret4", "https://${HOST}/mcp?apiKey=${P_APIKEY}"],
  ];
  for (const [url, moved] of cases) assert.equal(moveUrlSecrets(url, "p", notes), moved, url);
  assert.equal(notes.length, 4);
  assert.ok(!notes.join("\n").includes("Secret"), notes.join("\n"));
});
