"""Runs a command in a pseudo-terminal (stdin, stdout and stderr are the TTY),
answers prompts, and prints everything the command wrote as JSON on stdout:
{"code": N, "output": "..."}. Used by the elicitation prompt test.

usage: pty_run.py ANSWERS_JSON -- COMMAND ARGS...
ANSWERS_JSON is a list of [prompt_substring, reply] pairs, answered in order.
"""
import json, os, pty, select, sys, time

answers = json.loads(sys.argv[1])
argv = sys.argv[sys.argv.index("--") + 1:]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(argv[0], argv)
output = b""
deadline = time.time() + 30
while time.time() < deadline:
    ready, _, _ = select.select([fd], [], [], 0.1)
    if ready:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        output += chunk
    while answers and answers[0][0].encode() in output.split(b"\x00")[-1]:
        prompt, reply = answers.pop(0)
        output += b"\x00"  # marks where the next prompt search starts
        os.write(fd, (reply + "\n").encode())
_, status = os.waitpid(pid, 0)
print(json.dumps({"code": os.waitstatus_to_exitcode(status), "output": output.replace(b"\x00", b"").decode(errors="replace")}))
