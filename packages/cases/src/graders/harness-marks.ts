/** Lines the harnesses print (on their own line) so the grader can say what happened. */
export const MARK = {
  /** the solution could not be loaded (syntax error, exception at import, name missing) */
  load: '__CF_LOAD__',
  /** a test is starting: attributes a timeout or a crash to it */
  test: '__CF_TEST__',
  /** a test failed: the rest of the line is the reason */
  fail: '__CF_FAIL__',
  /** every test ran */
  done: '__CF_DONE__',
} as const;

/** The last line of `stdout` that starts with the mark, without the mark; null when none. */
export function lastMark(stdout: string, mark: string): string | null {
  const lines = stdout.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!;
    if (line.startsWith(`${mark} `)) return line.slice(mark.length + 1).trim();
  }
  return null;
}
