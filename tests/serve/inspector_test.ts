/**
 * MCP Inspector's CLI (`@modelcontextprotocol/inspector --cli`, a host
 * built on another SDK release) against `jn serve @demo`, over stdio (the
 * Inspector starts jn serve as its server) and Streamable HTTP (a bearer
 * token from jn's environment): tools/list, tools/call, resources/read and
 * prompts/get answer as the demo server does. Ignored, saying how to
 * enable them, where the Inspector cannot run (tests/serve/inspector.ts).
 *
 * @module
 */

import assert from "node:assert/strict";
import { baseEnv, jnArgs, ROOT } from "../helpers.ts";
import { inspector } from "./inspector.ts";
import { startHttp } from "./support.ts";

const INSPECTOR = await inspector();

/** What each method is asked, and what its answer must hold. */
const CALLS: [name: string, args: string[], check: (answer: Record<string, unknown>) => void][] = [
  ["tools/list", ["--method", "tools/list"], (answer) => {
    const names = (answer.tools as { name: string }[]).map((tool) => tool.name);
    assert.ok(names.includes("add") && names.includes("echo"), names.join(" "));
  }],
  ["tools/call", ["--method", "tools/call", "--tool-name", "add", "--tool-arg", "a=2", "b=40"], (
    answer,
  ) => assert.deepEqual(answer.structuredContent, { sum: 42 })],
  ["resources/read", ["--method", "resources/read", "--uri", "demo://readme"], (answer) => {
    const [content] = answer.contents as { uri: string; text: string }[];
    assert.equal(content.uri, "demo://readme");
    assert.match(content.text, /demo/i);
  }],
  ["prompts/get", [
    "--method",
    "prompts/get",
    "--prompt-name",
    "summarize",
    "--prompt-args",
    "topic=jq",
  ], (
    answer,
  ) => assert.match(JSON.stringify(answer.messages), /jq/)],
];

/** Runs the Inspector's CLI; its answer (stdout, JSON). */
async function inspect(args: string[]): Promise<Record<string, unknown>> {
  const [command, ...head] = INSPECTOR!.argv;
  const output = await new Deno.Command(command, {
    args: [...head, ...args],
    cwd: ROOT,
    env: baseEnv(),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(output.stdout);
  const stderr = new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 0, `inspector ${args.join(" ")}:\n${stderr}\n${stdout}`);
  return JSON.parse(stdout);
}

Deno.test({
  name: "MCP Inspector --cli over stdio: jn serve @demo answers tools, resources and prompts",
  ignore: INSPECTOR === undefined,
  async fn(t) {
    // The Inspector starts `jn serve @demo` itself, as a host's config says.
    const server = ["--", Deno.execPath(), ...jnArgs(["serve", "@demo"])];
    for (const [name, args, check] of CALLS) {
      await t.step(name, async () => check(await inspect([...args, ...server])));
    }
  },
});

Deno.test({
  name: "MCP Inspector --cli over Streamable HTTP: jn serve --http @demo, with a bearer token",
  ignore: INSPECTOR === undefined,
  async fn(t) {
    const token = "inspector-test-token-9b2e";
    const served = await startHttp(["--http-token-env", "JN_SERVE_TOKEN", "@demo"], {
      JN_SERVE_TOKEN: token,
    });
    try {
      const target = [
        served.url,
        "--transport",
        "http",
        "--header",
        `Authorization: Bearer ${token}`,
      ];
      for (const [name, args, check] of CALLS) {
        await t.step(name, async () => check(await inspect([...target, ...args])));
      }
    } finally {
      assert.equal(await served.stop("SIGTERM"), 0, served.stderr());
    }
  },
});
