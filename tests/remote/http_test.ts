import assert from "node:assert/strict";
import { parseNdjson, runJnHere } from "../helpers.ts";
import { freePort, startFixture } from "./support.ts";

type Rec = Record<string, unknown>;

Deno.test("remote servers over Streamable HTTP: headers, tokens and misbehaviour", async (t) => {
  const server = await startFixture("http_server.ts");
  const base = `mcp+${server.url}`;
  try {
    await t.step("--header reaches the server and --token-env sends a bearer token", async () => {
      const token = "tok-7f3a9c-secret";
      const { code, stdout, stderr } = await runJnHere([
        "cat",
        `${base}/headers/mcp?tool=echo`,
        "--header",
        "X-Team: blue",
        "--token-env",
        "MY_TOKEN",
        "--debug",
      ], { env: { MY_TOKEN: token } });
      assert.equal(code, 0, stderr);
      const headers = JSON.parse(String((parseNdjson(stdout)[0] as Rec).text));
      assert.equal(headers["x-team"], "blue");
      assert.equal(headers.authorization, `Bearer ${token}`);
      assert.ok(!stderr.includes(token), "the --debug log redacts the token");
      assert.match(stderr, /\*\*\*/);
    });

    await t.step("--token-env naming an unset variable is a configuration error", async () => {
      const { code, stderr } = await runJnHere([
        "cat",
        `${base}/mcp?tool=echo`,
        "--token-env",
        "NOPE",
      ]);
      assert.equal(code, 3);
      assert.match(stderr, /The variable "NOPE" of --token-env is not set/);
    });

    await t.step("audio content keeps its base64 data, MIME type and annotations", async () => {
      const { code, stdout } = await runJnHere(["cat", `${base}/mcp?tool=audio`]);
      assert.equal(code, 0);
      const [record] = parseNdjson(stdout) as Rec[];
      assert.equal(record.content_type, "audio");
      assert.equal(record.mimeType, "audio/wav");
      assert.match(String(record.data), /^UklGR/);
      assert.deepEqual(record.annotations, { audience: ["user"] });
    });

    await t.step("progress notifications reset the request timeout", async () => {
      const steady = await runJnHere([
        "cat",
        `${base}/mcp?tool=progress&steps=4&delay_ms=300`,
        "--timeout",
        "700ms",
      ]);
      assert.equal(steady.code, 0, steady.stderr);
      assert.match(String((parseNdjson(steady.stdout)[0] as Rec).text), /done 4 steps/);
      const silent = await runJnHere([
        "cat",
        `${base}/mcp?tool=sleep&ms=1500`,
        "--timeout",
        "700ms",
      ]);
      assert.equal(silent.code, 4);
      assert.match(silent.stderr, /Timed out after 700ms waiting for tools\/call "sleep"/);
    });

    await t.step("a slow server times out with exit 4 and the call is cancelled", async () => {
      const { code, stdout, stderr } = await runJnHere([
        "cat",
        `${base}/slow/mcp?tool=echo&text=x`,
        "--timeout",
        "500ms",
      ]);
      assert.equal(code, 4);
      assert.equal(stdout, "");
      assert.match(stderr, /Timed out after 500ms waiting for tools\/call "echo"/);
      assert.match(server.stderr(), /http fixture: cancelled request \d+/);
    });

    await t.step("a server that closes the stream mid-call fails fast with exit 4", async () => {
      // No request timeout: only noticing the closed stream can end the call (the
      // watchdog kills a jn left hanging, which then fails on its exit code).
      const { code, stderr } = await runJnHere(
        ["cat", `${base}/close/mcp?tool=echo&text=x`, "--timeout", "0"],
        { timeoutMs: 30_000 },
      );
      assert.equal(code, 4);
      assert.match(stderr, /closed the stream of tools\/call "echo" without answering/);
    });

    await t.step("malformed JSON is a protocol error (exit 5)", async () => {
      const { code, stderr } = await runJnHere(["cat", `${base}/badjson/mcp?tool=echo&text=x`]);
      assert.equal(code, 5);
      assert.match(stderr, /sent malformed JSON/);
    });

    await t.step("a 200 with JSON that is not JSON-RPC is one line, exit 5", async () => {
      const { code, stdout, stderr } = await runJnHere([
        "cat",
        `${base}/notrpc/mcp?tool=echo&text=x`,
      ]);
      assert.equal(code, 5, stderr);
      assert.equal(stdout, "");
      const [first, ...rest] = stderr.trimEnd().split("\n");
      assert.match(
        first,
        /^jn: The server at http:\/\/127\.0\.0\.1:\d+\/notrpc\/mcp answered tools\/call "echo" with something that is not MCP: /,
      );
      assert.deepEqual(rest, ["hint: is the URL an MCP endpoint? (often it ends in /mcp or /sse)"]);
    });

    await t.step("a 200 with an HTML page is one line, exit 5", async () => {
      const { code, stderr } = await runJnHere(["cat", `${base}/html/mcp?tool=echo&text=x`]);
      assert.equal(code, 5, stderr);
      const lines = stderr.trimEnd().split("\n");
      assert.match(
        lines[0],
        /^jn: The server "[^"]+\/html\/mcp" answered tools\/call "echo" with an unexpected content type$/,
      );
      assert.equal(lines.length, 2, stderr);
    });

    await t.step("?task=ID on a server without tasks is a usage error, not -32601", async () => {
      const { code, stderr } = await runJnHere(["cat", `${base}/mcp?task=t1`]);
      assert.equal(code, 2, stderr);
      assert.match(stderr, /does not run tasks\nhint: its capabilities lack tasks/);
    });

    await t.step("HTTP 500 is exit 4 with the status and the body's first line", async () => {
      const { code, stderr } = await runJnHere(["inspect", `${base}/status500/mcp`]);
      assert.equal(code, 4);
      assert.match(stderr, /answered initialize with HTTP 500 Internal Server Error: boom/);
    });
  } finally {
    await server.stop();
  }
});

