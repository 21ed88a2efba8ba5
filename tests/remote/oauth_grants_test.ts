/**
 * The machine OAuth grants and the authorization-server checks, against a mock written here: one
 * local HTTP server that is an MCP server (the SDK's handler, tool `whoami`), two authorization
 * servers (`/as1`, `/as2`: the resource can move from one to the other) and an enterprise IdP.
 * The mock verifies what a real one would: the `private_key_jwt` assertion's signature and
 * audience, the workload JWT, the ID-JAG exchange, DPoP proofs (with nonce challenges at the
 * token endpoint and at the MCP server) and that no client of one AS is shown to the other.
 *
 * @module
 */

import assert from "node:assert/strict";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";
import { parseNdjson, tempDir } from "../helpers.ts";
import { FAKE_BROWSER, runJnHereAt } from "./support.ts";

type Json = Record<string, unknown>;
const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const P256 = { name: "ECDSA", namedCurve: "P-256" };
const SIGN = { name: "ECDSA", hash: "SHA-256" };

const b64url = (bytes: Uint8Array | ArrayBuffer) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");
const unb64url = (text: string) =>
  Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
const decode = (part: string) => JSON.parse(new TextDecoder().decode(unb64url(part)));

async function signJwt(key: CryptoKey, payload: Json, header: Json = {}): Promise<string> {
  const head = b64url(new TextEncoder().encode(JSON.stringify({ alg: "ES256", ...header })));
  const body = b64url(new TextEncoder().encode(JSON.stringify(payload)));
  const sig = await crypto.subtle.sign(SIGN, key, new TextEncoder().encode(`${head}.${body}`));
  return `${head}.${body}.${b64url(sig)}`;
}

/** The payload of a compact ES256 JWS when `key` (or its header's `jwk`) signed it. */
async function verifyJwt(jwt: string, key?: CryptoKey): Promise<{ header: Json; payload: Json }> {
  const [head, body, sig] = jwt.split(".");
  const header = decode(head);
  key ??= await crypto.subtle.importKey("jwk", header.jwk, P256, false, ["verify"]);
  const ok = await crypto.subtle.verify(
    SIGN,
    key,
    unb64url(sig),
    new TextEncoder().encode(`${head}.${body}`),
  );
  if (!ok) throw new Error("bad signature");
  return { header, payload: decode(body) };
}

async function thumbprint(jwk: Json): Promise<string> {
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  return b64url(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(canonical)));
}

