#!/usr/bin/env bash
# jn as a client under test of the official MCP conformance suite
# (@modelcontextprotocol/conformance, "client" mode). `deno task conformance`
# (scripts/conformance.ts) runs every scenario of the pinned versions through it.
#
#   deno run -A npm:@modelcontextprotocol/conformance@0.2.0-alpha.12 client \
#     --command scripts/conformance_adapter.sh --scenario initialize
#
# Contract (the runner's): the server URL is the last argument;
# MCP_CONFORMANCE_SCENARIO names the scenario; MCP_CONFORMANCE_CONTEXT (JSON,
# optional) carries scenario data: credentials for the auth scenarios, and
# `toolCalls` ([{name, arguments}]) when a scenario wants particular calls.
#
# The adapter drives jn the way a user would, and does only what the scenario
# asks: it signs in when the scenario is an auth one (`jn auth login` with the
# grant the context's credentials are for; a headless "browser" follows the
# authorization redirect to jn's loopback receiver), then
#   - with context toolCalls: exactly those calls, with those arguments;
#   - json-schema-ref-no-deref, request-metadata: lists the tools only;
#   - sep-2322-client-request-state: calls each of its four tools once;
#   - json-schema-2020-12-preservation: echoes the focal tool's input schema,
#     as listed, to json_schema_echo;
#   - sep-2640-client-no-prefetch: lists the server's skills, reads none;
#   - sep-2640-client-verify-*: lists the skills and fetches the first one into
#     a scratch directory (a refusal, exit 5, is jn doing its job);
#   - otherwise: lists the tools and calls the first one, with arguments built
#     from its schema's required properties (the reference client's behaviour).
# Credentials reach jn through environment variables (never argv). Exit 0 when
# every jn run succeeded (a tool answering isError, exit 1, counts as success).
#
# Environment: JN (the command that runs jn; default: deno run from this
# repository with jn's permission set), JN_ADAPTER_KEEP=1 keeps the private
# HOME it uses for auth state. Needs bash, curl and python3.
set -euo pipefail

url="${*: -1}"
scenario="${MCP_CONFORMANCE_SCENARIO:-}"
context="${MCP_CONFORMANCE_CONTEXT:-}"
[[ -n "$context" ]] || context='{}'
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

if [[ -z "${JN:-}" ]]; then
  perms="--allow-read --allow-write --allow-env --allow-run --allow-net"
  perms+=" --allow-sys=homedir,hostname,osRelease,uid,gid --no-prompt"
  JN="deno run $perms --config $root/deno.json $root/main.ts"
fi

# Auth state lives in a private HOME; the Deno cache stays where it is.
export DENO_DIR="${DENO_DIR:-$(deno info --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["denoDir"])')}"
home="$(mktemp -d)"
[[ "${JN_ADAPTER_KEEP:-}" == 1 ]] || trap 'rm -rf "$home"' EXIT
export HOME="$home"

# A headless browser: follow the authorization redirect to jn's loopback port.
browser="$home/browser.sh"
printf '#!/bin/sh\nexec curl -s -L -o /dev/null "$1"\n' > "$browser"
chmod +x "$browser"
export JN_BROWSER="$browser"

ctx() { python3 -c 'import json,sys; print(json.loads(sys.argv[1]).get(sys.argv[2], ""))' "$context" "$1"; }
jn() { echo "+ jn $*" >&2; $JN "$@"; }
# 1 = the tool answered isError: jn itself did its job.
call() { local code=0; jn cat "$source?tool=$1" --args "$2" --elicit accept-defaults || code=$?; [[ $code -eq 0 || $code -eq 1 ]] || return "$code"; }