Deno.test("connection failures and cleartext HTTP are explained", async (t) => {
  await t.step("connection refused is exit 4", async () => {
    const { code, stdout, stderr } = await runJnHere([
      "inspect",
      `mcp+http://127.0.0.1:${freePort()}/mcp`,
    ]);
    assert.equal(code, 4);
    assert.equal(stdout, "");
    assert.match(stderr, /Cannot connect to "http:\/\/127\.0\.0\.1:\d+\/mcp": connection refused/);
  });

  await t.step("cleartext http:// to another host needs --allow-http (exit 2)", async () => {
    const refused = await runJnHere(["inspect", "mcp+http://mcp.example.com/mcp"]);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /Refusing cleartext HTTP to "mcp\.example\.com"/);
    assert.match(refused.stderr, /--allow-http/);
    const allowed = await runJnHere(["inspect", "mcp+http://jn-test.invalid/mcp", "--allow-http"]);
    assert.equal(allowed.code, 4);
    assert.doesNotMatch(allowed.stderr, /Refusing/);
  });

  await t.step("remote-only flags on a stdio server are a usage error", async () => {
    const { code, stderr } = await runJnHere([
      "inspect",
      "mcp+node://./tests/fixtures/servers/asker.mjs",
      "--header",
      "X-A: b",
    ]);
    assert.equal(code, 2);
    assert.match(stderr, /--header only apply to remote servers/);
  });

  await t.step("a malformed --header is a usage error", async () => {
    const { code, stderr } = await runJnHere([
      "inspect",
      "mcp+https://h/mcp",
      "--header",
      "nocolon",
    ]);
    assert.equal(code, 2);
    assert.match(stderr, /Invalid --header "nocolon": expected "Name: value"/);
  });
});
