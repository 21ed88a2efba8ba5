/**
 * The OAuth paths against a hostile resource server and authorization
 * server (a mock written here, one port): what the servers send back is
 * untrusted, and what jn holds — the workload assertion, the client secret,
 * the ID token, the tokens, the DPoP proofs — never reaches stderr, not in
 * an error, not with `--debug`.
 *
 * - the token endpoint echoes the credentials it got in `error_description`
 *   (with control characters, and at length);
 * - the resource server answers every request with a `use_dpop_nonce`
 *   challenge whose nonce is huge or holds characters RFC 9449 does not
 *   allow (jn must not loop, nor sign such a nonce into its proofs);
 * - the resource server echoes the `Authorization` and `DPoP` headers it got
 *   in a JSON-RPC error.
 *
 * @module
 */

import assert from "node:assert/strict";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";
import { call, open } from "../../mod.ts";
import { tempDir } from "../helpers.ts";
import { runJnAt } from "../remote/support.ts";

const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const ASSERTION =
  "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ3b3JrbG9hZC1zZWNyZXQtYXNzZXJ0aW9uIn0.c2lnbmF0dXJl";
const CLIENT_SECRET = "client-secret-value-0123456789";

type Mode = {
  /** The token endpoint's answer: `echo` (an error quoting what it got) or `issue`. */
  token: "echo" | "issue";
  /** The resource server: `nonce` (always a nonce challenge), `echo` (headers in an error), `serve`. */
  resource: "nonce" | "echo" | "serve";
  /** The nonce of the challenges. */
  nonce: string;
  /** The scope of the tokens it issues. */
  scope: string;
};

function startHostile() {
  const mode: Mode = { token: "issue", resource: "serve", nonce: "n", scope: "mcp" };
  const seen = { resourceRequests: 0, tokenRequests: 0, proofNonces: [] as unknown[] };
  const tokens = new Set<string>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, handle);
  const base = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`;
  const resource = `${base}/mcp`;
  const mcp = createMcpHandler(() => {
    const s = new McpServer({ name: "hostile", version: "1.0.0" });
    s.registerTool("whoami", { inputSchema: z.object({}) }, () => ({
      content: [{ type: "text", text: "you" }],
    }));
    return s;
  });

  const proofNonce = (proof: string | null) => {
    if (!proof) return undefined;
    const body = proof.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
    return JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(body), (c) => c.charCodeAt(0))))
      .nonce;
  };

  async function handle(request: Request): Promise<Response> {
    const path = new URL(request.url).pathname;
    if (path === "/.well-known/oauth-protected-resource/mcp") {
      return Response.json({ resource, authorization_servers: [base] });
    }
    if (path === "/.well-known/oauth-authorization-server") {
      return Response.json({
        issuer: base,
        authorization_endpoint: `${base}/authorize`,
        token_endpoint: `${base}/token`,
        response_types_supported: ["code"],
        grant_types_supported: ["client_credentials", JWT_BEARER],
        token_endpoint_auth_methods_supported: [
          "client_secret_basic",
          "client_secret_post",
          "none",
        ],
        dpop_signing_alg_values_supported: ["ES256"],
      });
    }
    if (path === "/token") return await token(request);
    if (path === "/mcp") return await serveMcp(request);
    return new Response("not found", { status: 404 });
  }

  async function token(request: Request): Promise<Response> {
    seen.tokenRequests++;
    const form = new URLSearchParams(await request.text());
    if (mode.token === "echo") {
      // Everything it got, quoted back: a hostile or careless authorization server.
      const got = [
        form.get("assertion"),
        form.get("client_secret"),
        request.headers.get("authorization"),
        request.headers.get("dpop"),
      ].join(" ");
      return Response.json({
        error: "invalid_grant",
        error_description: `rejected ${got} \x1b]0;owned\x07\x1b[2J${"!".repeat(5000)}`,
      }, { status: 400 });
    }
    const access = `at-${crypto.randomUUID()}`;
    tokens.add(access);
    const bound = request.headers.has("dpop");
    return Response.json({
      access_token: access,
      token_type: bound ? "DPoP" : "Bearer",
      expires_in: 3600,
      scope: mode.scope,
    });
  }

  async function serveMcp(request: Request): Promise<Response> {
    seen.resourceRequests++;
    const auth = request.headers.get("authorization") ?? "";
    const value = auth.replace(/^(Bearer|DPoP) /, "");
    if (!tokens.has(value)) {
      return new Response("unauthorized", {
        status: 401,
        headers: {
          "www-authenticate":
            `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
        },
      });
    }
    const proof = request.headers.get("dpop");
    seen.proofNonces.push(proofNonce(proof));
    if (mode.resource === "nonce") {
      return new Response("nonce", {
        status: 401,
        headers: { "www-authenticate": `DPoP error="use_dpop_nonce"`, "dpop-nonce": mode.nonce },
      });
    }
    const body = await request.clone().json().catch(() => ({}));
    if (mode.resource === "echo" && body?.method === "tools/call") {
      return Response.json({
        jsonrpc: "2.0",
        id: body.id,
        error: { code: -32603, message: `refused ${auth} with proof ${proof}` },
      });
    }
    return await mcp.fetch(request, { authInfo: { token: value, clientId: "c", scopes: [] } });
  }

  return { base, resource, mode, seen, tokens, stop: () => server.shutdown() };
}

