#!/usr/bin/env bash
# jn as a client under test of the official MCP conformance suite
# (@modelcontextprotocol/conformance, "client" mode).
#
#   npx @modelcontextprotocol/conformance client \
#     --command "scripts/conformance_adapter.sh" --scenario initialize
#
# Contract: the server URL is the last argument; MCP_CONFORMANCE_SCENARIO names
# the scenario; MCP_CONFORMANCE_CONTEXT (JSON) carries scenario data such as
# pre-registered client credentials. The adapter drives jn the way a user
# would: it signs in when the scenario needs it (`jn auth login`, a headless
# "browser" that follows the authorization redirect to jn's loopback
# receiver), lists the tools and calls each one with arguments built from its
# schema. Exit 0 when every jn run succeeded.
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
  JN="deno run $perms $root/main.ts"
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

case "$scenario" in
  auth/client-credentials-basic)
    jn auth login "$url" --client-credentials --client-id "$(ctx client_id)" \
      --client-secret "$(ctx client_secret)"
    ;;
  auth/pre-registration)
    jn auth login "$url" --client-id "$(ctx client_id)" --client-secret "$(ctx client_secret)"
    ;;
  auth/client-credentials-jwt | auth/cross-app-access* | auth/enterprise-managed*)
    echo "conformance_adapter: $scenario is not supported by jn (no private_key_jwt / ID-JAG)" >&2
    exit 2
    ;;
  auth/*)
    jn auth login "$url" --client-metadata-url "https://conformance-test.local/client-metadata.json"
    ;;
esac

source="mcp+$url"
tools="$(jn cat "$source?list=tools")"

# One call per tool, with arguments built from its input schema.
status=0
while IFS=$'\t' read -r name args; do
  [[ -n "$name" ]] || continue
  code=0
  jn cat "$source?tool=$name" --args "$args" --elicit accept-defaults || code=$?
  # 1 = the tool answered isError: jn itself did its job.
  if [[ $code -ne 0 && $code -ne 1 ]]; then status=$code; fi
done < <(python3 - "$tools" <<'PY'
import json, sys
SAMPLE = {"integer": 1, "number": 1, "boolean": True, "string": "test", "array": [], "object": {}}
for line in sys.argv[1].splitlines():
    tool = json.loads(line)
    schema = tool.get("inputSchema") or {}
    props = schema.get("properties") or {}
    args = {k: SAMPLE.get((props.get(k) or {}).get("type"), "test") for k in schema.get("required") or []}
    print(f"{tool['name']}\t{json.dumps(args)}")
PY
)
exit "$status"
