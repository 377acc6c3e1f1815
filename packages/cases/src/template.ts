import { casesError } from './errors';

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
const WHOLE = /^\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}$/;

/** The placeholder names a text uses. */
export function placeholders(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => m[1]!);
}

function show(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * Fills `{{name}}` placeholders. A string that is exactly one placeholder takes the value as it is (a number
 * stays a number, a map stays a map); inside longer text, non-strings are written as JSON. An unknown name
 * throws CASES_TEMPLATE naming the field.
 */
export function fillTemplate<T>(value: T, scope: Record<string, unknown>, where: string): T {
  if (typeof value === 'string') {
    const whole = WHOLE.exec(value);
    if (whole) {
      if (!(whole[1]! in scope)) throw casesError('CASES_TEMPLATE', `${where}: unknown placeholder {{${whole[1]}}}`);
      return scope[whole[1]!] as T;
    }
    return value.replace(PLACEHOLDER, (_, name: string) => {
      if (!(name in scope)) throw casesError('CASES_TEMPLATE', `${where}: unknown placeholder {{${name}}}`);
      return show(scope[name]);
    }) as T;
  }
  if (Array.isArray(value)) return value.map((v, i) => fillTemplate(v, scope, `${where}[${i}]`)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = fillTemplate(v, scope, where ? `${where}.${k}` : k);
    return out as T;
  }
  return value;
}