case "$scenario" in
  auth/client-credentials-basic)
    export JN_CONF_SECRET="$(ctx client_secret)"
    jn auth login "$url" --client-credentials --client-id "$(ctx client_id)" \
      --client-secret-env JN_CONF_SECRET
    ;;
  auth/client-credentials-jwt)
    export JN_CONF_KEY="$(ctx private_key_pem)"
    alg="$(ctx signing_algorithm)"
    jn auth login "$url" --client-credentials --client-id "$(ctx client_id)" \
      --private-key-env JN_CONF_KEY ${alg:+--signing-alg "$alg"}
    ;;
  auth/pre-registration)
    export JN_CONF_SECRET="$(ctx client_secret)"
    jn auth login "$url" --client-id "$(ctx client_id)" --client-secret-env JN_CONF_SECRET
    ;;
  auth/cross-app-access* | auth/enterprise-managed-authorization)
    export JN_CONF_SECRET="$(ctx client_secret)" JN_CONF_ID_TOKEN="$(ctx idp_id_token)"
    jn auth login "$url" --client-id "$(ctx client_id)" --client-secret-env JN_CONF_SECRET \
      --idp-token-endpoint "$(ctx idp_token_endpoint)" --idp-client-id "$(ctx idp_client_id)" \
      --id-token-env JN_CONF_ID_TOKEN
    ;;
  auth/wif-jwt-bearer)
    export JN_CONF_JWT="$(ctx valid_jwt)"
    jn auth login "$url" --client-id "$(ctx client_id)" --assertion-env JN_CONF_JWT
    ;;
  auth/dpop | auth/dpop-nonce)
    jn auth login "$url" --dpop --client-metadata-url "https://conformance-test.local/client-metadata.json"
    ;;
  auth/*)
    jn auth login "$url" --client-metadata-url "https://conformance-test.local/client-metadata.json"
    ;;
esac

source="mcp+$url"

# The calls the context asks for, exactly.
calls="$(python3 -c '
import json, sys
for c in json.loads(sys.argv[1]).get("toolCalls") or []:
    print(c["name"] + "\t" + json.dumps(c.get("arguments") or {}))
' "$context")"
if [[ -n "$calls" ]]; then
  while IFS=$'\t' read -r name args; do call "$name" "$args"; done <<< "$calls"
  exit 0
fi

# A skill fetch refused for a file that differs from the listing (5) is jn doing its job.
skills() { local code=0; echo "+ jn skills $*" >&2; $JN skills "$@" || code=$?; [[ $code -eq 0 || $code -eq 5 ]] || return "$code"; }

case "$scenario" in
  sep-2640-client-no-prefetch)
    skills "$source" > /dev/null
    ;;
  sep-2640-client-verify-*)
    listed="$(skills "$source")"
    name="$(python3 -c 'import json,sys; print(json.loads(sys.argv[1].splitlines()[0])["name"])' "$listed")"
    skills "$source" "$name" --out "$home/skills" > /dev/null
    ;;
  json-schema-ref-no-deref | request-metadata)
    jn cat "$source?list=tools" > /dev/null
    ;;
  sep-2322-client-request-state)
    # Its four tools, one call each: two ask for input (one with request state), one is called
    # in between (state must not leak into it), one answers without a resultType.
    for name in test_mrtr_echo_state test_mrtr_unrelated test_mrtr_no_state test_mrtr_no_result_type; do
      call "$name" '{}'
    done
    ;;
  json-schema-2020-12-preservation)
    tools="$(jn cat "$source?list=tools")"
    args="$(python3 -c '
import json, sys
for line in sys.argv[1].splitlines():
    tool = json.loads(line)
    if tool["name"] == "json_schema_2020_12_tool":
        print(json.dumps({"schema": tool.get("inputSchema")}))
' "$tools")"
    [[ -n "$args" ]] || { echo "conformance_adapter: json_schema_2020_12_tool not listed" >&2; exit 1; }
    call json_schema_echo "$args"
    ;;
  *)
    tools="$(jn cat "$source?list=tools")"
    first="$(python3 - "$tools" <<'PY'
import json, sys
SAMPLE = {"integer": 1, "number": 1, "boolean": True, "string": "test", "array": [], "object": {}}
for line in sys.argv[1].splitlines():
    tool = json.loads(line)
    schema = tool.get("inputSchema") or {}
    props = schema.get("properties") or {}
    args = {k: SAMPLE.get((props.get(k) or {}).get("type"), "test") for k in schema.get("required") or []}
    print(f"{tool['name']}\t{json.dumps(args)}")
    break
PY
)"
    if [[ -n "$first" ]]; then call "${first%%$'\t'*}" "${first#*$'\t'}"; fi
    ;;
esac
