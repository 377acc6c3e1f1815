/** Levenshtein distance (insertions, deletions and substitutions each cost 1). */
export function editDistance(a: string, b: string): number {
  const dp = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = dp[0]!;
    dp[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = dp[j]!;
      dp[j] = Math.min(dp[j]! + 1, dp[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return dp[b.length]!;
}

/** The closest names first (for "unknown … did you mean"). */
export function closestNames(name: string, valid: readonly string[], n = 5): string[] {
  return [...valid].sort((x, y) => editDistance(name, x) - editDistance(name, y) || x.localeCompare(y)).slice(0, n);
}

/**
 * The one valid name a typo most likely meant: the closest within a third of its length (at least 2 edits),
 * or a name it is a prefix of; null when nothing is that close.
 */
export function didYouMean(name: string, valid: readonly string[]): string | null {
  if (name === '') return null;
  const best = closestNames(name, valid, 1)[0];
  if (best === undefined) return null;
  if (editDistance(name, best) <= Math.max(2, Math.floor(name.length / 3))) return best;
  const prefixed = valid.filter((v) => v.startsWith(name));
  return prefixed.length === 1 ? prefixed[0]! : null;
}
