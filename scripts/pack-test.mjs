#!/usr/bin/env node
// The pack-and-install test: what an adopter gets from npm. In a scratch copy of the workspace (never this
// checkout) the pending changesets are applied (`changeset version`: the release as it would be cut), every
// package is packed with pnpm, each tarball is checked (manifest, LICENSE, exports, bins, README links), the
// tarballs are installed with npm alone into a temporary project outside the workspace, a strict consumer file
// that imports every package and every README's TypeScript example is typechecked, every package is imported
// at run time, and the installed `crucibleforge demo` and `bench-llm --help` are run.
// Usage: node scripts/pack-test.mjs [--keep] [--json FILE]   (after a build; prints one line per check and
// writes {passed, failed, checks, tarballs, install_s} to FILE, default .tmp/pack-test.json)
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkManifest, checkPublishedExports, checkTarballFiles, readmeExamples } from './pack-checks.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const keep = args.includes('--keep');
const jsonOut = resolve(REPO, (args.includes('--json') && args[args.indexOf('--json') + 1]) || '.tmp/pack-test.json');
/** Packages that must not ship (test helpers); everything else is published. */
const PRIVATE_ALLOWED = new Set(['@crucibleforge/testkit']);
const EXPECTED_VERSION = '0.1.0';

const checks = [];
function check(name, fn) {
  try {
    const detail = fn();
    checks.push({ name, ok: true });
    console.log(`ok   ${name}${detail ? ` (${detail})` : ''}`);
    return true;
  } catch (error) {
    checks.push({ name, ok: false, error: String(error?.message ?? error) });
    console.log(`FAIL ${name}: ${String(error?.message ?? error).split('\n').slice(0, 30).join('\n     ')}`);
    return false;
  }
}
function run(cmd, cmdArgs, options = {}) {
  const started = performance.now();
  const r = spawnSync(cmd, cmdArgs, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 10 * 60_000, ...options });
  const seconds = (performance.now() - started) / 1000;
  if (r.error) throw r.error;
  return { code: r.status, signal: r.signal, stdout: r.stdout ?? '', stderr: r.stderr ?? '', seconds };
}
function mustRun(cmd, cmdArgs, options) {
  const r = run(cmd, cmdArgs, options);
  if (r.code !== 0) throw new Error(`${basename(cmd)} ${cmdArgs.join(' ')} exited ${r.code ?? r.signal}:\n${(r.stderr || r.stdout).slice(-3000)}`);
  return r;
}
const json = (file) => JSON.parse(readFileSync(file, 'utf8'));
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;

/** The workspace's packages: dirs under packages/ and apps/ with a package.json. */
function workspacePackages(root) {
  return ['packages', 'apps'].flatMap((group) =>
    existsSync(join(root, group))
      ? readdirSync(join(root, group))
          .map((name) => join(group, name))
          .filter((dir) => existsSync(join(root, dir, 'package.json')))
      : [],
  );
}

/** The workspace's `ignoredOptionalDependencies` (pnpm-workspace.yaml): prebuilts this machine never uses. */
function ignoredOptional(root) {
  const yaml = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const block = yaml.match(/^ignoredOptionalDependencies:\n((?:[ \t]+-[^\n]*\n)+)/m)?.[1] ?? '';
  return [...block.matchAll(/-\s*['"]?([^'"\s]+)['"]?/g)].map((m) => m[1]);
}

const scratch = mkdtempSync(join(tmpdir(), 'cf-pack-'));
const stage = join(scratch, 'stage');
const tarballs = join(scratch, 'tarballs');
const consumer = join(scratch, 'consumer');
const result = { passed: 0, failed: 0, checks, tarballs: [], install_s: null };

