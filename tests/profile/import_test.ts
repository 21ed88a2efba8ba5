/**
 * `jn profile import claude|cursor|vscode|FILE`: each editor's config format
 * at its usual path, variable references kept as ${VAR}, literal secrets
 * moved out (and never printed).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { editorConfigs, type EditorName } from "../../lib/profile/import_paths.ts";
import { type Sandbox, sandbox } from "./sandbox.ts";

const LITERAL = "ghp_literalSecretValue123";

function configPath(box: Sandbox, editor: EditorName, label: RegExp): string {
  const found = editorConfigs(editor, { env: { HOME: box.home }, cwd: box.project })
    .find((l) => label.test(l.label));
  return found!.path;
}

async function meta(box: Sandbox, name: string) {
  return JSON.parse(await Deno.readTextFile(join(box.user, name, "_meta.json")));
}

Deno.test("jn profile import claude reads Claude Desktop and Claude Code configs", async () => {
  const box = await sandbox();
  try {
    await box.write(
      configPath(box, "claude", /Desktop/),
      JSON.stringify({
        mcpServers: {
          github: {
            command: "npx",
            args: ["-y", "@modelcontextprotocol/server-github"],
            env: { GITHUB_PERSONAL_ACCESS_TOKEN: LITERAL, LOG_LEVEL: "debug" },
          },
          "dup": { command: "from-desktop" },
        },
      }),
    );
    await box.write(
      join(box.home, ".claude.json"),
      JSON.stringify({
        mcpServers: {
          "user tool": { type: "stdio", command: "uvx", args: ["x", "--api-key", "abc123456"] },
        },
        projects: {
          [box.project]: {
            mcpServers: {
              remote: {
                type: "http",
                url: "https://e.com/mcp",
                headers: { Authorization: "Bearer ${API_TOKEN}" },
              },
            },
          },
        },
      }),
    );
    await box.write(
      join(box.project, ".mcp.json"),
      JSON.stringify({
        mcpServers: { dup: { command: "from-project", env: { HOST: "${HOST:-localhost}" } } },
      }),
    );
    const result = await box.run(["profile", "import", "claude"]);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(!result.stdout.includes(LITERAL) && !result.stderr.includes(LITERAL));
    assert.match(
      result.stdout,
      /^Imported @dup from Claude Code \(project \.mcp\.json\): "from-project" → /m,
    );
    assert.match(
      result.stderr,
      /skipped "dup" of Claude Desktop: @dup comes from Claude Code \(project \.mcp\.json\)/,
    );
    assert.match(result.stderr, /@github: set GITHUB_PERSONAL_ACCESS_TOKEN before use/);
    assert.deepEqual((await meta(box, "github")).env, {
      GITHUB_PERSONAL_ACCESS_TOKEN: "${GITHUB_PERSONAL_ACCESS_TOKEN}",
      LOG_LEVEL: "debug",
    });
    assert.deepEqual((await meta(box, "user-tool")).args, [
      "x",
      "--api-key",
      "${USER_TOOL_API_KEY}",
    ]);
    const remote = await meta(box, "remote");
    assert.deepEqual([remote.transport, remote.url, remote.headers], ["http", "https://e.com/mcp", {
      Authorization: "Bearer ${API_TOKEN}",
    }]);
    assert.deepEqual((await meta(box, "dup")).env, { HOST: "${HOST:-localhost}" });
    const again = await box.run(["profile", "import", "claude"]);
    assert.equal(again.code, 0);
    assert.match(again.stderr, /kept the existing @github .* --force replaces it/);
  } finally {
    await box.dispose();
  }
});

Deno.test("jn profile import cursor and vscode convert their variable syntax", async (t) => {
  const box = await sandbox();
  try {
    await t.step("cursor: ${env:X} → ${X}, ${workspaceFolder} → the project", async () => {
      await box.write(
        join(box.project, ".cursor", "mcp.json"),
        JSON.stringify({
          mcpServers: {
            local: {
              command: "python3",
              args: ["${workspaceFolder}/srv.py"],
              env: { KEY: "${env:MY_KEY}" },
            },
          },
        }),
      );
      await box.write(
        configPath(box, "cursor", /user/),
        JSON.stringify({
          mcpServers: { docs: { url: "https://docs.example/sse", type: "sse" } },
        }),
      );
      const result = await box.run(["profile", "import", "cursor"]);
      assert.equal(result.code, 0, result.stderr);
      const local = await meta(box, "local");
      assert.deepEqual([local.args, local.env], [[`${box.project}/srv.py`], { KEY: "${MY_KEY}" }]);
      assert.deepEqual([(await meta(box, "docs")).transport, (await meta(box, "docs")).url], [
        "sse",
        "https://docs.example/sse",
      ]);
    });
    await t.step(
      "vscode: the servers key of .vscode/mcp.json and mcp.servers of user settings (JSONC)",
      async () => {
        await box.write(
          join(box.project, ".vscode", "mcp.json"),
          `{
        // workspace servers
        "inputs": [{ "id": "gh-token", "type": "promptString", "password": true }],
        "servers": {
          "gh": { "type": "http", "url": "https://api.example/mcp", "headers": { "Authorization": "Bearer \${input:gh-token}" } },
        },
      }`,
        );
        await box.write(
          configPath(box, "vscode", /settings/),
          `{
        "editor.fontSize": 14, // not ours
        "mcp": { "servers": { "fetch": { "command": "uvx", "args": ["mcp-server-fetch"] } } }
      }`,
        );
        const result = await box.run(["profile", "import", "vscode"]);
        assert.equal(result.code, 0, result.stderr);
        assert.deepEqual((await meta(box, "gh")).headers, { Authorization: "Bearer ${GH_TOKEN}" });
        assert.match(result.stderr, /@gh: set GH_TOKEN: VS Code asked for input "gh-token"/);
        assert.deepEqual((await meta(box, "fetch")).args, ["mcp-server-fetch"]);
      },
    );
  } finally {
    await box.dispose();
  }
});

Deno.test("jn profile import FILE takes any config with mcpServers or servers", async (t) => {
  const box = await sandbox();
  try {
    await box.write(
      "config.json",
      JSON.stringify({ servers: { one: { command: "node", args: ["a.js"] } } }),
    );
    await t.step("--dry-run prints the profiles and writes nothing", async () => {
      const result = await box.run(["profile", "import", "../config.json", "--dry-run"]);
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(JSON.parse(result.stdout).map((p: { name: string }) => p.name), ["one"]);
      await assert.rejects(Deno.stat(join(box.user, "one")));
    });
    await t.step("--project writes the project layer, to be trusted by the user", async () => {
      const result = await box.run(["profile", "import", `${box.root}/config.json`, "--project"]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stderr, /review it, then allow it to launch: jn profile trust @one/);
      await Deno.stat(join(box.projectProfiles, "one", "_meta.json"));
    });
    await t.step("a file without servers, or a missing one, is exit 3", async () => {
      await box.write("empty.json", `{"other": 1}`);
      for (const file of [`${box.root}/empty.json`, `${box.root}/missing.json`]) {
        const result = await box.run(["profile", "import", file]);
        assert.equal(result.code, 3, result.stderr);
      }
    });
  } finally {
    await box.dispose();
  }
});
