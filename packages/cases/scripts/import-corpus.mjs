#!/usr/bin/env node
// Merges a reply corpus (one <case-id>.yaml per case: {id, right_replies, wrong_replies}, each entry
// {why, reply?, calls?}) into the case files' verify.right_replies / verify.wrong_replies, keeping the
// existing entries, the files' comments and their formatting as far as the yaml library allows.
//
//   node packages/cases/scripts/import-corpus.mjs --corpus DIR [--cases cases] [--seed 1] [--dry-run]
//        [--pin-seeds-to-verify]   (for case sets whose schema has no per-reply seed: verify.seeds
//                                   becomes [SEED] for a seeded case instead)
//        [--exclude CATEGORY]...   (leave that category's case files alone)
//
// Replies of seeded cases were written for one concrete variant (the corpus writers saw seed --seed,
// default 1): each gets `seed: N`, so verify checks it on that seed only. Importing twice adds nothing
// twice (a reply already in either list, trailing whitespace aside, or an entry whose why is already
// there — a triage fixed it — is skipped). Prints what it did.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import YAML from 'yaml';

const { values } = parseArgs({
  options: {
    corpus: { type: 'string' },
    cases: { type: 'string', default: 'cases' },
    seed: { type: 'string', default: '1' },
    'dry-run': { type: 'boolean', default: false },
    'pin-seeds-to-verify': { type: 'boolean', default: false },
    exclude: { type: 'string', multiple: true, default: [] },
  },
});
if (!values.corpus) {
  console.error('usage: import-corpus.mjs --corpus DIR [--cases DIR] [--seed N] [--dry-run] [--pin-seeds-to-verify]');
  process.exit(2);
}
const seed = Number(values.seed);
const casesDir = resolve(values.cases);
const corpusDir = resolve(values.corpus);

/** Every case file of the cases dir, by id (one case per file, the file name is the id). */
async function caseFiles() {
  const out = new Map();
  for (const entry of await readdir(casesDir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === 'profiles' || values.exclude.includes(entry.name)) continue;
    for (const f of await readdir(join(casesDir, entry.name))) {
      if (f.endsWith('.yaml')) out.set(f.slice(0, -5), join(casesDir, entry.name, f));
    }
  }
  return out;
}

// the same reply: the same text (trailing newlines aside), calls and seed, in either list (a triaged reply may have moved)
const key = (e) => JSON.stringify([e.seed ?? null, typeof e.reply === 'string' ? e.reply.replace(/\s+$/, '') : null, e.calls ?? null]);

/** New entries as YAML text, indented as items of a verify list (replies as block literals, each call in flow style). */
function entriesText(entries) {
  const doc = new YAML.Document([]);
  for (const entry of entries) {
    const node = doc.createNode({});
    node.set('why', String(entry.why));
    if (entry.seed !== undefined) node.set('seed', entry.seed);
    if (typeof entry.reply === 'string') {
      const text = entry.reply; // exactly as written: a trailing newline or its absence is part of the reply
      const scalar = doc.createNode(text);
      if (text.includes('\n')) scalar.type = 'BLOCK_LITERAL';
      node.set('reply', scalar);
    }
    if (entry.calls !== undefined) {
      const calls = doc.createNode(entry.calls);
      for (const turn of calls.items ?? []) for (const call of turn.items ?? []) call.flow = true;
      node.set('calls', calls);
    }
    doc.contents.items.push(node);
  }
  return doc
    .toString({ lineWidth: 0 })
    .trimEnd()
    .split('\n')
    .map((l) => (l === '' ? '' : `    ${l}`))
    .join('\n');
}

/**
 * Appends entries to `verify.<field>` by editing the text: the rest of the file stays byte for byte as it
 * was (the yaml library would re-flow scalars and flow maps if it wrote the whole file).
 */
function appendEntries(text, field, entries) {
  const lines = text.replace(/\n*$/, '').split('\n');
  const block = entriesText(entries).split('\n');
  let v = lines.findIndex((l) => /^verify:\s*$/.test(l));
  if (v < 0) {
    lines.push('verify:');
    v = lines.length - 1;
  }
  let end = lines.findIndex((l, i) => i > v && /^\S/.test(l));
  if (end < 0) end = lines.length;
  while (end - 1 > v && lines[end - 1].trim() === '') end--;
  const start = lines.findIndex((l, i) => i > v && i < end && l.startsWith(`  ${field}:`));
  if (start < 0) {
    lines.splice(end, 0, `  ${field}:`, ...block);
  } else {
    let stop = lines.findIndex((l, i) => i > start && i < end && /^ {0,2}\S/.test(l));
    if (stop < 0) stop = end;
    while (stop - 1 > start && lines[stop - 1].trim() === '') stop--;
    lines.splice(stop, 0, ...block);
  }
  return `${lines.join('\n')}\n`;
}