async function sha256(text: string): Promise<string> {
  return b64url(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

interface Token {
  client: string;
  issuer: string;
  jkt?: string;
}

/** The mock: MCP server + two authorization servers + an IdP, on one port. */
async function startMock() {
  const clientKey = await crypto.subtle.generateKey(P256, true, ["sign", "verify"]);
  const workloadKey = await crypto.subtle.generateKey(P256, true, ["sign", "verify"]);
  const pkcs8 = await crypto.subtle.exportKey("pkcs8", clientKey.privateKey);
  const pem = `-----BEGIN PRIVATE KEY-----\n${
    btoa(String.fromCharCode(...new Uint8Array(pkcs8))).replace(/(.{64})/g, "$1\n")
  }\n-----END PRIVATE KEY-----\n`;
  const tokens = new Map<string, Token>();
  const jags = new Set<string>();
  const clients = new Map<string, string>(); // client_id -> issuer it was registered at
  const codes = new Map<string, { client: string; issuer: string }>();
  const log = {
    grants: [] as string[],
    registeredAt: [] as string[],
    crossIssuerClient: false,
    dpopTokenNonce: false,
    dpopResourceNonce: false,
  };
  const nonces = new Set<string>();
  let current = "as1";
  let dpopNonceAtResource: string | undefined;

  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, handle);
  const base = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`;
  const resource = `${base}/mcp`;
  const issuerOf = (as: string) => `${base}/${as}`;
  const mcp = createMcpHandler(() => {
    const mcpServer = new McpServer({ name: "grants-mock", version: "1.0.0" });
    mcpServer.registerTool("whoami", { inputSchema: z.object({}) }, (_args, ctx) => {
      const auth = (ctx as { http?: { authInfo?: { clientId: string } } }).http?.authInfo;
      return { content: [{ type: "text", text: auth?.clientId ?? "" }] };
    });
    return mcpServer;
  });

  const oauthError = (error: string, status = 400, headers: HeadersInit = {}) =>
    Response.json({ error }, { status, headers });

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const path = url.pathname;
    if (path === "/.well-known/oauth-protected-resource/mcp") {
      return Response.json({ resource, authorization_servers: [issuerOf(current)] });
    }
    const as = path.match(/^\/\.well-known\/oauth-authorization-server\/(as[123])$/)?.[1];
    if (as) {
      // as3 is an impostor: its metadata names as1's issuer.
      const issuer = issuerOf(as === "as3" ? "as1" : as);
      return Response.json({
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        registration_endpoint: `${issuer}/register`,
        response_types_supported: ["code"],
        grant_types_supported: ["authorization_code", "client_credentials", JWT_BEARER],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["private_key_jwt", "client_secret_basic", "none"],
        dpop_signing_alg_values_supported: ["ES256"],
      });
    }
    const [, which, action] = path.match(/^\/(as[12])\/(register|authorize|token)$/) ?? [];
    if (which === "as1" || which === "as2") {
      const issuer = issuerOf(which);
      if (action === "register") {
        const id = `${which}-client-${crypto.randomUUID().slice(0, 6)}`;
        clients.set(id, issuer);
        log.registeredAt.push(which);
        return Response.json({ ...(await request.json()), client_id: id }, { status: 201 });
      }
      if (action === "authorize") {
        const client = url.searchParams.get("client_id")!;
        if (clients.get(client) !== issuer) log.crossIssuerClient = true;
        const code = crypto.randomUUID();
        codes.set(code, { client, issuer });
        const back = new URL(url.searchParams.get("redirect_uri")!);
        back.searchParams.set("code", code);
        back.searchParams.set("state", url.searchParams.get("state") ?? "");
        back.searchParams.set("iss", issuer);
        return Response.redirect(back, 302);
      }
      return await token(request, issuer);
    }
    if (path === "/idp/token") return await idpToken(request);
    if (path === "/_log") return Response.json(log);
    if (path === "/_migrate" || path === "/_impostor") {
      current = path === "/_migrate" ? "as2" : "as3";
      return Response.json({ current });
    }
    if (path === "/mcp") return await serveMcp(request);
    return new Response("not found", { status: 404 });
  }

  async function token(request: Request, issuer: string): Promise<Response> {
    const form = new URLSearchParams(await request.text());
    const grant = form.get("grant_type") ?? "";
    log.grants.push(grant);
    let client: string | undefined;
    const assertionType = form.get("client_assertion_type");
    const basic = request.headers.get("authorization")?.match(/^Basic (.+)$/)?.[1];
    if (assertionType) {
      // private_key_jwt: signed by the client's key, for this issuer.
      const { payload } = await verifyJwt(form.get("client_assertion")!, clientKey.publicKey)
        .catch(() => ({ payload: {} as Json }));
      if (payload.aud !== issuer || payload.iss !== "svc-jwt" || payload.sub !== "svc-jwt") {
        return oauthError("invalid_client", 401);
      }
      client = "svc-jwt";
    } else if (basic) {
      const [id, secret] = atob(basic).split(":");
      if (id !== "xaa-client" || secret !== "xaa-secret") return oauthError("invalid_client", 401);
      client = id;
    } else {
      client = form.get("client_id") ?? undefined;
    }
    if (grant === "authorization_code") {
      const code = codes.get(form.get("code") ?? "");
      if (!code || code.issuer !== issuer || code.client !== client) {
        return oauthError("invalid_grant");
      }
      if (clients.get(client!) !== issuer) log.crossIssuerClient = true;
    } else if (grant === "client_credentials") {
      if (client !== "svc-jwt") return oauthError("unauthorized_client");
    } else if (grant === JWT_BEARER) {
      const assertion = form.get("assertion") ?? "";
      if (jags.has(assertion)) {
        if (client !== "xaa-client") return oauthError("invalid_client", 401);
      } else {
        const { payload } = await verifyJwt(assertion, workloadKey.publicKey)
          .catch(() => ({ payload: {} as Json }));
        if (payload.aud !== issuer || payload.sub !== "workload-1") {
          return oauthError("invalid_grant");
        }
        client = String(payload.sub);
      }
    } else return oauthError("unsupported_grant_type");
    // DPoP at the token endpoint: a nonce challenge first, then a bound token.
    let jkt: string | undefined;
    const proof = request.headers.get("dpop");
    if (proof) {
      const { header, payload } = await verifyJwt(proof);
      if (payload.htm !== "POST" || payload.htu !== `${issuer}/token`) {
        return oauthError("invalid_dpop_proof");
      }
      if (!nonces.has(String(payload.nonce))) {
        const nonce = crypto.randomUUID();
        nonces.add(nonce);
        return oauthError("use_dpop_nonce", 400, { "dpop-nonce": nonce });
      }
      log.dpopTokenNonce = true;
      jkt = await thumbprint(header.jwk as Json);
    }
    const access = `at-${crypto.randomUUID()}`;
    tokens.set(access, { client: client!, issuer, jkt });
    return Response.json({
      access_token: access,
      token_type: jkt ? "DPoP" : "Bearer",
      expires_in: 3600,
    });
  }

  async function idpToken(request: Request): Promise<Response> {
    const form = new URLSearchParams(await request.text());
    const ok = form.get("grant_type") === "urn:ietf:params:oauth:grant-type:token-exchange" &&
      form.get("subject_token") === "id-token-of-alice" &&
      form.get("requested_token_type") === "urn:ietf:params:oauth:token-type:id-jag" &&
      form.get("audience") === issuerOf(current) && form.get("resource") === resource &&
      form.get("client_id") === "jn-at-idp";
    if (!ok) return oauthError("invalid_request");
    const jag = `jag-${crypto.randomUUID()}`;
    jags.add(jag);
    return Response.json({
      access_token: jag,
      issued_token_type: "urn:ietf:params:oauth:token-type:id-jag",
      token_type: "N_A",
    });
  }

  async function serveMcp(request: Request): Promise<Response> {
    const challenge = (extra = "") =>
      new Response("unauthorized", {
        status: 401,
        headers: {
          "www-authenticate":
            `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"${extra}`,
        },
      });
    const [, scheme, value] = request.headers.get("authorization")?.match(/^(Bearer|DPoP) (.+)$/) ??
      [];
    const token = value ? tokens.get(value) : undefined;
    if (!token || token.issuer !== issuerOf(current)) {
      return challenge(value ? `, error="invalid_token"` : "");
    }
    if (token.jkt) {
      const proof = request.headers.get("dpop");
      if (scheme !== "DPoP" || !proof) return challenge(`, error="invalid_token"`);
      const { header, payload } = await verifyJwt(proof);
      if (
        await thumbprint(header.jwk as Json) !== token.jkt || payload.ath !== await sha256(value) ||
        payload.htu !== resource || payload.htm !== request.method
      ) return challenge(`, error="invalid_token"`);
      if (payload.nonce !== dpopNonceAtResource) {
        dpopNonceAtResource = crypto.randomUUID();
        return new Response("nonce", {
          status: 401,
          headers: {
            "www-authenticate": `DPoP error="use_dpop_nonce"`,
            "dpop-nonce": dpopNonceAtResource,
          },
        });
      }
      log.dpopResourceNonce = true;
    } else if (scheme !== "Bearer") return challenge(`, error="invalid_token"`);
    return await mcp.fetch(request, {
      authInfo: { token: value, clientId: token.client, scopes: [] },
    });
  }

  const workloadJwt = (aud: string) =>
    signJwt(workloadKey.privateKey, {
      iss: "https://workload.example",
      sub: "workload-1",
      aud,
      exp: Math.floor(Date.now() / 1000) + 600,
    });
  return {
    base,
    resource,
    pem,
    issuerOf,
    workloadJwt,
    log: async () => await (await fetch(`${base}/_log`)).json(),
    migrate: async () => await (await fetch(`${base}/_migrate`)).body?.cancel(),
    impostor: async () => await (await fetch(`${base}/_impostor`)).body?.cancel(),
    stop: () => server.shutdown(),
  };
}

