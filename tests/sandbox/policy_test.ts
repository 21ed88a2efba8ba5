import assert from "node:assert/strict";
import { ConfigError, UsageError } from "../../lib/errors.ts";
import { sandboxFields } from "../../lib/sandbox/profile_fields.ts";
import {
  mergePolicies,
  parseHostList,
  parseSandboxPolicy,
  resolvePolicyPaths,
} from "../../lib/sandbox/policy.ts";

const FILE = "/p/.jn/profiles/mcp/x/_meta.json";

Deno.test("parseSandboxPolicy() reads the profile's sandbox field", async (t) => {
  await t.step("absent or false means no sandbox", () => {
    assert.equal(parseSandboxPolicy(undefined, { file: FILE }), undefined);
    assert.equal(parseSandboxPolicy(false, { file: FILE }), undefined);
  });
  await t.step("true is the default policy: no network, nothing declared", () => {
    assert.deepEqual(parseSandboxPolicy(true, { file: FILE }), {
      network: false,
      read: [],
      write: [],
    });
  });
  await t.step("an object keeps its paths and network", () => {
    assert.deepEqual(
      parseSandboxPolicy({ network: ["api.example.com", "h:8443"], write: ["./out"] }, {
        file: FILE,
      }),
      { network: ["api.example.com", "h:8443"], read: [], write: ["./out"] },
    );
  });
  await t.step("a wrong shape is a ConfigError naming the file and the field", () => {
    const cases: [unknown, RegExp][] = [
      ["yes", /"sandbox" must be true, false or an object/],
      [{ netwrk: true }, /unknown field "netwrk"/],
      [{ write: "./out" }, /"sandbox.write" must be a list of paths/],
      [{ read: [""] }, /"sandbox.read" must be a list of paths/],
      [{ network: "all" }, /"sandbox.network" must be true, false or a list/],
      [{ network: ["http://x"] }, /"sandbox.network" must be true, false or a list/],
    ];
    for (const [value, message] of cases) {
      assert.throws(() => parseSandboxPolicy(value, { file: FILE }), (error) => {
        assert.ok(error instanceof ConfigError);
        assert.equal(error.path, FILE);
        assert.match(error.message, new RegExp(`^Invalid profile ${FILE}: `));
        assert.match(error.message, message);
        return true;
      });
    }
  });
});

Deno.test("mergePolicies() joins paths and keeps the wider network", () => {
  const none = { network: false, read: ["/a"], write: [] };
  const hosts = { network: ["h1"], read: ["/a", "/b"], write: ["/w"] };
  assert.equal(mergePolicies(undefined, undefined), undefined);
  assert.equal(mergePolicies(none, undefined), none);
  assert.deepEqual(mergePolicies(none, hosts), {
    network: ["h1"],
    read: ["/a", "/b"],
    write: ["/w"],
  });
  assert.deepEqual(mergePolicies(hosts, { ...none, network: ["h2"] })?.network, ["h1", "h2"]);
  assert.equal(mergePolicies(hosts, { ...none, network: true })?.network, true);
});

Deno.test("resolvePolicyPaths() makes paths absolute against cwd and HOME", async (t) => {
  await t.step("relative, ~ and absolute paths, trailing slashes dropped", () => {
    const policy = { network: false, read: ["./data/", "~/notes", "/etc/x/../y"], write: ["."] };
    assert.deepEqual(resolvePolicyPaths(policy, { cwd: "/work/p", home: "/home/me" }), {
      network: false,
      read: ["/work/p/data", "/home/me/notes", "/etc/y"],
      write: ["/work/p"],
    });
  });
  await t.step("~ without HOME is a usage error", () => {
    assert.throws(
      () => resolvePolicyPaths({ network: false, read: ["~/x"], write: [] }, { cwd: "/" }),
      UsageError,
    );
  });
});

Deno.test("parseHostList() accepts host names and ports, refuses URLs", () => {
  assert.deepEqual(parseHostList("api.example.com, 127.0.0.1:8080,[::1]:9"), [
    "api.example.com",
    "127.0.0.1:8080",
    "[::1]:9",
  ]);
  assert.throws(() => parseHostList("https://x"), /Invalid --sandbox-host "https:\/\/x"/);
});

Deno.test("sandboxFields() reads env_passthrough, sandbox and deno_permissions of _meta.json", async (t) => {
  await t.step("all three", () => {
    assert.deepEqual(
      sandboxFields({
        command: "deno",
        env_passthrough: ["API_KEY", "API_KEY", "OTHER"],
        sandbox: { write: ["./out"] },
        deno_permissions: { net: ["api.example.com"] },
      }, { file: FILE }),
      {
        envPassthrough: ["API_KEY", "OTHER"],
        sandbox: { network: false, read: [], write: ["./out"] },
        denoPermissions: { net: ["api.example.com"] },
      },
    );
  });
  await t.step("none of them", () => {
    assert.deepEqual(sandboxFields({ command: "x" }, { file: FILE }), { envPassthrough: [] });
  });
  await t.step("env_passthrough must be a list of variable names", () => {
    for (const bad of ["API_KEY", ["A-B"], [1]]) {
      assert.throws(
        () => sandboxFields({ env_passthrough: bad }, { file: FILE }),
        /"env_passthrough" must list variable names/,
      );
    }
  });
});
