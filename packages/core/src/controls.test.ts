import { describe, expect, it } from 'vitest';
import { neutralizeControls } from './controls';

describe('neutralizeControls', () => {
  it('turns escape sequences and other controls into visible, inert characters', () => {
    const hostile = 'ok\u001b[31mRED\u001b[0m\u001b]0;pwned\u0007 back\bspace\rover\u007f\u009b2J';
    const safe = neutralizeControls(hostile);
    expect(safe).toBe('ok␛[31mRED␛[0m␛]0;pwned␇ back␈space␍over␡\\u009b2J');
    expect(safe).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });

  it('keeps newlines, tabs and every printable character, Unicode included', () => {
    const text = 'line 1\n\tline 2 — ünïcødé ✓ 🙂';
    expect(neutralizeControls(text)).toBe(text);
  });
});
