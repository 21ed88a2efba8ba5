"""Runs a command in a session (and process group) of its own, waits for a
file to appear, then sends SIGINT to the whole group — what a terminal does
on Ctrl-C — and prints {"code": N, "stderr": "..."} as JSON on stdout.
Used by the test of Ctrl-C under `deno task`.

usage: group_sigint.py WAIT_FILE -- COMMAND ARGS...
"""
import json, os, signal, subprocess, sys, time

wait_file = sys.argv[1]
argv = sys.argv[sys.argv.index("--") + 1:]
child = subprocess.Popen(argv, start_new_session=True, stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
deadline = time.time() + 60
while not os.path.exists(wait_file) and child.poll() is None and time.time() < deadline:
    time.sleep(0.02)
if child.poll() is None:
    os.killpg(child.pid, signal.SIGINT)
try:
    _, err = child.communicate(timeout=30)
except subprocess.TimeoutExpired:
    os.killpg(child.pid, signal.SIGKILL)
    _, err = child.communicate()
print(json.dumps({"code": child.returncode, "stderr": err.decode(errors="replace")}))
