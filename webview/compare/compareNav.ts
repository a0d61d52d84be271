/** Where F7 and Shift+F7 go: the first row of each run of differing rows (a hunk), as the diff editor does. */

/** The next (or previous) hunk start from row `at`, wrapping around; -1 when there is none. */
export function nextHunk(starts: readonly number[], at: number, backwards: boolean): number {
  if (starts.length === 0) return -1;
  if (!backwards) return starts.find((s) => s > at) ?? starts[0];
  for (let k = starts.length - 1; k >= 0; k--) if (starts[k] < at) return starts[k];
  return starts[starts.length - 1];
}
