/**
 * Why a sandboxed server may have failed to start: the hidden path its own
 * output names and the `--sandbox-read` that shows it (never a broad or
 * credential directory: lib/sandbox/failure_hint.ts), or a launcher's known
 * failure without network. Loaded by sandbox.ts for sandboxed launches
 * only; see `explainSandboxFailure` there.
 *
 * @module
 */

import { findHiddenPath } from "../sandbox/failure_hint.ts";
import { realPath, statKind } from "../sandbox/host.ts";
import { visibleIn } from "../sandbox/plan.ts";
import type { SandboxInfo } from "./options.ts";

export { launcherHint } from "../sandbox/failure_hint.ts";

/**
 * The hint of a sandboxed server whose own output (`tail`) names a path the
 * sandbox hides, with the grant that shows it; undefined when none does.
 */
export function hiddenPathHint(tail: string, sandbox: SandboxInfo): string | undefined {
  const plan = sandbox.plan;
  const hidden = plan &&
    findHiddenPath(tail, {
      visible: (path) => visibleIn(plan, path),
      stat: (path) => {
        try {
          return statKind(path);
        } catch {
          return undefined;
        }
      },
      realPath: (path) => {
        try {
          return realPath(path);
        } catch {
          return undefined;
        }
      },
      home: sandbox.home,
    });
  if (!hidden) return undefined;
  return `the server's own output (${JSON.stringify(hidden.line)}) says it needs ` +
    `${JSON.stringify(hidden.path)}, which the sandbox hides: if you trust that, ` +
    `--sandbox-read ${hidden.grant} shows it`;
}
