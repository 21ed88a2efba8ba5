/**
 * Finds the processes of a server's tree on Linux: every descendant of given
 * roots (whatever their process group or session: `setsid` does not hide a
 * process from its parent), and every process whose environment carries the
 * tree's marker (which finds daemons that double-forked and were reparented
 * away from the server, as long as they kept the environment they inherited).
 *
 * Deno refuses `/proc` to anything but `--allow-all` (even `/proc/self`), so
 * the scan is one `/bin/sh` run (jn already has `--allow-run`) that walks
 * `/proc/PID/task/TID/children` with shell builtins (falling back to every
 * `/proc/PID/stat` where the kernel lacks children files) and greps
 * `/proc/*\/environ` for the marker. A scan that cannot run (not Linux, no
 * `/bin/sh`, a permission set without it) yields `undefined`, without a
 * prompt: callers fall back to the process group alone.
 *
 * Guarantees: each process comes with its start time (field 22 of `stat`),
 * so a pid remembered from an earlier scan is trusted only while it still
 * names the same process; zombies and jn itself are never members. A
 * freezing scan stops each process the moment it finds it, inside the one
 * shell run, so a tree forking faster than a scan takes still ends: nothing
 * stopped can fork, and passes repeat until none finds a new process.
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
  /** Its process group, 0 when that is in jn's session (or unknown). */
  pgid?: number;
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

// $1: the marker ("" for none); $2: "freeze" to SIGSTOP every process reached the moment it
// is found (and its process group), then scan again until a pass finds nothing new, or "scan";
// $3…: roots, as "pid" or "pid:start" (a root whose start time differs is not followed).
// Prints "P pid ppid state start pgid" for each process reached (pgid 0 when the process is in
// jn's session: its group is not the tree's) and "M pid" for each process whose environment
// holds the marker. Never stops pid 1, itself, jn ($PPID) or a group of jn's session. A marked
// process that vanished before it could be read makes another pass (its child may live; up to
// 5 passes without freezing); a freezing scan ends after two passes in a row found nothing
// (a process born after one pass listed /proc is seen by the next).
const SCRIPT = `
m=$1; mode=$2; shift 2
roots=$*
seen=" "
session() {
  line=
  read -r line < "/proc/$1/stat" || [ -n "$line" ] || return 1
  set -- \${line##*) }
  echo "$6"
}
own=$(session "$PPID")
[ -e "/proc/$$/task/$$/children" ] || mode=scan
emit() {
  case $seen in *" $1 "*) return 1;; esac
  line=
  read -r line < "/proc/$1/stat" || [ -n "$line" ] || { gone=1; return 2; }
  rest=\${line##*) }
  set -- "$1" "$2" $rest
  [ -z "$2" ] || [ "$2" = "\${22}" ] || return 2
  seen="$seen$1 "; new=1
  g=0
  [ "$5" -gt 1 ] && [ "$6" != "\${own:-0}" ] && g=$5
  if [ "$mode" = freeze ] && [ "$1" != 1 ] && [ "$1" != $$ ] && [ "$1" != "$PPID" ]; then
    kill -STOP "$1" 2>/dev/null
    [ "$g" = 0 ] || kill -STOP -"$g" 2>/dev/null
  fi
  echo "P $1 $4 $3 \${22} $g"
}
walk() {
  case $visited in *" $1 "*) return 0;; esac
  visited="$visited$1 "
  emit "$1" "$2"
  [ $? -eq 2 ] && return 0
  for t in /proc/"$1"/task/*/children; do
    kids=
    read -r kids < "$t" || true
    for k in $kids; do walk "$k"; done
  done
}
pass() {
  visited=" "; new=0; vanished=0
  for r in $roots; do
    case $r in *:*) walk "\${r%%:*}" "\${r#*:}";; *) walk "$r";; esac
  done
  for p in $seen; do walk "$p"; done
  if [ -n "$m" ]; then
    for f in $(grep -lsF -e "$m" /proc/[0-9]*/environ); do
      p=\${f#/proc/}; p=\${p%/environ}; echo "M $p"
      gone=0; walk "$p"; [ $gone = 0 ] || vanished=1
    done
  fi
}
if [ -e "/proc/$$/task/$$/children" ]; then
  pass
  i=0; quiet=0
  while [ $i -lt 100 ]; do
    if [ "$mode" = freeze ]; then
      if [ $new = 1 ] || [ $vanished = 1 ]; then quiet=0; else quiet=$((quiet + 1)); fi
      [ $quiet -lt 2 ] || break
    else [ $vanished = 1 ] && [ $i -lt 4 ] || break
    fi
    pass; i=$((i + 1))
  done
else
  for s in /proc/[0-9]*/stat; do p=\${s#/proc/}; emit "\${p%/stat}" || true; done
  [ -z "$m" ] || for f in $(grep -lsF -e "$m" /proc/[0-9]*/environ); do
    p=\${f#/proc/}; echo "M \${p%/environ}"
  done
fi
`;

function command(
  roots: readonly (number | KnownProcess)[],
  marker: string | undefined,
  freeze = false,
): Deno.Command | undefined {
  if (Deno.build.os !== "linux") return undefined;
  // A narrowed permission set (`--allow-run=node,npx`) may leave /bin/sh out: never prompt.
  const run = Deno.permissions.querySync({ name: "run", command: "/bin/sh" });
  if (run.state !== "granted") return undefined;
  const rootArgs = roots.map((root) =>
    typeof root === "number"
      ? String(root)
      : root.start
      ? `${root.pid}:${root.start}`
      : String(root.pid)
  );
  return new Deno.Command("/bin/sh", {
    args: ["-c", SCRIPT, "jn-scan", marker ?? "", freeze ? "freeze" : "scan", ...rootArgs],
    clearEnv: true,
    env: { PATH: "/usr/bin:/bin" },
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  });
}

/**
 * Scans the processes reachable from `roots` and those carrying `marker`.
 * `freeze`: see {@linkcode scanProcessesSync}.
 */
export async function scanProcesses(
  roots: readonly (number | KnownProcess)[],
  marker?: string,
  options: { freeze?: boolean } = {},
): Promise<ScanResult | undefined> {
  try {
    const output = await command(roots, marker, options.freeze)?.output();
    return output ? parseScan(new TextDecoder().decode(output.stdout)) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The same scan, blocking (for exit paths, where nothing asynchronous runs any
 * more). With `freeze`, every process reached is stopped (SIGSTOP, and its
 * process group) the moment the scan finds it, and the scan repeats until a
 * pass finds nothing new: a tree that keeps forking cannot outrun it. The
 * caller must SIGKILL what it returns (a stopped process stays stopped).
 */
export function scanProcessesSync(
  roots: readonly (number | KnownProcess)[],
  marker?: string,
  options: { freeze?: boolean } = {},
): ScanResult | undefined {
  try {
    const output = command(roots, marker, options.freeze)?.outputSync();
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
    if (kind !== "P" || (fields.length !== 4 && fields.length !== 5)) continue;
    const [pid, ppid, state, start, pgid] = fields;
    if (!isPid(pid) || !/^\d+$/.test(ppid) || !/^\d+$/.test(start)) continue;
    const proc: ProcInfo = { pid: Number(pid), ppid: Number(ppid), state, start };
    if (pgid !== undefined && /^\d+$/.test(pgid)) proc.pgid = Number(pgid);
    procs.set(proc.pid, proc);
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
