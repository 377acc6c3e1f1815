import { describe, expect, it } from 'vitest';
import { bulletLines, caseViolation, headingTitle, paragraphs, sentences, words } from './units';

describe('words', () => {
  it('does not count bullet markers, numbering or heading hashes', () => {
    expect(words('- apples and pears\n* plums\n1. figs\n2) dates\n## Fruit')).toEqual(['apples', 'and', 'pears', 'plums', 'figs', 'dates', 'Fruit']);
  });
  it('keeps contractions, hyphenated words and decimals whole', () => {
    expect(words("It's a well-known 3.5 ratio — isn't it?")).toEqual(["It's", 'a', 'well-known', '3.5', 'ratio', "isn't", 'it']);
  });
  it('counts a stray dash or emoji as nothing', () => {
    expect(words('one - two — three 🎉')).toHaveLength(3);
  });
});

describe('sentences', () => {
  it('does not split at decimals, abbreviations or initials', () => {
    expect(sentences('Dr. Ilves paid 3.50 marks, e.g. for rope. J. R. Holt agreed. Did he?')).toEqual([
      'Dr. Ilves paid 3.50 marks, e.g. for rope.',
      'J. R. Holt agreed.',
      'Did he?',
    ]);
  });
  it('treats each list item as a sentence even without a full stop', () => {
    expect(sentences('Plan:\n- buy rope\n- tar the punts.\n\nDone!')).toHaveLength(4);
  });
  it('handles ellipses and closing quotes', () => {
    expect(sentences('He waited... "Enough!" she said. Then quiet.')).toHaveLength(4);
  });
});

describe('paragraphs, bullets, headings, case', () => {
  it('splits paragraphs at blank lines, ignoring empty ones', () => {
    expect(paragraphs('a b\nc\n\n\n  \nd\n\n---\n')).toEqual(['a b\nc', 'd']);
  });
  it('counts bullets by style', () => {
    const text = '- a\n* b\n• c\n1. d\n2) e\n-not a bullet';
    expect(bulletLines(text)).toHaveLength(5);
    expect(bulletLines(text, 'dash')).toHaveLength(1);
    expect(bulletLines(text, 'star')).toHaveLength(2);
    expect(bulletLines(text, 'numbered')).toHaveLength(2);
  });
  it('strips heading decoration', () => {
    expect(headingTitle('## Risks ##')).toBe('Risks');
    expect(headingTitle('**Next steps:**')).toBe('Next steps:');
    expect(headingTitle('**Summary**:')).toBe('Summary:');
  });
  it('looks only at letters for case, with allowed exceptions', () => {
    expect(caseViolation('all lower, 42 & co.', 'lower')).toBeNull();
    expect(caseViolation('we use the API daily', 'lower', ['API'])).toBeNull();
    expect(caseViolation('we use the Api daily', 'lower', ['API'])).toBe('Api');
    expect(caseViolation('SHOUT 123 — OK!', 'upper')).toBeNull();
  });
});
