import { describe, expect, it } from 'vitest';
import { gradeAssignments, gradeChoice, gradeExact } from '../graders/answer';
import type { GraderOf } from '../schema/graders';
import { extractAnswer } from './index';
import { optionTexts } from './choice';

type Exact = GraderOf<'exact'>;
const exact = (grader: Omit<Exact, 'type'>, expected: string, reply: string, question = '') =>
  gradeExact({ type: 'exact', ...grader }, expected, reply, undefined, { question });

describe('short text answers with a declared normaliser', () => {
  const q = 'Which lot of copper rivets has to be set aside? Which well is the deepest?';
  it('fold: case, punctuation and markdown do not matter; harmless prefixes repeating the question do not either', () => {
    for (const reply of ['Answer: Greyfold', 'Answer: **greyfold.**', 'Answer: the Greyfold well', 'Answer: Greyfold (212 fathoms)', '**Final answer:** *Greyfold*'])
      expect(exact({}, 'Greyfold', reply, q).status, reply).toBe('pass');
  });
  it('code: only letters and digits count; "lot 7Q-8814" repeats the question noun', () => {
    for (const reply of ['Answer: lot 7Q-8814', 'Answer: 7q 8814', 'Answer: `7Q-8814`', 'Answer: 7Q–8814', 'Answer: Lot 7Q-8814.'])
      expect(exact({ normaliser: 'code' }, '7Q-8814', reply, q).status, reply).toBe('pass');
    expect(exact({ normaliser: 'code' }, '7Q-8814', 'Answer: 7Q-8841', q).status).toBe('fail');
    expect(exact({ normaliser: 'code' }, '7Q-8814', 'Answer: lot 7Q-8814 or lot 7Q-8841', q)).toMatchObject({ status: 'fail', reason: expect.stringMatching(/^a hedge/) });
  });
  it('a different name is not a harmless prefix: only lower-case words of the question qualify', () => {
    const question = 'Who broke the window: Oona, Wanda or Ilse?';
    expect(exact({}, 'Wanda', 'Answer: Wanda', question).status).toBe('pass');
    expect(exact({}, 'Wanda', 'Answer: Oona Wanda', question).status).toBe('fail');
    expect(exact({}, 'Wanda', 'Answer: not Wanda', question).status).toBe('fail');
    expect(exact({}, 'Wanda', 'Answer: Wanda or Ilse', question).status).toBe('fail');
  });
  it('time: 9:27 = 09:27 = 9.27 am; 9:27 pm is 21:27', () => {
    for (const reply of ['Answer: 09:27', 'Answer: 9:27', 'Answer: 9.27 am', 'Answer: **09:27**'])
      expect(exact({ normaliser: 'time' }, '09:27', reply).status, reply).toBe('pass');
    expect(exact({ normaliser: 'time' }, '21:27', 'Answer: 9:27 pm').status).toBe('pass');
    expect(exact({ normaliser: 'time' }, '09:27', 'Answer: 9:27 pm').status).toBe('fail');
  });
  it('the last explicit answer wins', () => {
    expect(exact({}, 'blue', 'Answer: red\n\nHmm, no. Answer: blue').status).toBe('pass');
    expect(exact({}, 'blue', 'Answer: blue\n\nActually, Answer: red').status).toBe('fail');
  });
  it('extractAnswer gives the normal form', () => {
    expect(extractAnswer({ kind: 'text', normaliser: 'code' }, 'So...\n**Answer:** `bx-4402`.')).toMatchObject({ ok: true, value: 'BX4402' });
  });
});

