import { describe, expect, it } from 'vitest';
import type { Check } from '../schema/checks';
import { countProblem, runCheck, runChecks } from './library';

const run = (check: Check, text: string) => runCheck(check, text);

describe('countProblem', () => {
  it('checks exactly, min and max', () => {
    expect(countProblem(5, { exactly: 5 })).toBeNull();
    expect(countProblem(4, { exactly: 5 })).toBe('expected exactly 5');
    expect(countProblem(2, { min: 3 })).toBe('expected at least 3');
    expect(countProblem(9, { min: 3, max: 8 })).toBe('expected at most 8');
  });
});

describe('instruction checks', () => {
  it('word_count excludes bullet markers (26 words written as a list are 26)', () => {
    const text = Array.from({ length: 13 }, (_, i) => `- word${i} more`).join('\n');
    expect(run({ check: 'word_count', exactly: 26 }, text)).toEqual({ pass: true, detail: '26 words' });
    expect(run({ check: 'word_count', max: 20 }, text)).toEqual({ pass: false, detail: '26 words, expected at most 20' });
  });
  it('sentence_count, paragraph_count, line_count, char_count', () => {
    expect(run({ check: 'sentence_count', exactly: 2 }, 'It costs 2.5 marks. Buy it.').pass).toBe(true);
    expect(run({ check: 'paragraph_count', exactly: 3 }, 'a\n\nb\n\nc').pass).toBe(true);
    expect(run({ check: 'line_count', exactly: 2 }, 'a\n\n\nb\n').pass).toBe(true);
    expect(run({ check: 'char_count', max: 5 }, '  héllo  ').pass).toBe(true);
    expect(run({ check: 'char_count', max: 4 }, 'hello').detail).toBe('5 characters, expected at most 4');
  });
  it('bullet_count by style', () => {
    expect(run({ check: 'bullet_count', exactly: 3, style: 'numbered' }, '1. a\n2. b\n3. c\n- d').pass).toBe(true);
    expect(run({ check: 'bullet_count', exactly: 3, style: 'numbered' }, '1. a\n2. b\n- c').detail).toBe('2 bullets, expected exactly 3');
  });
  it('word_frequency counts whole words only', () => {
    expect(run({ check: 'word_frequency', word: 'tide', exactly: 2 }, 'Tide, tidewater, the tide.').pass).toBe(true);
  });
  it('regex_count, regex, forbid_regex, every_line', () => {
    expect(run({ check: 'regex_count', pattern: '\\d+', exactly: 3 }, 'a1 b22 c333').pass).toBe(true);
    expect(run({ check: 'regex', pattern: '^Q\\d' }, 'Q1 report').pass).toBe(true);
    expect(run({ check: 'forbid_regex', pattern: 'https?://' }, 'see http://x').detail).toBe('forbidden pattern found: "http://"');
    expect(run({ check: 'every_line', pattern: '^[A-Z]' }, 'Alpha\nbeta').detail).toBe('line "beta" does not match');
  });
  it('letter_case and forbidden_letters', () => {
    expect(run({ check: 'letter_case', mode: 'lower' }, 'all quiet, 2 ships.').pass).toBe(true);
    expect(run({ check: 'letter_case', mode: 'lower' }, 'all Quiet').detail).toBe('"Quiet" is not lowercase');
    expect(run({ check: 'forbidden_letters', letters: 'e' }, 'A big dog was in a pit.').pass).toBe(true);
    expect(run({ check: 'forbidden_letters', letters: 'e' }, 'The dog').detail).toBe('letter "e" used');
  });
  it('forbidden and required words use word boundaries', () => {
    expect(run({ check: 'forbidden_words', words: ['very'] }, 'Everyone was every bit calm.').pass).toBe(true);
    expect(run({ check: 'forbidden_words', words: ['very'] }, 'It was Very calm.').pass).toBe(false);
    expect(run({ check: 'required_words', words: ['ferry', 'toll booth'] }, 'The ferry stopped at the toll\nbooth.').pass).toBe(true);
    expect(run({ check: 'required_words', words: ['ferry'] }, 'ferrymen only').detail).toBe('required word "ferry" missing');
  });
  it('required_sections in order, by markdown, bold or colon headings', () => {
    const text = '## Summary\ntext\n**Risks**\n- one\nNext steps: call them';
    expect(run({ check: 'required_sections', sections: ['Summary', 'Risks', 'Next steps'] }, text).pass).toBe(true);
    expect(run({ check: 'required_sections', sections: ['Risks', 'Summary'] }, text).detail).toBe('section "Summary" out of order');
    expect(run({ check: 'required_sections', sections: ['Risks', 'Summary'], ordered: false }, text).pass).toBe(true);
    expect(run({ check: 'required_sections', sections: ['Budget'] }, text).detail).toBe('section "Budget" missing');
  });
  it('starts_with / ends_with trim the reply', () => {
    expect(run({ check: 'starts_with', text: 'Dear' }, '  Dear team,\n...').pass).toBe(true);
    expect(run({ check: 'ends_with', text: 'Regards.' }, 'x\nRegards.\n\n').pass).toBe(true);
    expect(run({ check: 'ends_with', text: 'regards.', ignore_case: true }, 'Regards.').pass).toBe(true);
  });
  it('order of first mentions', () => {
    expect(run({ check: 'order', items: ['north', 'east', 'south'] }, 'north then east then south').pass).toBe(true);
    expect(run({ check: 'order', items: ['north', 'south'] }, 'south, then north').detail).toBe('"south" comes too early');
    expect(run({ check: 'order', items: ['north', 'west'] }, 'north').detail).toBe('"west" not mentioned');
  });
  it('exact_text and json', () => {
    expect(run({ check: 'exact_text', text: 'OK' }, ' OK \n').pass).toBe(true);
    expect(run({ check: 'json', keys: { a: 'integer' }, whole_reply: true }, '```json\n{"a": 1}\n```').pass).toBe(true);
    expect(run({ check: 'json', keys: { a: 'integer' } }, '{"a": true}').detail).toBe('a: expected integer, got boolean');
  });
  it('json values: path → exact value, as the json grader', () => {
    const check: Check = { check: 'json', keys: { crates: 'integer', to: { array: 'string' } }, values: { crates: 36, 'to[1]': 'Varn' } };
    expect(run(check, '{"crates": 36, "to": ["Ostrel", "Varn"]}').pass).toBe(true);
    expect(run(check, '{"crates": 35, "to": ["Ostrel", "Varn"]}').detail).toBe('crates: expected 36, got 35');
    expect(run(check, '{"crates": 36, "to": ["Ostrel"]}').detail).toBe('to[1]: missing');
  });
  it('count units are pluralised properly ("matches", not "matchs")', () => {
    expect(run({ check: 'regex_count', pattern: '\\d', exactly: 1 }, 'a1 b2').detail).toBe('2 matches, expected exactly 1');
    expect(run({ check: 'regex_count', pattern: '\\d', exactly: 2 }, 'a1').detail).toBe('1 match, expected exactly 2');
    expect(run({ check: 'word_frequency', word: 'tide', exactly: 1 }, 'tide tide').detail).toBe('2 "tide" occurrences, expected exactly 1');
    expect(run({ check: 'sentence_count', exactly: 1 }, 'It rained. It stopped.').detail).toBe('2 sentences, expected exactly 1');
  });
  it('runChecks names the first failure by label or index', () => {
    const r = runChecks([{ check: 'word_count', max: 100 }, { check: 'starts_with', text: 'Yes', label: 'opener' }], 'No way');
    expect(r.firstFailure).toBe('check opener failed: starts with "No way", expected "Yes"');
    expect(runChecks([{ check: 'word_count', exactly: 1 }], 'a b').firstFailure).toBe('check 1 word_count failed: 2 words, expected exactly 1');
  });
});

