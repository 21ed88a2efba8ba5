/**
 * The bounds of a request: a timeout that progress notifications restart,
 * within a hard bound of {@linkcode HARD_BOUND_FACTOR} × the timeout in all,
 * so a server that keeps sending progress (a flood, or a call that never
 * ends) cannot keep a request open forever.
 *
 * @module
 */

/** A request's hard bound, in multiples of its timeout. */
export const HARD_BOUND_FACTOR = 10;

/** A request bound for the SDK: "no limit" is a very large one (it defaults to 60 s). */
export function bound(ms: number): number {
  return ms > 0 ? ms : 2 ** 31 - 1;
}
