// Prints the number of names each package's src/index.ts exports and the non-test lines of apps/cli/src
// (issue 19's limits: cases, runner and timing at most 60 names each; apps/cli/src at most 2,700 lines).
// Usage: node scripts/surface.mjs
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const exportsOf = (file) => {
  const text = readFileSync(file, 'utf8').replace(/\/\/.*$/gm, '');
  let n = 0;
  for (const m of text.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)) n += m[1].split(',').map((s) => s.trim()).filter(Boolean).length;
  return n + [...text.matchAll(/export\s+(?:const|function|class|interface|enum|type\s+\w+\s*=)\s/g)].length;
};
const lines = (dir) =>
  readdirSync(dir).reduce((n, name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return n + lines(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? n + readFileSync(path, 'utf8').split('\n').length - 1 : n;
  }, 0);
for (const pkg of readdirSync(join(root, 'packages')).sort()) {
  const index = join(root, 'packages', pkg, 'src', 'index.ts');
  try {
    console.log(`${pkg.padEnd(16)} ${exportsOf(index)} names`);
  } catch {}
}
console.log(`apps/cli/src     ${lines(join(root, 'apps', 'cli', 'src'))} non-test lines`);
