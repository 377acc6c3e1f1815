/** How long before a deadline the coarse timer hands over to the setImmediate spin. */
const SPIN_MS = 1.5;

/**
 * Waits until `performance.now() >= deadline`: a setTimeout until ~1.5 ms before it, then setImmediate
 * turns until it is due. Resolves true when due, false as soon as `signal` aborts.
 */
export function waitUntil(deadline: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let immediate: ReturnType<typeof setImmediate> | undefined;
    const onAbort = () => {
      if (timer) clearTimeout(timer);
      if (immediate) clearImmediate(immediate);
      resolve(false);
    };
    const done = () => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    };
    const step = () => {
      timer = undefined;
      immediate = undefined;
      if (signal.aborted) return;
      const left = deadline - performance.now();
      if (left <= 0) return done();
      if (left > SPIN_MS) timer = setTimeout(step, Math.max(0, Math.floor(left - SPIN_MS)));
      else immediate = setImmediate(step);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    step();
  });
}
