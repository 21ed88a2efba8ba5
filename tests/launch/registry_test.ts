import assert from "node:assert/strict";
import { UsageError } from "../../lib/errors.ts";
import { buildLaunch } from "../../lib/launch/build.ts";
import {
  installHint,
  launcherCompletions,
  launcherOf,
  launcherSchemes,
} from "../../lib/launch/registry.ts";
import { describeArgv, type LaunchSpec } from "../../lib/launch/spec.ts";
import { parseSource } from "../../lib/uri/parse.ts";
import type { NakedSource } from "../../lib/uri/source.ts";

const CWD = "/work/project";

function naked(uri: string): NakedSource {
  const source = parseSource(uri);
  assert.equal(source.kind, "naked");
  return source as NakedSource;
}

function stdio(command: string, args: string[], label: string): LaunchSpec {
  // npx and uvx never read the working directory's configuration (lib/launch/isolation.ts).
  if (command === "npx") args = ["--prefix", "/dev/null", ...args];
  const env: Record<string, string> = command === "uvx" ? { UV_NO_CONFIG: "1" } : {};
  return { transport: "stdio", command, args, env, label };
}

const CASES: [string, LaunchSpec][] = [
  [
    "mcp+npx://@upstash/context7-mcp@latest",
    stdio("npx", ["-y", "@upstash/context7-mcp@latest"], "npx @upstash/context7-mcp@latest"),
  ],
  [
    "mcp+npx://@scope/pkg@1?command=--stdio&command=--verbose",
    stdio("npx", ["-y", "@scope/pkg@1", "--stdio", "--verbose"], "npx @scope/pkg@1"),
  ],
  [
    "mcp+npx://server-everything@2025.1.1?tool=echo&message=hi",
    stdio("npx", ["-y", "server-everything@2025.1.1"], "npx server-everything@2025.1.1"),
  ],
  [
    "mcp+uvx://biomcp-python/biomcp?command=run",
    stdio("uvx", ["--from", "biomcp-python", "biomcp", "run"], "uvx biomcp-python/biomcp"),
  ],
  ["mcp+uvx://mcp-server-time", stdio("uvx", ["mcp-server-time"], "uvx mcp-server-time")],
  [
    "mcp+uvx://mcp-server-time?command=--local-timezone&command=Europe/Paris",
    stdio("uvx", ["mcp-server-time", "--local-timezone", "Europe/Paris"], "uvx mcp-server-time"),
  ],
  ["mcp+uvx://pkg==1.2/cmd", stdio("uvx", ["--from", "pkg==1.2", "cmd"], "uvx pkg==1.2/cmd")],
  [
    "mcp+python://./my_server.py",
    stdio("python3", ["/work/project/my_server.py"], "python ./my_server.py"),
  ],
  [
    "mcp+python://../up/server.py?command=a%20b&command=",
    stdio("python3", ["/work/up/server.py", "a b", ""], "python ../up/server.py"),
  ],
  ["mcp+python://server.py", stdio("python3", ["/work/project/server.py"], "python server.py")],
  ["mcp+python:///abs/server.py", stdio("python3", ["/abs/server.py"], "python /abs/server.py")],
  [
    "mcp+node://./dir%20with%20space/server.js",
    stdio("node", ["/work/project/dir with space/server.js"], "node ./dir with space/server.js"),
  ],
  [
    "mcp+node:///srv/a/../b/./s.js?command=x",
    stdio("node", ["/srv/b/s.js", "x"], "node /srv/a/../b/./s.js"),
  ],
  [
    "mcp+deno://./server.ts",
    stdio(
      "deno",
      ["run", "--no-prompt", "--allow-read=/work/project", "/work/project/server.ts"],
      "deno ./server.ts",
    ),
  ],
  [
    "mcp+deno:///opt/my%20srv/main.ts?command=--port&command=1",
    stdio("deno", [
      "run",
      "--no-prompt",
      "--allow-read=/opt/my srv",
      "/opt/my srv/main.ts",
      "--port",
      "1",
    ], "deno /opt/my srv/main.ts"),
  ],
  ["mcp+https://example.com/mcp", {
    transport: "http",
    url: "https://example.com/mcp",
    headers: {},
    label: "https://example.com/mcp",
  }],
  ["mcp+http://localhost:8080/mcp?tool=x", {
    transport: "http",
    url: "http://localhost:8080/mcp",
    headers: {},
    label: "http://localhost:8080/mcp",
  }],
  ["mcp+https://host/a%2Fb", {
    transport: "http",
    url: "https://host/a%2Fb",
    headers: {},
    label: "https://host/a%2Fb",
  }],
];

Deno.test("buildLaunch() gives the exact argv of every launcher form", async (t) => {
  for (const [uri, expected] of CASES) {
    await t.step(uri, () => assert.deepEqual(buildLaunch(naked(uri), { cwd: CWD }), expected));
  }
});