describe('ordered lists and unordered sets', () => {
  const coins = 'Twelve coins are labelled A to L. Which two coins are counterfeit?';
  it('list words: "and", "&", a final ", and"; harmless prefixes and suffixes', () => {
    for (const reply of ['Answer: I, J', 'Answer: I and J', 'Answer: I & J', 'Answer: Coins I and J', 'Answer: I and J are counterfeit', 'Answer: the counterfeit coins are I and J', '**Answer:** $I, J$'])
      expect(exact({ kind: 'set', normaliser: 'code' }, 'I, J', reply, coins).status, reply).toBe('pass');
  });
  it('a set forgives order, a list does not', () => {
    expect(exact({ kind: 'set', normaliser: 'code' }, 'I, J', 'Answer: J, I', coins).status).toBe('pass');
    expect(exact({ kind: 'list', normaliser: 'code' }, 'I, J', 'Answer: J, I', coins).status).toBe('fail');
    expect(exact({ kind: 'set', normaliser: 'code' }, 'I, J', 'Answer: I, J, K', coins).status).toBe('fail');
    expect(exact({ kind: 'set', normaliser: 'code' }, 'I, J', 'Answer: I', coins).status).toBe('fail');
  });
  it('"or" is a hedge unless the grader allows it; a negation qualifies the answer', () => {
    expect(exact({ kind: 'set', normaliser: 'code' }, 'I, J', 'Answer: I or J', coins).reason).toMatch(/^a hedge/);
    expect(exact({ kind: 'set', normaliser: 'code', or: true }, 'I, J', 'Answer: I or J', coins).status).toBe('pass');
    expect(exact({ kind: 'set', normaliser: 'code' }, 'I, J', 'Answer: I and J, not K', coins).status).toBe('fail');
  });
  it('statement numbers with their noun', () => {
    const q = 'Which of the statements are true? Give the numbers of the true statements.';
    for (const reply of ['Answer: 2, 4, 5', 'Answer: Statements 2, 4 and 5 are true', 'Answer: 2, 4 and 5', 'Answer: statements 2, 4, and 5'])
      expect(exact({ kind: 'set', normaliser: 'number' }, '2, 4, 5', reply, q).status, reply).toBe('pass');
    expect(exact({ kind: 'set', normaliser: 'number' }, '2, 4, 5', 'Answer: 2, 4 and 6', q).status).toBe('fail');
  });
  it('names in order, with arrows, bullets, a numbered list or on separate lines', () => {
    const want = 'Torven Ashgrove, Maelis Crannock, Idony Fairweather';
    for (const reply of [
      'Answer: Torven Ashgrove, Maelis Crannock and Idony Fairweather',
      'Answer: Torven Ashgrove → Maelis Crannock → Idony Fairweather',
      'Answer:\n- Torven Ashgrove\n- Maelis Crannock\n- Idony Fairweather',
      'Answer:\n1. Torven Ashgrove\n2. Maelis Crannock\n3. Idony Fairweather\n\nLet me know if you need more.',
    ])
      expect(exact({ kind: 'list' }, want, reply).status, reply).toBe('pass');
    expect(exact({ kind: 'list' }, want, 'Answer: Maelis Crannock, Torven Ashgrove, Idony Fairweather').status).toBe('fail');
  });
  it('single letters written together, grid rows on lines or in one line', () => {
    expect(exact({ kind: 'list', normaliser: 'code' }, 'S, Q, T, P, R', 'Answer: SQTPR').status).toBe('pass');
    expect(exact({ kind: 'list', normaliser: 'code' }, 'S, Q, T, P, R', 'Answer: S → Q → T → P → R').status).toBe('pass');
    const grid = '110010 101001 001101';
    expect(exact({ kind: 'list', normaliser: 'code' }, grid, 'Answer: 110010 101001 001101').status).toBe('pass');
    expect(exact({ kind: 'list', normaliser: 'code' }, grid, 'Answer:\n110010\n101001\n001101').status).toBe('pass');
    expect(exact({ kind: 'list', normaliser: 'code' }, grid, 'Answer:\n```\n1 1 0 0 1 0\n1 0 1 0 0 1\n0 0 1 1 0 1\n```').status).toBe('pass');
    expect(exact({ kind: 'list', normaliser: 'code' }, grid, 'Answer: 110010 101001 001100').status).toBe('fail');
    // an ordinal label on every line is not an item
    for (const reply of ['Answer:\nRow 1: 110010\nRow 2: 101001\nRow 3: 001101', 'Answer:\nR1 = 110010\nR2 = 101001\nR3 = 001101', 'Answer:\n1: 110010\n2: 101001\n3: 001101', '**Answer:**\n- Row 1 – 110010\n- Row 2 – 101001\n- Row 3 – 001101']) {
      expect(exact({ kind: 'list', normaliser: 'code' }, grid, reply).status, reply).toBe('pass');
    }
    expect(exact({ kind: 'list', normaliser: 'code' }, grid, 'Answer:\nRow 1: 110010\nRow 2: 001101\nRow 3: 101001').status).toBe('fail');
    expect(exact({ kind: 'list', normaliser: 'code' }, grid, 'Answer:\nRow 1: 110010\nRow 2: 101001').status).toBe('fail');
  });
  it('items that contain "and" keep it', () => {
    expect(exact({ kind: 'list' }, 'Salt and Pepper, Bread', 'Answer: Salt and Pepper, Bread').status).toBe('pass');
  });
});

