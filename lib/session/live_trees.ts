/**
 * The process-wide registry of the server process trees jn has started and
 * not yet ended, so that an exit which skips the graceful teardown still
 * leaves no server behind.
 *
 * Guarantees: {@linkcode killAllTrees} SIGKILLs every live tree
 * synchronously (a second Ctrl-C calls it right before `Deno.exit`); it also
 * runs by itself on `unload` — which Deno dispatches on `Deno.exit()` and at
 * the natural end of the program (checked: not on an uncaught error) — and on
 * an uncaught error or unhandled rejection that is about to end the process.
 * A tree ended normally has left the registry, so these cost nothing then.
 *
 * @module
 */

/** What the registry needs of a tree. */
export interface LiveTree {
  /** SIGKILLs the whole tree, synchronously. */
  killNow(): void;
}

const live = new Set<LiveTree>();
let installed = false;

/** Adds a tree; returns the function that removes it (once it has been ended). */
export function trackTree(tree: LiveTree): () => void {
  install();
  live.add(tree);
  return () => void live.delete(tree);
}

/** SIGKILLs every live tree now and forgets them. */
export function killAllTrees(): void {
  const trees = [...live];
  live.clear();
  for (const tree of trees) {
    try {
      tree.killNow();
    } catch { /* keep going: the other trees must die too */ }
  }
}

function install(): void {
  if (installed) return;
  installed = true;
  globalThis.addEventListener("unload", killAllTrees);
  // Both run before Deno ends the process for an uncaught error; one that an
  // earlier listener handled (preventDefault) does not end it: leave the trees.
  const onFatal = (event: Event) => {
    if (!event.defaultPrevented) killAllTrees();
  };
  globalThis.addEventListener("error", onFatal);
  globalThis.addEventListener("unhandledrejection", onFatal);
}
