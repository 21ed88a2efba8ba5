/**
 * lib/session/oauth_secrets.ts: a credential it cannot decode must not cost
 * the others their redaction.
 */
import assert from "node:assert/strict";
import { noting } from "../../lib/session/oauth_secrets.ts";

Deno.test("a Basic client secret with a bare % does not stop the form's credentials from being noted", async () => {
  // The SDK sends `btoa(id:secret)` as it is (no form-encoding): a secret may hold any `%`.
  const secret = "s3cr%t-100%";
  const noted: string[] = [];
  const fetchFn = noting(() => Promise.resolve(new Response("ok")), (value) => {
    if (value !== "") noted.push(value);
  });
  const body = new URLSearchParams({
    grant_type: "authorization_code",
    code: "code-0123456789",
    code_verifier: "verifier-0123456789abcdef",
  });
  await fetchFn("https://as.example/token", {
    method: "POST",
    headers: { authorization: `Basic ${btoa(`client:${secret}`)}` },
    body,
  });
  assert.ok(noted.includes(secret), "the client secret");
  assert.ok(noted.includes("code-0123456789"), "the authorization code");
  assert.ok(noted.includes("verifier-0123456789abcdef"), "the code verifier");
});