Deno.test("buildLaunch() applies deno options", async (t) => {
  await t.step("a custom deno executable", () => {
    const launch = buildLaunch(naked("mcp+deno://s.ts"), { cwd: CWD, denoPath: "/opt/deno" });
    assert.equal(launch.transport === "stdio" && launch.command, "/opt/deno");
  });
  await t.step("extra permission flags go before the script", () => {
    const launch = buildLaunch(naked("mcp+deno://s.ts?command=a"), {
      cwd: CWD,
      denoPermissions: ["--allow-net=api.example.com", "--allow-env=HOME"],
    });
    assert.deepEqual(launch.transport === "stdio" && launch.args, [
      "run",
      "--no-prompt",
      "--allow-read=/work/project",
      "--allow-net=api.example.com",
      "--allow-env=HOME",
      "/work/project/s.ts",
      "a",
    ]);
  });
  await t.step("a permission that is not a flag is refused", () => {
    assert.throws(
      () => buildLaunch(naked("mcp+deno://s.ts"), { cwd: CWD, denoPermissions: ["rm"] }),
      UsageError,
    );
  });
  await t.step("a script directory with a comma is refused (Deno cannot escape it)", () => {
    assert.throws(
      () => buildLaunch(naked("mcp+deno:///a,b/s.ts"), { cwd: CWD }),
      (error: unknown) =>
        error instanceof UsageError && error.message.includes(`its directory "/a,b" contains ","`),
    );
  });
});

Deno.test("buildLaunch() refuses a relative cwd", () => {
  assert.throws(() => buildLaunch(naked("mcp+python://x.py"), { cwd: "rel" }), TypeError);
});

Deno.test("buildLaunch() leaves the environment to the session (uvx: UV_NO_CONFIG only)", () => {
  for (const [uri] of CASES) {
    const launch = buildLaunch(naked(uri), { cwd: CWD });
    const isolation = launch.transport === "stdio" && launch.command === "uvx"
      ? { UV_NO_CONFIG: "1" }
      : {};
    if (launch.transport === "stdio") assert.deepEqual(launch.env, isolation);
    else assert.deepEqual(launch.headers, {});
  }
});

Deno.test("describeArgv() shows a launch's argv quoted for display", () => {
  const launch = buildLaunch(naked("mcp+node://./my%20dir/s.js?command=it's"), { cwd: CWD });
  assert.equal(launch.transport, "stdio");
  if (launch.transport !== "stdio") return;
  assert.equal(describeArgv(launch), `node '/work/project/my dir/s.js' 'it'\\''s'`);
});

Deno.test("the registry: every scheme once, lowercase, with its launcher's help", () => {
  const schemes = launcherSchemes();
  assert.deepEqual(schemes, ["uvx", "npx", "python", "node", "deno", "cmd", "http", "https"]);
  for (const scheme of schemes) {
    assert.match(scheme, /^[a-z][a-z0-9.+-]*$/);
    const launcher = launcherOf(scheme)!;
    assert.ok(launcher.usage.startsWith("mcp+") && launcher.help !== "", scheme);
  }
  assert.equal(launcherOf("UVX"), undefined);
});

Deno.test("launcherCompletions() offers each launcher's prefix, https before http", () => {
  assert.deepEqual(launcherCompletions(), [
    "mcp+uvx://",
    "mcp+npx://",
    "mcp+python://",
    "mcp+node://",
    "mcp+deno://",
    "mcp+cmd://",
    "mcp+https://",
    "mcp+http://",
  ]);
});

Deno.test("installHint() names what to install for the program a launcher starts", () => {
  assert.equal(installHint("uvx"), "install uv (https://docs.astral.sh/uv/)");
  assert.equal(installHint("/opt/bin/uv"), "install uv (https://docs.astral.sh/uv/)");
  assert.equal(installHint("npx"), "install Node.js (https://nodejs.org/)");
  assert.equal(installHint("node.exe"), "install Node.js (https://nodejs.org/)");
  assert.equal(installHint("python3"), "install Python 3 (https://www.python.org/downloads/)");
  assert.equal(installHint("deno"), "install Deno (npm install -g deno@2.9.6)");
  assert.equal(installHint("my-server"), "check the command name, or give its full path");
});

Deno.test("buildLaunch() refuses a launcher the registry does not list", () => {
  const source = { ...naked("mcp+npx://p"), launcher: "pipx" };
  assert.throws(
    () => buildLaunch(source, { cwd: CWD }),
    (error: unknown) =>
      error instanceof UsageError && error.message === `Unknown launcher "pipx"` &&
      error.hint === "launchers: uvx, npx, python, node, deno, cmd, http, https",
  );
});