try {
  // 1. A scratch copy of the workspace: root manifests, changesets and every package without node_modules.
  const packages = workspacePackages(REPO);
  check('stage a scratch copy of the workspace', () => {
    mkdirSync(stage);
    for (const file of ['package.json', 'pnpm-workspace.yaml', 'pnpm-lock.yaml', 'LICENSE', 'tsconfig.base.json', '.changeset']) {
      cpSync(join(REPO, file), join(stage, file), { recursive: true });
    }
    for (const dir of packages) {
      cpSync(join(REPO, dir), join(stage, dir), { recursive: true, filter: (src) => !/[\\/](node_modules|\.turbo)$/.test(src) });
      if (existsSync(join(REPO, dir, 'node_modules'))) symlinkSync(join(REPO, dir, 'node_modules'), join(stage, dir, 'node_modules'));
    }
    symlinkSync(join(REPO, 'node_modules'), join(stage, 'node_modules'));
    return `${packages.length} packages`;
  });

  // 2. The release as `changeset version` would cut it.
  const manifests = new Map();
  check(`changeset version releases every published package as ${EXPECTED_VERSION}, each with a CHANGELOG.md`, () => {
    mustRun(process.execPath, [join(REPO, 'node_modules/@changesets/cli/bin.js'), 'version'], { cwd: stage });
    const wrong = [];
    for (const dir of packages) {
      const pkg = json(join(stage, dir, 'package.json'));
      manifests.set(dir, pkg);
      if (pkg.private) continue;
      if (pkg.version !== EXPECTED_VERSION) wrong.push(`${pkg.name} would be ${pkg.version}`);
      if (!existsSync(join(stage, dir, 'CHANGELOG.md'))) wrong.push(`${pkg.name} has no CHANGELOG.md`);
    }
    if (wrong.length) throw new Error(wrong.join('; '));
  });

  // 3. Pack each published package with pnpm (workspace:^ and catalog: become ranges, publishConfig applies).
  const published = [];
  for (const dir of packages) {
    const pkg = manifests.get(dir) ?? json(join(stage, dir, 'package.json'));
    if (pkg.private) {
      check(`${pkg.name} is private only because it must not ship`, () => {
        if (!PRIVATE_ALLOWED.has(pkg.name)) throw new Error(`${dir} is private; only ${[...PRIVATE_ALLOWED].join(', ')} may be`);
      });
      continue;
    }
    check(`${pkg.name}: publishConfig.exports is its exports map without source`, () => checkPublishedExports(pkg));
    check(`pack ${pkg.name}`, () => {
      const r = mustRun('pnpm', ['pack', '--pack-destination', tarballs], { cwd: join(stage, dir) });
      const file = readdirSync(tarballs).find((f) => f.startsWith(`${pkg.name.replace('@', '').replace('/', '-')}-`) && f.endsWith('.tgz'));
      if (!file) throw new Error(`no tarball appeared for ${pkg.name}:\n${r.stdout}`);
      const bytes = statSync(join(tarballs, file)).size;
      const unpacked = join(scratch, 'unpacked', basename(dir));
      mkdirSync(unpacked, { recursive: true });
      mustRun('tar', ['-xzf', join(tarballs, file), '-C', unpacked]);
      published.push({ dir, name: pkg.name, file, bytes, root: join(unpacked, 'package') });
      return kib(bytes);
    });
  }

  // 4. Each tarball on its own: what npm will see.
  const rootLicense = readFileSync(join(REPO, 'LICENSE'), 'utf8');
  for (const p of published) {
    check(`${p.name}: manifest (license, repository, public access, ranges, no source condition)`, () => checkManifest(json(join(p.root, 'package.json')), EXPECTED_VERSION));
    check(`${p.name}: LICENSE, README, files, exports, bins and README links are in the tarball`, () => checkTarballFiles(p.root, rootLicense));
  }
  result.tarballs = published.map((p) => ({ name: p.name, file: p.file, bytes: p.bytes }));

  // 5. npm alone, in a project outside the workspace; the tarballs stand in for the registry for our packages.
  const spec = (p) => `file:${relative(consumer, join(tarballs, p.file))}`;
  const installed = check('npm install the tarballs into a fresh project outside the workspace', () => {
    mkdirSync(consumer);
    const deps = Object.fromEntries(published.map((p) => [p.name, spec(p)]));
    // node-llama-cpp's GPU prebuilts (CUDA, Vulkan: ~600 MB, never loaded: the engine runs on the CPU) stand in as
    // an empty local package, the npm twin of the workspace's ignoredOptionalDependencies; a user's install gets them.
    const stub = join(scratch, 'no-gpu-prebuilt');
    mkdirSync(stub);
    writeFileSync(join(stub, 'package.json'), '{ "name": "cf-no-gpu-prebuilt", "version": "0.0.0" }\n');
    const gpuStubs = Object.fromEntries(ignoredOptional(REPO).map((name) => [name, `file:${relative(consumer, stub)}`]));
    writeFileSync(
      join(consumer, 'package.json'),
      `${JSON.stringify({ name: 'cf-consumer', private: true, type: 'module', dependencies: { ...deps, '@types/node': '20.19.43' }, overrides: { ...deps, ...gpuStubs } }, null, 2)}\n`,
    );
    const r = mustRun('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: consumer });
    result.install_s = Number(r.seconds.toFixed(1));
    return `${result.install_s} s`;
  });

  if (installed) {
    // 6. A strict consumer: every package imported, every README's TypeScript example typechecked.
    check('a strict consumer (NodeNext, strict, exactOptionalPropertyTypes) typechecks against every package and README example', () => {
      const src = join(consumer, 'src');
      mkdirSync(src);
      cpSync(join(REPO, 'scripts/pack-consumer/consumer.ts'), join(src, 'consumer.ts'));
      const examples = readmeExamples(published.map((p) => ({ name: p.name, readme: join(p.root, 'README.md') })));
      for (const ex of examples) writeFileSync(join(src, ex.file), ex.code);
      cpSync(join(REPO, 'scripts/pack-consumer/tsconfig.json'), join(consumer, 'tsconfig.json'));
      mustRun(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: consumer });
      return `consumer.ts + ${examples.length} README examples`;
    });

    check('every package imports at run time from the installed tree', () => {
      const names = published.map((p) => p.name);
      const probe = `const names = ${JSON.stringify(names)};\nfor (const n of names) { const m = await import(n); if (Object.keys(m).length === 0) throw new Error(n + ' exports nothing'); }\n`;
      writeFileSync(join(consumer, 'probe.mjs'), probe);
      mustRun(process.execPath, ['probe.mjs'], { cwd: consumer });
      return `${names.length} packages`;
    });

    check('the shipped case set loads clean from the installed tree, every case of cases/ in it', () => {
      const count = `import { caseSetDir } from '@crucibleforge/case-set';\nimport { loadCaseSet } from '@crucibleforge/cases';\nconst set = await loadCaseSet(process.argv[2] ?? caseSetDir); // throws CASES_INVALID naming each problem\nconsole.log(set.cases.length);\n`;
      writeFileSync(join(consumer, 'count-cases.mjs'), count);
      const shipped = Number(mustRun(process.execPath, ['count-cases.mjs'], { cwd: consumer }).stdout.trim());
      const repo = Number(mustRun(process.execPath, ['count-cases.mjs', join(REPO, 'cases')], { cwd: consumer }).stdout.trim());
      if (shipped !== repo) throw new Error(`the installed set has ${shipped} cases, cases/ has ${repo}`);
      return `${shipped} cases`;
    });

    // 7. The installed CLI, run from the consumer project: no cases/ anywhere above it, so only the shipped set.
    const bin = (name) => join(consumer, 'node_modules', '.bin', name);
    check(`the installed crucibleforge --version is ${EXPECTED_VERSION}`, () => {
      const r = mustRun(bin('crucibleforge'), ['--version'], { cwd: consumer });
      if (r.stdout.trim() !== EXPECTED_VERSION) throw new Error(`printed ${JSON.stringify(r.stdout.trim())}`);
    });
    check('the installed crucibleforge demo runs on the shipped case set', () => {
      const out = join(scratch, 'demo');
      const r = mustRun(bin('crucibleforge'), ['demo', '--out', out], { cwd: consumer, env: { ...process.env, NO_COLOR: '1' } });
      for (const file of ['report.md', 'report.json', 'report.html']) if (!existsSync(join(out, file))) throw new Error(`no ${file} in ${out}:\n${r.stdout}`);
      const manifestCases = json(join(out, 'report.json'));
      if (!JSON.stringify(manifestCases).includes('sim-strong')) throw new Error('report.json does not mention sim-strong');
      return `${r.seconds.toFixed(1)} s`;
    });
    check('the installed bench-llm --help prints its usage', () => {
      const r = mustRun(bin('bench-llm'), ['--help'], { cwd: consumer });
      if (!/Usage: .*bench-llm/.test(r.stdout)) throw new Error(`unexpected output:\n${r.stdout.slice(0, 500)}`);
    });
  }
} finally {
  result.passed = checks.filter((c) => c.ok).length;
  result.failed = checks.filter((c) => !c.ok).length;
  if (result.tarballs.length) {
    console.log('\ntarball sizes:');
    for (const t of result.tarballs) console.log(`  ${t.name.padEnd(30)} ${kib(t.bytes).padStart(11)}`);
    console.log(`  ${'total'.padEnd(30)} ${kib(result.tarballs.reduce((s, t) => s + t.bytes, 0)).padStart(11)}`);
  }
  if (result.install_s !== null) console.log(`npm install of the CLI and every package (tarballs + registry deps): ${result.install_s} s`);
  mkdirSync(dirname(jsonOut), { recursive: true });
  writeFileSync(jsonOut, `${JSON.stringify(result, null, 2)}\n`);
  if (keep) console.log(`kept ${scratch}`);
  else rmSync(scratch, { recursive: true, force: true });
  console.log(`pack-test: ${result.passed} passed, ${result.failed} failed`);
}
process.exitCode = result.failed === 0 ? 0 : 1;
