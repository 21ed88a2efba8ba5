/**
 * Finds the processes of a server's tree on Linux: every descendant of given
 * roots (whatever their process group or session: `setsid` does not hide a
 * process from its parent), and every process whose environment carries the
 * tree's marker (which finds daemons that double-forked and were reparented
 * away from the server, as long as they kept the environment they inherited).
 *
 * Deno refuses `/proc` to anything but `--allow-all`, so the scan is one
 * `/bin/sh` run (jn already has `--allow-run`) that walks
 * `/proc/PID/task/TID/children` with shell builtins (falling back to every
 * `/proc/PID/stat` where the kernel lacks children files) and greps
 * `/proc/*\/environ` for the marker. A scan that cannot run (not Linux, no
 * `/bin/sh`, a permission set without it) yields `undefined`, without a
 * prompt: callers fall back to the process group alone.
 *
 * Guarantees: each process comes with its start time (field 22 of `stat`),
 * so a pid remembered from an earlier scan is trusted only while it still
 * names the same process; zombies and jn itself are never members.
 *
 * @module
 */

/** One process as a scan saw it. */
export interface ProcInfo {
  pid: number;
  ppid: number;
  /** The state letter of `/proc/PID/stat` (`Z` zombie, `X` dead). */
  state: string;
  /** Start time in clock ticks since boot: with the pid, the process's identity. */
  start: string;
}

/** What one scan found. */
export interface ScanResult {
  /** Processes reached from the roots or the marker, by pid. */
  procs: Map<number, ProcInfo>;
  /** Processes whose environment holds the marker. */
  marked: Set<number>;
}

/** A process a caller knows of: `start` (when known) must match for it to count. */
export interface KnownProcess {
  pid: number;
  start?: string;
}

// $1: the marker ("" for none); $2…: root pids. Prints "P pid ppid state start" for each
// process reached and "M pid" for each process whose environment holds the marker.
const SCRIPT = `
m=$1; shift
seen=" "
emit() {
  case $seen in *" $1 "*) return 1;; esac
  seen="$seen$1 "
  line=
  read -r line < "/proc/$1/stat" || [ -n "$line" ] || return 1
  rest=\${line##*) }
  set -- "$1" $rest
  echo "P $1 $3 $2 \${21}"
}
walk() {
  emit "$1" || return 0
  for t in /proc/"$1"/task/*/children; do
    kids=
    read -r kids < "$t" || true
    for k in $kids; do walk "$k"; done
  done
}
if [ -e "/proc/$$/task/$$/children" ]; then
  for r in "$@"; do walk "$r"; done
else
  for s in /proc/[0-9]*/stat; do p=\${s#/proc/}; emit "\${p%/stat}" || true; done
fi
if [ -n "$m" ]; then
  for f in $(grep -lsF -e "$m" /proc/[0-9]*/environ); do
    p=\${f#/proc/}; p=\${p%/environ}; echo "M $p"; walk "$p"
  done
fi
`;

function command(roots: readonly number[], marker: string | undefined): Deno.Command | undefined {
  if (Deno.build.os !== "linux") return undefined;
  // A narrowed permission set (`--allow-run=node,npx`) may leave /bin/sh out: never prompt.
  const run = Deno.permissions.querySync({ name: "run", command: "/bin/sh" });
  if (run.state !== "granted") return undefined;
  return new Deno.Command("/bin/sh", {
    args: ["-c", SCRIPT, "jn-scan", marker ?? "", ...roots.map(String)],
    clearEnv: true,
    env: { PATH: "/usr/bin:/bin" },
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  });
}

/** Scans the processes reachable from `roots` and those carrying `marker`. */
export async function scanProcesses(
  roots: readonly number[],
  marker?: string,
): Promise<ScanResult | undefined> {
  try {
    const output = await command(roots, marker)?.output();
    return output ? parseScan(new TextDecoder().decode(output.stdout)) : undefined;
  } catch {
    return undefined;
  }
}

/** The same scan, blocking (for exit paths, where nothing asynchronous runs any more). */
export function scanProcessesSync(
  roots: readonly number[],
  marker?: string,
): ScanResult | undefined {
  try {
    const output = command(roots, marker)?.outputSync();
    return output ? parseScan(new TextDecoder().decode(output.stdout)) : undefined;
  } catch {
    return undefined;
  }
}

/** Parses the scan script's output; malformed lines are skipped. */
export function parseScan(text: string): ScanResult {
  const procs = new Map<number, ProcInfo>();
  const marked = new Set<number>();
  for (const line of text.split("\n")) {
    const [kind, ...fields] = line.split(" ");
    if (kind === "M" && isPid(fields[0])) marked.add(Number(fields[0]));
    if (kind !== "P" || fields.length !== 4) continue;
    const [pid, ppid, state, start] = fields;
    if (!isPid(pid) || !/^\d+$/.test(ppid) || !/^\d+$/.test(start)) continue;
    procs.set(Number(pid), { pid: Number(pid), ppid: Number(ppid), state, start });
  }
  return { procs, marked };
}

/**
 * The living members of a tree: the roots that still are the processes the
 * caller knew (same start time), every marked process, and all their
 * descendants. Zombies, pid 1 and jn itself are left out.
 */
export function treeMembers(scan: ScanResult, roots: readonly KnownProcess[]): ProcInfo[] {
  const ours = new Set<number>(scan.marked);
  for (const root of roots) {
    const seen = scan.procs.get(root.pid);
    if (seen && (root.start === undefined || seen.start === root.start)) ours.add(root.pid);
  }
  for (let grew = true; grew;) {
    grew = false;
    for (const proc of scan.procs.values()) {
      if (!ours.has(proc.pid) && ours.has(proc.ppid)) {
        ours.add(proc.pid);
        grew = true;
      }
    }
  }
  const members: ProcInfo[] = [];
  for (const pid of ours) {
    const proc = scan.procs.get(pid);
    if (!proc || proc.state === "Z" || proc.state === "X") continue;
    if (pid <= 1 || pid === Deno.pid) continue;
    members.push(proc);
  }
  return members;
}

function isPid(text: string | undefined): boolean {
  return text !== undefined && /^[1-9]\d*$/.test(text);
}
