/**
 * Did-you-mean: the declared name closest to a mistyped one, by edit distance
 * (optimal string alignment: a swap of two neighbours counts as one edit).
 * Returns nothing when no candidate is close enough to be a likely typo.
 * Pure, no I/O.
 *
 * @module
 */

/** Edit distance between `a` and `b`, counting an adjacent swap as one edit. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) rows.push([i, ...Array(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, rows[i - 2][j - 2] + 1);
      }
      rows[i][j] = best;
    }
  }
  return rows[a.length][b.length];
}

/**
 * The candidate closest to `typed` (case-insensitive), if within a third of
 * its length (at least 1, at most 3 edits); ties go to the first candidate.
 */
export function closest(typed: string, candidates: Iterable<string>): string | undefined {
  const limit = Math.min(3, Math.max(1, Math.floor(typed.length / 3)));
  let found: string | undefined;
  let best = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(typed.toLowerCase(), candidate.toLowerCase());
    if (distance <= limit && distance < best) {
      best = distance;
      found = candidate;
    }
  }
  return found;
}
