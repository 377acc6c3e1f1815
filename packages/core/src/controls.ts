/**
 * Model output is untrusted text: an escape sequence in it can recolour, move the cursor, retitle or clear a
 * terminal, and a stray control character can break a Markdown table. Every C0 control except tab and newline,
 * DEL and every C1 control becomes its visible Unicode picture (ESC → ␛, CR → ␍, BEL → ␇, DEL → ␡) or `\u0085`
 * (C1 has no pictures), so what was there stays readable and does nothing.
 */
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function neutralizeControls(text: string): string {
  return text.replace(CONTROLS, (ch) => {
    const code = ch.charCodeAt(0);
    if (code < 0x20) return String.fromCharCode(0x2400 + code);
    if (code === 0x7f) return '\u2421';
    return `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