/** Nothing jn holds appears in `text`, in any form a leak would take. */
function assertNoSecret(text: string, secrets: Iterable<string>) {
  for (const secret of secrets) {
    assert.ok(!text.includes(secret), `a secret reached stderr: ${secret.slice(0, 12)}…`);
    assert.ok(!text.includes(encodeURIComponent(secret)), "a URL-encoded secret reached stderr");
  }
  assert.doesNotMatch(text, /DPoP ey|"dpop": ?"ey|Bearer at-|Basic [A-Za-z0-9+/=]{8}/);
  // The start of every DPoP proof jn signs: {"alg":"ES256","typ":"dpop+jwt",…
  assert.doesNotMatch(text, /eyJhbGciOiJFUzI1NiIsInR5cCI6ImRwb3Arand0/, "a DPoP proof");
  assert.ok(!text.includes("\x1b"), "a raw escape reached stderr");
}

Deno.test("hostile OAuth servers: no secret on stderr, no loop, bounded lines", async (t) => {
  const mock = startHostile();
  const homes: string[] = [];
  const home = async () => {
    homes.push(await tempDir());
    return homes.at(-1)!;
  };
  const env = { WORKLOAD_JWT: ASSERTION, SECRET: CLIENT_SECRET };
  /** `jn auth login` of the workload client (its assertion in WORKLOAD_JWT), HOME at `at`. */
  const workloadLogin = (
    at: string,
    options: { dpop: boolean; flags?: string[]; timeoutMs?: number },
  ) =>
    runJnAt(at, [
      ...options.flags ?? [],
      "auth",
      "login",
      mock.resource,
      "--client-id",
      "workload-1",
      "--assertion-env",
      "WORKLOAD_JWT",
      ...options.dpop ? ["--dpop"] : [],
    ], options.timeoutMs === undefined ? { env } : { env, timeoutMs: options.timeoutMs });
  try {
    for (const debug of [false, true]) {
      const flags = debug ? ["--debug"] : [];
      await t.step(
        `the token endpoint echoes the assertion${debug ? " (--debug)" : ""}`,
        async () => {
          mock.mode.token = "echo";
          const login = await workloadLogin(await home(), { dpop: true, flags });
          assert.equal(login.code, 4, login.stderr);
          assertNoSecret(login.stderr, [ASSERTION]);
          const error = login.stderr.split("\n").find((line) =>
            line.startsWith("jn: Authorization")
          );
          assert.ok(error, login.stderr);
          assert.match(error, /^jn: Authorization failed: invalid_grant: rejected \*\*\*/);
          assert.ok(error.length < 600, `an error line of ${error.length} characters`);
        },
      );

      await t.step(
        `the token endpoint echoes the client secret${debug ? " (--debug)" : ""}`,
        async () => {
          mock.mode.token = "echo";
          const login = await runJnAt(await home(), [
            ...flags,
            "auth",
            "login",
            mock.resource,
            "--client-credentials",
            "--client-id",
            "svc",
            "--client-secret-env",
            "SECRET",
          ], { env });
          assert.equal(login.code, 4, login.stderr);
          assertNoSecret(login.stderr, [CLIENT_SECRET, btoa(`svc:${CLIENT_SECRET}`)]);
        },
      );
    }

    const nonces: [string, string][] = [
      ["a huge nonce", "n".repeat(4_000)],
      ["a nonce RFC 9449 does not allow", 'a"b\\c d'],
    ];
    for (const [what, nonce] of nonces) {
      await t.step(
        `the server answers every request with ${what}: bounded, never signed`,
        async () => {
          mock.mode.token = "issue";
          mock.mode.resource = "nonce";
          mock.mode.nonce = nonce;
          mock.seen.resourceRequests = 0;
          mock.seen.proofNonces = [];
          const at = await home();
          const login = await workloadLogin(at, {
            dpop: true,
            flags: ["--debug"],
            timeoutMs: 60_000,
          });
          assert.equal(login.code, 4, login.stderr);
          assert.ok(
            mock.seen.resourceRequests <= 8,
            `${mock.seen.resourceRequests} requests for one login`,
          );
          assert.ok(
            mock.seen.proofNonces.every((sent) => sent === undefined),
            "the server's nonce was signed into a proof",
          );
          assert.ok(!login.stderr.includes(nonce.slice(0, 64)), "the nonce reached stderr");
          assert.match(login.stderr, /keeps refusing the DPoP proof with a nonce challenge/);
          assertNoSecret(login.stderr, [ASSERTION, ...mock.tokens]);
          assert.ok(login.stderr.length < 8000, `${login.stderr.length} characters of stderr`);
        },
      );
    }

    await t.step("a valid nonce is still used (the filter keeps RFC 9449 nonces)", async () => {
      mock.mode.resource = "serve";
      mock.seen.proofNonces = [];
      const at = await home();
      const login = await workloadLogin(at, { dpop: true });
      assert.equal(login.code, 0, login.stderr);
      mock.mode.resource = "nonce";
      mock.mode.nonce = "fresh-Nonce_123.~";
      mock.seen.proofNonces = [];
      const run = await runJnAt(at, ["cat", `mcp+${mock.resource}?tool=whoami`], { env });
      assert.notEqual(run.code, 0);
      assert.ok(mock.seen.proofNonces.includes("fresh-Nonce_123.~"), "a valid nonce was dropped");
    });

    await t.step(
      "jn auth status shows the server's scope with its escapes made visible",
      async () => {
        mock.mode.token = "issue";
        mock.mode.resource = "serve";
        mock.mode.scope = "mcp \x1b]52;c;cHduZWQ=\x07\x1b[2J";
        const at = await home();
        const login = await workloadLogin(at, { dpop: false });
        mock.mode.scope = "mcp";
        assert.equal(login.code, 0, login.stderr);
        assert.ok(!login.stderr.includes("\x1b"), login.stderr);
        const status = await runJnAt(at, ["auth", "status", mock.resource]);
        assert.equal(status.code, 0, status.stderr);
        assert.ok(!status.stdout.includes("\x1b"), "a raw escape from the server reached stdout");
        assert.match(status.stdout, /scopes: {4}mcp \\x1b\]52;c;cHduZWQ=\\x07\\x1b\[2J\n/);
      },
    );

    await t.step(
      "a long DPoP session: one proof per request, a short list of secrets",
      async () => {
        mock.mode.token = "issue";
        mock.mode.resource = "serve";
        const at = await home();
        const login = await workloadLogin(at, { dpop: true });
        assert.equal(login.code, 0, login.stderr);
        const conn = await open(`mcp+${mock.resource}`, { cwd: at, env: { HOME: at, ...env } });
        try {
          for (let i = 0; i < 40; i++) await call(conn, "whoami", {});
          assert.ok(conn.secrets.length <= 16, `${conn.secrets.length} secrets after 40 calls`);
          assert.ok(
            conn.secrets.includes(ASSERTION) || conn.secrets.some((s) => s.startsWith("at-")),
          );
        } finally {
          await conn.close();
        }
      },
    );

    await t.step("the server echoes the Authorization and DPoP headers: redacted", async () => {
      mock.mode.resource = "serve";
      const at = await home();
      const login = await workloadLogin(at, { dpop: true });
      assert.equal(login.code, 0, login.stderr);
      mock.mode.resource = "echo";
      for (const flags of [[], ["--debug"]]) {
        const run = await runJnAt(at, [...flags, "cat", `mcp+${mock.resource}?tool=whoami`], {
          env,
        });
        assert.equal(run.code, 5, run.stderr);
        assert.match(run.stderr, /refused \*\*\* with proof \*\*\*/);
        assertNoSecret(run.stderr, [ASSERTION, ...mock.tokens]);
      }
    });
  } finally {
    await mock.stop();
    for (const dir of homes) await Deno.remove(dir, { recursive: true });
  }
});
