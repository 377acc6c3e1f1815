#!/usr/bin/env node
// How rare are the case splits a zebra grid needs? A dev tool for choosing instances of the zebra families
// (reasoning-a-zebra-w6 and the cases that extend it), not part of the product.
//
//   node scripts/zebra-split-rarity.mjs cases/reasoning/reasoning-a-zebra-w6.yaml 1 2 3 …   (puzzle values)
//   node scripts/zebra-split-rarity.mjs cases/reasoning/reasoning-a-zebra-w6.yaml 59-200 --seed 1   (about 10–20 s each)
//
// For each puzzle it runs the family's own derive program (trusted repo code, plain node) with the base's
// params and that `puzzle`, takes the clues it drew, and measures them with its own propagation (written
// apart from the generator's solver): arc consistency per clue, all-different per attribute with naked and
// hidden singles. Then, as a careful hand solver would:
//   level 1: assume one item in one house; if propagation alone then contradicts, strike that house;
//   level 2: assume one item in one house; if level-1 reasoning then contradicts, strike it.
// It prints one JSON line per puzzle. `split_rarity` is the share of the open (item, house) assumptions that
// level-2 reasoning refutes at the first point where level 1 is stuck: low means that almost every case
// split a solver tries leads nowhere, so the one that works must be found among hundreds. 1 means the grid
// falls to level-1 reasoning alone. In the w6 calibrations the instances that stayed hard under the notes
// protocol had the lowest values (see cases/FAMILIES.md, "Split rarity").
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const YAML = require(require.resolve('yaml', { paths: [new URL('../packages/cases', import.meta.url).pathname] }));

const args = process.argv.slice(2);
const seedAt = args.indexOf('--seed');
const seed = seedAt >= 0 ? Number(args.splice(seedAt, 2)[1]) : 1;
const [file, ...specs] = args;
if (!file || !specs.length) {
  console.error('usage: zebra-split-rarity.mjs BASE.yaml PUZZLE|FROM-TO … [--seed N]');
  process.exit(2);
}
const base = YAML.parse(readFileSync(file, 'utf8'));
if (!base?.derive?.program || !base.params) {
  console.error(`${file}: no derive program or params (give the family's base file, which has both)`);
  process.exit(2);
}
const params = Object.fromEntries(Object.entries(base.params).map(([k, v]) => [k, v.choice[0]]));
const puzzles = specs.flatMap((s) => {
  const [a, b] = s.split('-').map(Number);
  if (!Number.isInteger(a) || (b !== undefined && !Number.isInteger(b))) {
    console.error(`puzzle "${s}": expected a number or FROM-TO`);
    process.exit(2);
  }
  return b === undefined ? [a] : Array.from({ length: b - a + 1 }, (_, i) => a + i);
});

const HOLDS = {
  same: (p) => p[0] === p[1],
  diff: (p) => p[0] !== p[1],
  at: (p, c) => p[0] === c[2],
  notat: (p, c) => p[0] !== c[2],
  left: (p) => p[0] < p[1],
  imm: (p) => p[0] + 1 === p[1],
  next: (p) => Math.abs(p[0] - p[1]) === 1,
  gap1: (p) => Math.abs(p[0] - p[1]) === 2,
  gap2: (p) => Math.abs(p[0] - p[1]) === 3,
  far: (p) => Math.abs(p[0] - p[1]) >= 2,
  xor: (p) => (p[0] === p[1]) !== (p[0] === p[2]),
  btw: (p) => Math.min(p[0], p[2]) < p[1] && p[1] < Math.max(p[0], p[2]),
};

