#!/bin/bash
# The benchmark's reference one-shot client in bash: the same three JSON-RPC
# lines as raw_client.ts (initialize; initialized + one request), through a
# coprocess. Prints the response line to the request, closes the server's
# stdin and waits for it.
#
# Usage: raw_client.sh list|call[=KEY] -- SERVER ARGV…   (call: echo {KEY: "hi"})
mode=$1
shift 2
if [ "$mode" = list ]; then
  request='{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}'
else
  key=${mode#call=}
  [ "$key" = "$mode" ] && key=text
  request='{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"'$key'":"hi"}}}'
fi
coproc SERVER { exec "$@"; }
printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw-bash","version":"1.0.0"}}}' >&"${SERVER[1]}"
while IFS= read -r line <&"${SERVER[0]}"; do [[ $line == *'"id":1,'* || $line == *'"id":1}'* ]] && break; done
printf '%s\n%s\n' '{"jsonrpc":"2.0","method":"notifications/initialized"}' "$request" >&"${SERVER[1]}"
while IFS= read -r line <&"${SERVER[0]}"; do
  if [[ $line == *'"id":2,'* || $line == *'"id":2}'* ]]; then printf '%s\n' "$line"; break; fi
done
pid=$SERVER_PID
exec {SERVER[1]}>&-
wait "$pid"