describe('multiple choice', () => {
  const question = 'Which ship is missing?\nA) Grey Tansy B) Kettle Wren C) Amber Pike D) Merrow Lark\nFinish with `Answer: <letter>`.';
  const choice = (reply: string) => gradeChoice({ type: 'choice', options: ['A', 'B', 'C', 'D'] }, 'C', reply, undefined, { question });
  it('by letter in any dress, or by the option text', () => {
    for (const reply of ['Answer: C', 'Answer: (C)', 'Answer: C) Amber Pike', 'Answer: **C**', 'Answer: Amber Pike', 'Answer: C (Amber Pike)', 'The answer is C.'])
      expect(choice(reply).status, reply).toBe('pass');
  });
  it('two options, or a letter that disagrees with its text, fail', () => {
    expect(choice('Answer: B or C').reason).toBe('several options given: B, C');
    expect(choice('Answer: C) Kettle Wren').reason).toBe('several options given: C, B');
    expect(choice('Answer: A').reason).toBe('expected C, chose A');
  });
  it('reads option texts inline and one per line', () => {
    expect([...optionTexts('A) one B) two\nC. three\n(D) four', ['A', 'B', 'C', 'D'])]).toEqual([['A', 'one'], ['B', 'two'], ['C', 'three'], ['D', 'four']]);
  });
});

describe('mappings name → value', () => {
  const want = { Ada: 'cat', Bo: 'dog', Cy: 'fish' };
  const g = { type: 'assignments' as const };
  it('lines, sentences and clauses', () => {
    expect(gradeAssignments(g, want, 'Answer:\nAda: cat\nBo: dog\nCy: fish').status).toBe('pass');
    expect(gradeAssignments(g, want, 'Reasoning: Ada cannot have the dog...\nAnswer: Ada has the cat, Bo has the dog and Cy owns the fish.').status).toBe('pass');
    expect(gradeAssignments(g, want, 'Answer:\n- **Ada** → cat\n- **Bo** → dog\n- **Cy** → fish').status).toBe('pass');
  });
  it('a markdown table, by rows or by columns', () => {
    expect(gradeAssignments(g, want, 'Answer:\n| Person | Pet |\n|---|---|\n| Ada | cat |\n| Bo | dog |\n| Cy | fish |').status).toBe('pass');
    expect(gradeAssignments(g, want, 'Answer:\n| | Ada | Bo | Cy |\n|---|---|---|---|\n| Pet | cat | dog | fish |').status).toBe('pass');
  });
  it('a table row with several keys for one value (attributes by house number)', () => {
    const houses = { Farid: '1', kayak: '1', Gita: '2', canoe: '2' };
    const r = gradeAssignments({ type: 'assignments', values: ['1', '2'] }, houses, 'Answer:\n| House | Resident | Boat |\n|---|---|---|\n| 1 | Farid | kayak |\n| 2 | Gita | canoe |');
    expect(r.status).toBe('pass');
  });
  it('scores per element; the last assignment of a key wins', () => {
    const r = gradeAssignments(g, want, 'Answer:\n- Ada: cat\n- Bo: fish\n- Cy: dog');
    expect(r).toMatchObject({ status: 'fail', reason: '1/3 right; Bo: expected dog, got fish' });
    expect(r.score).toBeCloseTo(1 / 3);
    expect(gradeAssignments(g, want, 'Answer:\nAda: cat\nBo: fish\nCy: fish\nCorrection: Bo: dog').status).toBe('pass');
  });
  it('extractAnswer returns the map', () => {
    expect(extractAnswer({ kind: 'mapping', keys: ['Lio', 'Mae'], values: ['knight', 'knave'] }, 'Answer:\nLio: knight\nMae: knave')).toMatchObject({ ok: true, value: { Lio: 'knight', Mae: 'knave' } });
  });
});

describe('number lists keep their signs', () => {
  it('a longitude without its minus sign is wrong', () => {
    expect(exact({ kind: 'list', normaliser: 'number' }, '57.1482, -2.0941', 'Answer: 57.1482, -2.0941').status).toBe('pass');
    expect(exact({ kind: 'list', normaliser: 'number' }, '57.1482, -2.0941', 'Answer: 57.1482, 2.0941').status).toBe('fail');
  });
});

describe('letter lists', () => {
  const key = (reply: string) => exact({ kind: 'list', normaliser: 'letter' }, 'BACBCC', reply).status;
  it('an answer key written together, spaced, numbered or with commas', () => {
    for (const reply of ['Answer: BACBCC', 'Answer: B A C B C C', 'Answer: B, A, C, B, C, C', 'Answer: 1. B 2. A 3. C 4. B 5. C 6. C', 'Answer: **BACBCC**', 'Answer:\n1) B\n2) A\n3) C\n4) B\n5) C\n6) C'])
      expect(key(reply), reply).toBe('pass');
    expect(key('Answer: BACBCA')).toBe('fail');
    expect(key('Answer: BACBC')).toBe('fail');
  });
  it('fold writes clock times one way', () => {
    expect(exact({}, 'Monday 9:00', 'Answer: Monday 09:00').status).toBe('pass');
    expect(exact({}, 'Monday 9:00', 'Answer: monday 9.00').status).toBe('pass');
    expect(exact({}, 'Monday 9:00', 'Answer: Monday 19:00').status).toBe('fail');
  });
});
