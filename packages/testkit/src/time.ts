/** A sleep that returns at once and records what was asked (retry backoffs without waiting). */
export function fakeSleep(): { sleep: (ms: number) => Promise<void>; waits: number[] } {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

/** A wall clock that advances one second per reading (deterministic stamps). */
export function steppingDate(start = Date.parse('2025-01-01T00:00:00Z')): () => Date {
  let t = start;
  return () => new Date((t += 1000));
}
