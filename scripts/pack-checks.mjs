// The checks scripts/pack-test.mjs applies to one unpacked tarball (pure functions over a directory).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

/** Every string leaf of an exports map with the conditions that lead to it. */
function exportTargets(value, path = []) {
  if (typeof value === 'string') return [{ path, target: value }];
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => exportTargets(v, [...path, k]));
  return [];
}

/**
 * Dependencies published with an exact version on purpose, and why: node-llama-cpp's native prebuilts
 * (`@node-llama-cpp/*`) are versioned with it and the engine is tested against exactly this one.
 */
export const EXACT_PINS_ALLOWED = new Map([['node-llama-cpp', 'native prebuilts tested at exactly this version']]);

/** Every exports entry without its `source` condition: what `publishConfig.exports` must be. */
export function stripSource(exportsMap) {
  if (typeof exportsMap === 'string' || !exportsMap || typeof exportsMap !== 'object') return exportsMap;
  return Object.fromEntries(Object.entries(exportsMap).filter(([k]) => k !== 'source').map(([k, v]) => [k, stripSource(v)]));
}

/** The workspace manifest: the published exports map is the workspace one without `source` (no subpath lost). */
export function checkPublishedExports(pkg) {
  const expected = JSON.stringify(stripSource(pkg.exports ?? {}));
  const actual = JSON.stringify(pkg.publishConfig?.exports ?? {});
  if (expected !== actual) throw new Error(`publishConfig.exports ${actual} is not exports without source: ${expected}`);
}

/** The published manifest as npm sees it: throws naming every problem at once. */
export function checkManifest(pkg, expectedVersion) {
  const problems = [];
  if (pkg.private) problems.push('private');
  if (pkg.version !== expectedVersion) problems.push(`version ${pkg.version}, expected ${expectedVersion}`);
  if (pkg.license !== 'MIT') problems.push(`license ${pkg.license}`);
  if (!pkg.repository?.url || !pkg.repository?.directory) problems.push('repository.url/directory missing');
  if (!pkg.homepage) problems.push('homepage missing');
  if (!pkg.bugs?.url) problems.push('bugs.url missing');
  if (pkg.publishConfig?.access !== 'public') problems.push('publishConfig.access is not public');
  if (!pkg.engines?.node) problems.push('engines.node missing');
  for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
    for (const [name, range] of Object.entries(pkg[field] ?? {})) {
      if (/^(workspace|catalog|file|link):/.test(range)) problems.push(`${field}.${name} is "${range}"`);
      else if (/^\d+\.\d+\.\d+$/.test(range) && !EXACT_PINS_ALLOWED.has(name)) problems.push(`${field}.${name} is pinned exactly ("${range}"), use a range`);
    }
  }
  for (const { path } of exportTargets(pkg.exports ?? {})) {
    if (path.includes('source')) problems.push(`exports ${path.join(' → ')}: the workspace-only source condition is published`);
  }
  if (problems.length) throw new Error(problems.join('; '));
}

/** Relative Markdown links (not URLs, not in-page anchors) of a README, with the line they are on. */
function relativeLinks(markdown) {
  const links = [];
  markdown.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[1];
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue;
      links.push({ line: i + 1, target: target.split('#')[0] });
    }
  });
  return links;
}

/** LICENSE (the root one), README, every `files` entry, every exports target and bin are in the package. */
export function checkTarballFiles(root, rootLicense) {
  const problems = [];
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const has = (rel) => existsSync(join(root, rel));
  if (!has('LICENSE')) problems.push('no LICENSE');
  else if (readFileSync(join(root, 'LICENSE'), 'utf8') !== rootLicense) problems.push('LICENSE differs from the root LICENSE');
  if (!has('README.md')) problems.push('no README.md');
  for (const entry of pkg.files ?? []) if (!/[*?]/.test(entry) && !has(entry)) problems.push(`files lists "${entry}", not in the tarball`);
  for (const { path, target } of exportTargets(pkg.exports ?? {})) {
    if (!has(target)) problems.push(`exports ${path.join(' → ') || '.'} → ${target} is not in the tarball`);
  }
  for (const field of ['main', 'types']) if (pkg[field] && !has(pkg[field])) problems.push(`${field} → ${pkg[field]} is not in the tarball`);
  for (const [name, target] of Object.entries(typeof pkg.bin === 'string' ? { [pkg.name]: pkg.bin } : (pkg.bin ?? {}))) {
    if (!has(target)) problems.push(`bin ${name} → ${target} is not in the tarball`);
    else {
      if (!readFileSync(join(root, target), 'utf8').startsWith('#!/usr/bin/env node')) problems.push(`bin ${name} has no #!/usr/bin/env node line`);
      if ((statSync(join(root, target)).mode & 0o111) === 0) problems.push(`bin ${name} is not executable`);
    }
  }
  for (const md of ['README.md', ...(pkg.files ?? []).filter((f) => f.endsWith('.md'))]) {
    if (!has(md)) continue;
    for (const link of relativeLinks(readFileSync(join(root, md), 'utf8'))) {
      const target = normalize(join(dirname(md), link.target));
      if (target.startsWith('..') || !has(target)) problems.push(`${md}:${link.line} links to ${link.target}, not in the tarball`);
    }
  }
  if (problems.length) throw new Error(problems.join('; '));
}

/**
 * The ```ts blocks of each README, as module files for the consumer project. A block that should not compile on
 * its own (a fragment) is fenced ```ts fragment and skipped.
 */
export function readmeExamples(readmes) {
  const out = [];
  for (const { name, readme } of readmes) {
    if (!existsSync(readme)) continue;
    const text = readFileSync(readme, 'utf8');
    let n = 0;
    for (const m of text.matchAll(/^```ts([^\n]*)\n([\s\S]*?)^```/gm)) {
      if (m[1].trim() === 'fragment') continue;
      n += 1;
      const code = m[2].includes('import ') || m[2].includes('export ') ? m[2] : `${m[2]}\nexport {};\n`;
      out.push({ file: `readme-${name.replace('@crucibleforge/', '')}-${n}.ts`, code: `// from ${name} README.md, example ${n}\n${code}` });
    }
  }
  return out;
}
