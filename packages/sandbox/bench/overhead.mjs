// Sandbox launch overhead: median wall time of `python3 -c pass` (as a one-line program) inside the
// sandbox vs bare, and runs per second through the pool. Run: pnpm --filter @crucibleforge/sandbox bench
import { availableParallelism } from 'node:os';
import { execa } from 'execa';
import { createSandbox, detectSandbox } from '../dist/index.js';

const RUNS = Number(process.argv[2] ?? 40);
const POOL_RUNS = Number(process.argv[3] ?? 60);
const PYTHON = '/usr/bin/python3';

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const round = (x) => Math.round(x * 10) / 10;

const detection = await detectSandbox();
if (!detection.available) {
  console.error(`no sandbox here: ${detection.reason}`);
  process.exit(3);
}
const sandbox = await createSandbox();

// warm-up (page cache, first bwrap start)
for (let i = 0; i < 3; i++) {
  await execa(PYTHON, ['-c', 'pass']);
  await sandbox.run({ language: 'python', source: 'pass' });
}

const bare = [];
const boxed = [];
const boxedInside = [];
for (let i = 0; i < RUNS; i++) {
  // interleave so machine load affects both alike
  let t = performance.now();
  await execa(PYTHON, ['-c', 'pass'], { extendEnv: false, env: {} });
  bare.push(performance.now() - t);
  t = performance.now();
  const result = await sandbox.run({ language: 'python', source: 'pass' });
  boxed.push(performance.now() - t);
  boxedInside.push(result.wall_ms);
  if (result.status !== 'ok') throw new Error(`sandboxed run failed: ${JSON.stringify(result)}`);
}

const poolSize = availableParallelism();
const start = performance.now();
const results = await Promise.all(Array.from({ length: POOL_RUNS }, () => sandbox.run({ language: 'python', source: 'pass' })));
const seconds = (performance.now() - start) / 1000;
const failed = results.filter((r) => r.status !== 'ok').length;

const figures = {
  runs: RUNS,
  bare_median_ms: round(median(bare)),
  sandbox_median_ms: round(median(boxed)),
  sandbox_median_wall_ms_field: round(median(boxedInside)),
  ratio: Math.round((median(boxed) / median(bare)) * 100) / 100,
  goal_ratio: 1.5,
  pool_size: poolSize,
  pool_runs: POOL_RUNS,
  pool_runs_per_s: round(POOL_RUNS / seconds),
  pool_failed: failed,
  bwrap: detection.version,
};
console.log(JSON.stringify(figures, null, 2));
