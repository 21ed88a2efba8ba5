/**
 * `jn profile import claude|cursor|vscode|FILE`: each editor's config format
 * at its usual path and in its order of precedence, variable references kept
 * as ${VAR}, literal secrets moved out (and never printed), and a project's
 * own config never turned into the user's profiles.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { editorConfigs, type EditorName } from "../../lib/profile/edit/import_paths.ts";
import { FIXTURE, type Sandbox, sandbox } from "./sandbox.ts";

const LITERAL = "ghp_literalSecretValue123";

function configPath(box: Sandbox, editor: EditorName, label: RegExp): string {
  const found = editorConfigs(editor, { env: { HOME: box.home }, cwd: box.project })
    .find((l) => label.test(l.label));
  return found!.path;
}

async function meta(box: Sandbox, name: string, layer: "user" | "project" = "user") {
  const root = layer === "user" ? box.user : box.projectProfiles;
  return JSON.parse(await Deno.readTextFile(join(root, name, "_meta.json")));
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

Deno.test("jn profile import claude: a repository's .mcp.json never becomes a user profile", async (t) => {
  const box = await sandbox({ here: true });
  try {
    await box.write(
      join(box.project, ".mcp.json"),
      JSON.stringify({ mcpServers: { evil: { command: "node", args: [FIXTURE] } } }),
    );
    await t.step(
      "without --project: nothing written, exit 3, the way to import it named",
      async () => {
        const result = await box.run(["profile", "import", "claude"]);
        assert.deepEqual([result.code, result.stdout], [3, ""]);
        assert.match(
          result.stderr,
          /^jn: Only project-scoped MCP servers found for "claude": @evil \(Claude Code \(project scope, \.mcp\.json\)\)\nhint: they came with this directory: review them, then run: jn profile import claude --project/,
        );
        assert.equal(await exists(join(box.user, "evil")), false, "no user-layer profile");
        assert.equal(await exists(join(box.projectProfiles, "evil")), false);
      },
    );
    await t.step(
      "--project: written to the project layer, which launches nothing untrusted",
      async () => {
        const result = await box.run(["profile", "import", "claude", "--project"]);
        assert.deepEqual([result.code, result.stdout], [0, ""], result.stderr);
        assert.match(
          result.stderr,
          /^Imported @evil from Claude Code \(project scope, \.mcp\.json\): "node .*fixture\.mjs" → .*\/project\/\.jn\/profiles\/mcp\/evil\n/,
        );
        assert.match(
          result.stderr,
          /@evil is a project profile: review .*, then allow it to launch: jn profile trust @evil/,
        );
        assert.equal(await exists(join(box.user, "evil")), false, "still no user-layer profile");
        assert.equal((await meta(box, "evil", "project")).command, "node");
        const call = await box.run(["cat", "@evil/echo?text=x"]);
        assert.deepEqual([call.code, call.stdout], [3, ""]);
        assert.match(call.stderr, /^jn: Project profile "@evil" is not trusted to launch/);
      },
    );
  } finally {
    await box.dispose();
  }
});

Deno.test("import/create --project never write through a symlinked .jn or .jn/profiles (red team, #12)", async (t) => {
  const box = await sandbox({ here: true });
  try {
    await box.write(
      join(box.project, ".mcp.json"),
      JSON.stringify({ mcpServers: { helper: { command: "node", args: [FIXTURE] } } }),
    );
    await Deno.mkdir(box.user, { recursive: true });
    const userProfiles = join(box.home, ".local", "jn", "profiles");
    for (
      const [link, target] of [[".jn/profiles", userProfiles], [
        ".jn",
        join(box.home, ".local", "jn"),
      ]]
    ) {
      await t.step(`${link} → the user layer`, async () => {
        await Deno.remove(join(box.project, ".jn"), { recursive: true }).catch(() => {});
        if (link === ".jn/profiles") await Deno.mkdir(join(box.project, ".jn"));
        await Deno.symlink(target, join(box.project, link));
        const result = await box.run(["profile", "import", "claude", "--project"]);
        assert.deepEqual([result.code, result.stdout], [3, ""], result.stderr);
        assert.match(
          result.stderr,
          /^jn: Refusing to write the project profile through a symlink: .*\/project\/\.jn.* is a symlink\nhint: replace /,
        );
        assert.equal(await exists(join(box.user, "helper")), false, "no user-layer profile");
        const created = await box.run(["profile", "create", "mine", "--project"], {
          stdin: JSON.stringify({ command: "node", args: [FIXTURE] }),
        });
        assert.equal(created.code, 3, created.stderr);
        assert.equal(await exists(join(box.user, "mine")), false, "no user-layer profile");
      });
    }
  } finally {
    await box.dispose();
  }
});

Deno.test("jn profile import claude follows Claude Code's scopes: local > project > user, then Claude Desktop", async (t) => {
  const box = await sandbox({ here: true });
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
          dup: { command: "from-desktop" },
        },
      }),
    );
    await box.write(
      join(box.home, ".claude.json"),
      JSON.stringify({
        mcpServers: {
          "user tool": { type: "stdio", command: "uvx", args: ["x", "--api-key", "abc123456"] },
          shared: { command: "from-user-scope" },
          off: { command: "switched-off" },
        },
        projects: {
          [box.project]: {
            mcpServers: {
              remote: {
                type: "http",
                url: "https://e.com/mcp",
                headers: { Authorization: "Bearer ${API_TOKEN}" },
              },
              shared: { command: "from-local-scope" },
            },
            disabledMcpServers: ["off"],
            disabledMcpjsonServers: ["rejected"],
          },
        },
      }),
    );
    await box.write(
      join(box.project, ".mcp.json"),
      JSON.stringify({
        mcpServers: {
          dup: { command: "from-project", env: { HOST: "${HOST:-localhost}" } },
          shared: { command: "from-project" },
          rejected: { command: "rejected-in-claude" },
        },
      }),
    );
    await t.step(
      "user scopes go to the user layer; the project's entries are listed, not imported",
      async () => {
        const result = await box.run(["profile", "import", "claude"]);
        assert.deepEqual([result.code, result.stdout], [0, ""], result.stderr);
        assert.ok(!result.stderr.includes(LITERAL));
        assert.match(
          result.stderr,
          /^Imported @shared from Claude Code \(local scope, ~\/\.claude\.json\): "from-local-scope" → /m,
        );
        assert.match(
          result.stderr,
          /skipped "shared" of Claude Code \(project scope, \.mcp\.json\): @shared comes from Claude Code \(local scope/,
        );
        assert.match(
          result.stderr,
          /skipped "shared" of Claude Code \(user scope, ~\/\.claude\.json\): @shared comes from Claude Code \(local scope/,
        );
        assert.match(
          result.stderr,
          /skipped "off" of .*: switched off in Claude Code \(disabledMcpServers\)/,
        );
        assert.match(
          result.stderr,
          /skipped "rejected" of .*: switched off in Claude Code \(disabledMcpjsonServers\)/,
        );
        assert.match(
          result.stderr,
          /^jn: not imported: @dup \(Claude Code \(project scope, \.mcp\.json\)\) came with this directory, not from you; add --project/m,
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
        assert.deepEqual([remote.transport, remote.url, remote.headers], [
          "http",
          "https://e.com/mcp",
          { Authorization: "Bearer ${API_TOKEN}" },
        ]);
        assert.equal((await meta(box, "shared")).command, "from-local-scope");
        assert.equal((await meta(box, "dup")).command, "from-desktop", "Desktop's, a user file");
        assert.equal(await exists(join(box.user, "off")), false);
        assert.equal(await exists(box.projectProfiles), false);
      },
    );
    await t.step("--project adds the project's entries to the project layer", async () => {
      const result = await box.run(["profile", "import", "claude", "--project"]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stderr, /kept the existing @github .* --force replaces it/);
      const dup = await meta(box, "dup", "project");
      assert.deepEqual([dup.command, dup.env], ["from-project", { HOST: "${HOST:-localhost}" }]);
      assert.equal(await exists(join(box.projectProfiles, "shared")), false, "local scope wins");
      assert.equal(await exists(join(box.projectProfiles, "rejected")), false);
    });
  } finally {
    await box.dispose();
  }
});

Deno.test("a user-level entry using ${workspaceFolder} is not imported: it means nothing there (red team, #12)", async () => {
  const box = await sandbox({ here: true });
  try {
    await box.write(
      configPath(box, "cursor", /user/),
      JSON.stringify({
        mcpServers: {
          ws: { command: "python3", args: ["${workspaceFolder}/srv.py"] },
          plain: { command: "python3", args: ["/opt/srv.py"] },
        },
      }),
    );
    const result = await box.run(["profile", "import", "cursor"]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stderr,
      /entry "ws" uses \$\{workspaceFolder\}, which means nothing in a user-level config/,
    );
    assert.equal(await exists(join(box.user, "ws")), false, "not imported");
    assert.deepEqual((await meta(box, "plain")).args, ["/opt/srv.py"]);
  } finally {
    await box.dispose();
  }
});

Deno.test("jn profile import cursor and vscode convert their variable syntax", async (t) => {
  const box = await sandbox({ here: true });
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
      const result = await box.run(["profile", "import", "cursor", "--project"]);
      assert.equal(result.code, 0, result.stderr);
      const local = await meta(box, "local", "project");
      assert.deepEqual([local.args, local.env], [[`${box.project}/srv.py`], { KEY: "${MY_KEY}" }]);
      const docs = await meta(box, "docs");
      assert.deepEqual([docs.transport, docs.url], ["sse", "https://docs.example/sse"]);
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
        const result = await box.run(["profile", "import", "vscode", "--project"]);
        assert.equal(result.code, 0, result.stderr);
        assert.deepEqual((await meta(box, "gh", "project")).headers, {
          Authorization: "Bearer ${GH_TOKEN}",
        });
        assert.match(result.stderr, /@gh: set GH_TOKEN: VS Code asked for input "gh-token"/);
        assert.deepEqual((await meta(box, "fetch")).args, ["mcp-server-fetch"]);
      },
    );
  } finally {
    await box.dispose();
  }
});

Deno.test("jn profile import FILE takes any config with mcpServers or servers", async (t) => {
  const box = await sandbox({ here: true });
  try {
    await box.write(
      "config.json",
      JSON.stringify({ servers: { one: { command: "node", args: ["a.js"] } } }),
    );
    await t.step("--dry-run prints the profiles and writes nothing", async () => {
      const result = await box.run(["profile", "import", "../config.json", "--dry-run"]);
      assert.equal(result.code, 0, result.stderr);
      const planned = JSON.parse(result.stdout);
      assert.deepEqual(planned.map((p: { name: string; layer: string }) => [p.name, p.layer]), [[
        "one",
        "user",
      ]]);
      await assert.rejects(Deno.stat(join(box.user, "one")));
    });
    await t.step("--project writes the project layer, to be trusted by the user", async () => {
      const result = await box.run(["profile", "import", `${box.root}/config.json`, "--project"]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stderr, /then allow it to launch: jn profile trust @one/);
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
