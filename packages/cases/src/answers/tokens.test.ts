import { describe, expect, it } from 'vitest';
import { containsTyped as has } from './tokens';

describe('needles match meaning-preserving variants', () => {
  it('currency forms and magnitudes', () => {
    for (const text of ['a €46m contract', 'worth 46 million euros', 'EUR 46 million', '€46 million', '46,000,000 euros', 'a 46 million-euro deal', '46m euros'])
      expect(has(text, '46 million'), text).toBe(true);
    expect(has('a €46m contract', '46 million euros')).toBe(true);
    expect(has('a £46m contract', '46 million euros')).toBe(false);
    expect(has('a €4.6m contract', '46 million')).toBe(false);
  });
  it('number words and units', () => {
    expect(has('refunds within thirty days', '30')).toBe(true);
    expect(has('refunds within thirty days', '30 days')).toBe(true);
    expect(has('25-minute crossings', '25 minutes')).toBe(true);
    expect(has('twenty-five minutes', '25 minutes')).toBe(true);
    expect(has('25 mins', '25 minutes')).toBe(true);
    expect(has('two high findings', '2 high')).toBe(true);
    expect(has('berth six', 'berth 6')).toBe(true);
    expect(has('12.5%', '12.5 percent')).toBe(true);
    expect(has('a hundred and fifty francs', '150')).toBe(true);
  });
  it('numbers are numbers: 16 never matches 160, 16.5 or x16', () => {
    expect(has('the total is 160', '16')).toBe(false);
    expect(has('about 16.5 units', '16')).toBe(false);
    expect(has('model x16', '16')).toBe(false);
    expect(has('Answer: 1,234.', '1234')).toBe(true);
    expect(has('exactly 16.', '16')).toBe(true);
    expect(has('balance of €4,376.30', '4376.30')).toBe(true);
  });
  it('dates and weekdays', () => {
    for (const text of ['on Thursday, June 18', 'Thursday 18th June', 'Thu 18 June 2026', '18 June (Thursday)', 'Thursday the 18th of June'.replace(' the', '')])
      expect(has(text, 'Thursday 18th June'), text).toBe(true);
    expect(has('Thursday 19 June', 'Thursday 18th June')).toBe(false);
    expect(has('in April 2028', 'April 2028')).toBe(true);
    expect(has('in Apr 2028', 'April 2028')).toBe(true);
    expect(has('on Thursday 18 June', 'Thursday')).toBe(true);
    expect(has('since April 2028', '2028')).toBe(true);
  });
  it('times', () => {
    for (const text of ['closes at 17:30', 'closes at 5:30 pm', 'closes at 5.30pm', 'closes at 5:30 p.m.']) expect(has(text, '17:30'), text).toBe(true);
    expect(has('closes at 5:30', '17:30')).toBe(false);
  });
  it('contractions, plurals, codes, coordinates', () => {
    expect(has("I can't open the dashboard", 'cannot open')).toBe(true);
    expect(has('I can not open it', 'cannot open')).toBe(true);
    expect(has("I couldn't check", 'could not check')).toBe(true);
    expect(has('keep the receipts', 'receipt')).toBe(true);
    expect(has('Order ORD-20871 shipped', 'ord-20871')).toBe(true);
    expect(has('Order ORD-208710 shipped', 'ORD-20871')).toBe(false);
    expect(has('at 57.1482° N, 2.0941° W', '-2.0941')).toBe(true);
    expect(has('No, it is not', 'not')).toBe(true);
    expect(has('nothing here', 'not')).toBe(false);
    expect(has('the toll\n booth', 'toll booth')).toBe(true);
  });
});