Deno.test("OAuth machine grants, DPoP and authorization-server migration", async (t) => {
  const mock = await startMock();
  const mcp = mock.resource;
  const homes: string[] = [];
  const home = async () => {
    homes.push(await tempDir());
    return homes.at(-1)!;
  };
  const whoami = async (at: string, env: Record<string, string> = {}) => {
    const run = await runJnHereAt(at, ["cat", `mcp+${mcp}?tool=whoami`], { env });
    assert.equal(run.code, 0, run.stderr);
    return String((parseNdjson(run.stdout)[0] as Json).text);
  };
  try {
    await t.step("client credentials with private_key_jwt (key from a file)", async () => {
      const at = await home();
      await Deno.writeTextFile(`${at}/key.pem`, mock.pem);
      const login = await runJnHereAt(at, [
        "auth",
        "login",
        mcp,
        "--client-credentials",
        "--client-id",
        "svc-jwt",
        "--private-key",
        "key.pem",
      ], { cwd: at });
      assert.equal(login.code, 0, login.stderr);
      assert.equal(await whoami(at), "svc-jwt");
      const record = await Deno.readTextFile(
        `${at}/.local/jn/auth/${
          (await Array.fromAsync(Deno.readDir(`${at}/.local/jn/auth`)))[0].name
        }`,
      );
      assert.ok(!record.includes("PRIVATE KEY"), "the key itself is never stored");
      const status = await runJnHereAt(at, ["auth", "status", mcp]);
      assert.match(status.stdout, /signed in: yes \(client credentials\)/);
      assert.match(status.stdout, new RegExp(`uses: {6}private key from file ${at}/key.pem`));
      assert.match(status.stdout, /renewable: yes/);
    });

    await t.step("a key that is not PKCS#8 is exit 3 naming the fix", async () => {
      const at = await home();
      const login = await runJnHereAt(at, [
        "auth",
        "login",
        mcp,
        "--client-credentials",
        "--client-id",
        "svc-jwt",
        "--private-key-env",
        "KEY",
      ], { env: { KEY: "not a key" } });
      assert.equal(login.code, 3, login.stderr);
      assert.match(login.stderr, /not a PKCS#8 PEM key/);
      assert.doesNotMatch(login.stderr, /not a key/);
    });

    await t.step("workload identity: the JWT-bearer grant, JWT from the environment", async () => {
      const at = await home();
      const env = { WORKLOAD_JWT: await mock.workloadJwt(mock.issuerOf("as1")) };
      const login = await runJnHereAt(at, [
        "auth",
        "login",
        mcp,
        "--client-id",
        "workload-1",
        "--assertion-env",
        "WORKLOAD_JWT",
      ], { env });
      assert.equal(login.code, 0, login.stderr);
      assert.ok(!login.stderr.includes(env.WORKLOAD_JWT), "the JWT is never printed");
      assert.equal(await whoami(at, env), "workload-1");
      assert.ok((await mock.log()).grants.includes(JWT_BEARER));
      const status = await runJnHereAt(at, ["auth", "status", mcp]);
      assert.match(status.stdout, /uses: {6}workload JWT from \$WORKLOAD_JWT/);
    });

    await t.step("a workload JWT for another audience is refused, exit 4", async () => {
      const at = await home();
      const env = { WORKLOAD_JWT: await mock.workloadJwt("https://elsewhere.example") };
      const login = await runJnHereAt(at, [
        "auth",
        "login",
        mcp,
        "--client-id",
        "workload-1",
        "--assertion-env",
        "WORKLOAD_JWT",
      ], { env });
      assert.equal(login.code, 4, login.stderr);
      assert.match(login.stderr, /Authorization failed: invalid_grant/);
    });

    await t.step("cross-app access: ID token -> ID-JAG at the IdP -> token", async () => {
      const at = await home();
      const env = { ID_TOKEN: "id-token-of-alice", XAA_SECRET: "xaa-secret" };
      const login = await runJnHereAt(at, [
        "auth",
        "login",
        mcp,
        "--client-id",
        "xaa-client",
        "--client-secret-env",
        "XAA_SECRET",
        "--idp-token-endpoint",
        `${mock.base}/idp/token`,
        "--idp-client-id",
        "jn-at-idp",
        "--id-token-env",
        "ID_TOKEN",
      ], { env });
      assert.equal(login.code, 0, login.stderr);
      assert.equal(await whoami(at, env), "xaa-client");
      const status = await runJnHereAt(at, ["auth", "status", mcp]);
      assert.match(status.stdout, /cross-app access/);
    });

    await t.step("cross-app access without an ID token is a usage error", async () => {
      const login = await runJnHereAt(await home(), [
        "auth",
        "login",
        mcp,
        "--client-id",
        "xaa-client",
        "--idp",
        mock.base,
        "--idp-client-id",
        "jn-at-idp",
      ]);
      assert.equal(login.code, 2);
      assert.match(login.stderr, /Cross-app access needs --id-token/);
    });

    await t.step("DPoP: nonce at the token endpoint and at the server, key kept", async () => {
      const at = await home();
      const env = { JN_BROWSER: FAKE_BROWSER };
      const login = await runJnHereAt(at, ["auth", "login", mcp, "--dpop"], { env });
      assert.equal(login.code, 0, login.stderr);
      // A second run presents the stored token with the stored key.
      assert.match(await whoami(at), /^as1-client-/);
      const log = await mock.log();
      assert.equal(log.dpopTokenNonce, true);
      assert.equal(log.dpopResourceNonce, true);
      const status = await runJnHereAt(at, ["auth", "status", mcp]);
      assert.match(status.stdout, /browser sign-in, DPoP/);
    });

    await t.step("migration: the resource moves to another AS; jn registers there", async () => {
      const at = await home();
      const env = { JN_BROWSER: FAKE_BROWSER };
      const login = await runJnHereAt(at, ["auth", "login", mcp], { env });
      assert.equal(login.code, 0, login.stderr);
      await mock.migrate();
      assert.match(await whoami(at, env), /^as2-client-/);
      const log = await mock.log();
      assert.equal(log.registeredAt.at(-1), "as2");
      assert.equal(log.crossIssuerClient, false, "no AS1 client was shown to AS2");
    });

    await t.step("an issuer mismatch is exit 4 naming both issuers", async () => {
      await mock.impostor();
      const login = await runJnHereAt(await home(), ["auth", "login", mcp], {
        env: { JN_BROWSER: FAKE_BROWSER },
      });
      assert.equal(login.code, 4, login.stderr);
      assert.match(
        login.stderr,
        new RegExp(
          `names the issuer "${mock.issuerOf("as1")}", but it was looked up as "${
            mock.issuerOf("as3")
          }"`,
        ),
      );
      assert.match(login.stderr, /hint: this can be an attack/);
    });
  } finally {
    await mock.stop();
    for (const dir of homes) await Deno.remove(dir, { recursive: true });
  }
});