function measure(vars) {
  const n = vars.n;
  const m = vars.vocab.length;
  const N = n * m;
  const full = (1 << n) - 1;
  const bits = (d) => { const out = []; for (let p = 0; p < n; p++) if (d & (1 << p)) out.push(p); return out; };
  const COUNT = Array.from({ length: 1 << n }, (_, d) => bits(d).length);
  const count = (d) => COUNT[d];
  // each clue: its item indices and every tuple of houses it allows (items of one attribute never share a house)
  const clues = vars.clues.map((c) => {
    const holds = HOLDS[c[0]];
    if (!holds) throw new Error(`unknown clue kind ${c[0]}`);
    const ks = c[1].map(([a, i]) => a * n + i);
    const tuples = [];
    const walk = (ps) => {
      if (ps.length === ks.length) {
        const clash = ps.some((p, s) => ps.some((q, t) => t > s && c[1][s][0] === c[1][t][0] && p === q));
        if (!clash && holds(ps, c)) tuples.push(ps);
        return;
      }
      for (let p = 0; p < n; p++) walk([...ps, p]);
    };
    walk([]);
    // support masks: rows[p] (two items) or rows[p][q] (three) = the houses the last item may take
    const rows = ks.length === 1 ? tuples.reduce((d, [p]) => d | (1 << p), 0)
      : ks.length === 2 ? Array.from({ length: n }, (_, p) => tuples.reduce((d, t) => (t[0] === p ? d | (1 << t[1]) : d), 0))
        : Array.from({ length: n }, (_, p) => Array.from({ length: n }, (_, q) =>
          tuples.reduce((d, t) => (t[0] === p && t[1] === q ? d | (1 << t[2]) : d), 0)));
    return { ks, rows };
  });
  // for each of a clue's items, the houses some choice of its other items allows
  function supported(ks, rows, dom) {
    if (ks.length === 1) return [dom[ks[0]] & rows];
    const seen = [0, 0, 0];
    for (let p = 0; p < n; p++) {
      if (!(dom[ks[0]] & (1 << p))) continue;
      if (ks.length === 2) {
        const h = rows[p] & dom[ks[1]];
        if (h) { seen[0] |= 1 << p; seen[1] |= h; }
        continue;
      }
      for (let q = 0; q < n; q++) {
        if (!(dom[ks[1]] & (1 << q))) continue;
        const h = rows[p][q] & dom[ks[2]];
        if (h) { seen[0] |= 1 << p; seen[1] |= 1 << q; seen[2] |= h; }
      }
    }
    return seen.slice(0, ks.length);
  }
  const watch = Array.from({ length: N }, () => []);
  clues.forEach((c, ci) => new Set(c.ks).forEach((k) => watch[k].push(ci)));

  // false on a contradiction; dom is narrowed in place. A queue of items whose houses changed: each change
  // re-checks that item's clues and its attribute's all-different rule.
  function propagate(dom, changed = null) {
    const queue = changed ? [...changed] : Array.from({ length: N }, (_, k) => k);
    const queued = new Uint8Array(N);
    for (const k of queue) queued[k] = 1;
    const touch = (k) => { if (!queued[k]) { queued[k] = 1; queue.push(k); } };
    while (queue.length) {
      const k = queue.pop();
      queued[k] = 0;
      for (const ci of watch[k]) {
        const { ks, rows } = clues[ci];
        const seen = supported(ks, rows, dom);
        for (let s = 0; s < ks.length; s++) if (seen[s] !== dom[ks[s]]) {
          if (!seen[s]) return false;
          dom[ks[s]] = seen[s];
          touch(ks[s]);
        }
      }
      const a = Math.floor(k / n);
      if (count(dom[k]) === 1) {
        for (let j = a * n; j < a * n + n; j++) if (j !== k && dom[j] & dom[k]) {
          dom[j] &= ~dom[k];
          if (!dom[j]) return false;
          touch(j);
        }
      }
      if (queue.length) continue;
      // hidden singles, once the queue is empty: a house only one item of an attribute can still take
      for (let b = 0; b < m; b++) for (let p = 0; p < n; p++) {
        let holder = -1, many = false;
        for (let j = b * n; j < b * n + n; j++) if (dom[j] & (1 << p)) { many = holder >= 0; holder = j; if (many) break; }
        if (holder < 0) return false;
        if (!many && dom[holder] !== 1 << p) { dom[holder] = 1 << p; touch(holder); }
      }
    }
    return true;
  }
  const solved = (dom) => dom.every((d) => count(d) === 1);
  const open = (dom) => {
    const out = [];
    for (let k = 0; k < N; k++) if (count(dom[k]) > 1) for (const p of bits(dom[k])) out.push([k, p]);
    return out;
  };
  // does assuming item k in house p lead to a contradiction at this level?
  function refuted(dom, k, p, level) {
    const d = dom.slice();
    d[k] = 1 << p;
    if (!propagate(d, [k])) return true;
    return level > 0 && strike(d, level - 1, null) === false;
  }
  // strike refuted assumptions at `level` until none is left; false on a contradiction
  function strike(dom, level, stuck) {
    for (;;) {
      if (solved(dom)) return dom;
      const cands = open(dom);
      const gone = cands.filter(([k, p]) => refuted(dom, k, p, level));
      if (stuck) stuck.push({ open: cands.length, refuted: gone.length });
      if (!gone.length) return dom;
      for (const [k, p] of gone) dom[k] &= ~(1 << p);
      if (!propagate(dom, [...new Set(gone.map(([k]) => k))])) return false;
    }
  }

  const dom = new Array(N).fill(full);
  if (!propagate(dom)) throw new Error('the clues contradict each other');
  const open0 = open(dom).length;
  const level1 = [];
  if (!solved(dom)) strike(dom, 0, level1);
  const level2 = [];
  if (!solved(dom)) strike(dom, 1, level2);
  const first = level2[0];
  return {
    clues: vars.clues.length,
    open_after_propagation: open0,
    level1_rounds: level1.filter((s) => s.refuted > 0).length,
    level2_rounds: level2.filter((s) => s.refuted > 0).length,
    split_rarity: first ? Number((first.refuted / first.open).toFixed(3)) : 1,
    solved_by_level2: solved(dom),
  };
}

for (const puzzle of puzzles) {
  const stdin = JSON.stringify({ seed, params: { ...params, puzzle } });
  const out = JSON.parse(execFileSync(process.execPath, ['-e', base.derive.program], { input: stdin, maxBuffer: 1 << 26 }).toString());
  console.log(JSON.stringify({ puzzle, seed, ...measure(out.vars) }));
}