/** The case file's data without the verify lists (what an import must leave alone). */
function outside(def) {
  const { verify = {}, ...rest } = def;
  const { right_replies, wrong_replies, seeds, ...otherVerify } = verify;
  return JSON.stringify([rest, otherVerify]);
}

const files = await caseFiles();
const corpus = (await readdir(corpusDir)).filter((f) => f.endsWith('.yaml')).sort();
const summary = { files: 0, right: 0, wrong: 0, skipped: 0, unknown: [], problems: [] };
for (const name of corpus) {
  const path = join(corpusDir, name);
  let data;
  try {
    data = YAML.parse(await readFile(path, 'utf8'));
  } catch (error) {
    summary.problems.push(`${name}: not YAML: ${error.message.split('\n')[0]}`);
    continue;
  }
  const id = data?.id ?? name.slice(0, -5);
  const target = files.get(id);
  if (!target) {
    if (!values.exclude.some((c) => id.startsWith(`${c}-`))) summary.unknown.push(id);
    continue;
  }
  let text = await readFile(target, 'utf8');
  const def = YAML.parse(text);
  const seeded = def.params !== undefined || def.derive !== undefined;
  const pin = seeded && !values['pin-seeds-to-verify'] ? seed : null;
  const before = outside(def);
  const wanted = { right_replies: [], wrong_replies: [] };
  for (const field of ['right_replies', 'wrong_replies']) {
    const entries = data?.[field] ?? [];
    if (!Array.isArray(entries)) {
      summary.problems.push(`${name}: ${field} is not a list`);
      continue;
    }
    const seen = new Set([...(def.verify?.right_replies ?? []), ...(def.verify?.wrong_replies ?? []), ...wanted.right_replies, ...wanted.wrong_replies].map(key));
    const whys = new Set([...(def.verify?.right_replies ?? []), ...(def.verify?.wrong_replies ?? [])].map((x) => x.why));
    for (const [i, e] of entries.entries()) {
      if (!e || typeof e.why !== 'string' || (typeof e.reply !== 'string' && e.calls === undefined)) {
        summary.problems.push(`${name}: ${field}[${i}] needs why and a reply or calls`);
        continue;
      }
      const entry = { why: e.why, ...(pin === null ? {} : { seed: pin }), ...(typeof e.reply === 'string' ? { reply: e.reply } : {}), ...(e.calls === undefined ? {} : { calls: e.calls }) };
      // already there: the same reply, or an entry with the same why (a triage fixed its reply or calls)
      if (seen.has(key(entry)) || whys.has(entry.why)) {
        summary.skipped++;
        continue;
      }
      seen.add(key(entry));
      wanted[field].push(entry);
    }
  }
  for (const field of ['right_replies', 'wrong_replies']) if (wanted[field].length > 0) text = appendEntries(text, field, wanted[field]);
  if (seeded && values['pin-seeds-to-verify']) {
    text = /^  seeds:.*$/m.test(text.slice(text.search(/^verify:/m))) ? text.replace(/^(verify:[\s\S]*?)^  seeds:.*$/m, `$1  seeds: [${seed}]`) : text.replace(/^verify:\s*$/m, `verify:\n  seeds: [${seed}]`);
  }
  // the import must parse back to the same case plus exactly the new entries
  const after = YAML.parse(text);
  const norm = (e) => key(e);
  for (const field of ['right_replies', 'wrong_replies']) {
    const got = (after.verify?.[field] ?? []).map(norm);
    const want = [...(def.verify?.[field] ?? []), ...wanted[field]].map(norm);
    if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error(`${target}: ${field} did not round-trip`);
  }
  if (outside(after) !== before) throw new Error(`${target}: the import changed something outside the verify lists`);
  summary.right += wanted.right_replies.length;
  summary.wrong += wanted.wrong_replies.length;
  summary.files++;
  if (!values['dry-run']) await writeFile(target, text);
}
console.log(
  `${values['dry-run'] ? 'dry run: ' : ''}${summary.files} corpus files: ${summary.right} right and ${summary.wrong} wrong replies added, ${summary.skipped} already there`,
);
if (summary.unknown.length) console.log(`no case for: ${summary.unknown.join(', ')}`);
for (const p of summary.problems) console.log(`problem: ${p}`);
process.exit(summary.problems.length > 0 ? 1 : 0);