describe('prose counts and code blocks', () => {
  const reply = 'I cannot run the scan. Here is how. It is short.\n\n```json\n{"a": "One. Two. Three. Four."}\n```';
  it('prose: counts leave out code blocks and bare JSON', () => {
    expect(runCheck({ check: 'sentence_count', max: 3, prose: true }, reply).pass).toBe(true);
    expect(runCheck({ check: 'sentence_count', max: 3 }, reply).pass).toBe(false);
    expect(runCheck({ check: 'sentence_count', max: 3, prose: true }, 'One. Two. Three. {"a": "x. y. z."}').pass).toBe(true);
    expect(runCheck({ check: 'sentence_count', max: 3, prose: true }, 'One. Two. Three. Four.\n```json\n{}\n```').detail).toBe('4 sentences, expected at most 3');
    const multi = 'One. Two.\n\n```json\n{\n  "a": [\n    {"b": "c. d. e."}\n  ]\n}\n```\nThree.';
    expect(runCheck({ check: 'sentence_count', exactly: 3, prose: true }, multi).detail).toBe('3 sentences');
    expect(runCheck({ check: 'sentence_count', exactly: 2, prose: true }, 'One. Two.\n```\nunclosed. x. y.').detail).toBe('2 sentences');
  });
  it('code_block_count: by language', () => {
    expect(runCheck({ check: 'code_block_count', lang: 'json', exactly: 1 }, reply).pass).toBe(true);
    expect(runCheck({ check: 'code_block_count', lang: 'json', exactly: 1 }, `${reply}\n\`\`\`json\n{}\n\`\`\``).detail).toBe('2 json code blocks, expected exactly 1');
  });
});
