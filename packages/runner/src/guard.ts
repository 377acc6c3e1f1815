import { sameModel } from '@crucibleforge/timing';
import type { ResolvedModel } from './config';

export type VerifyMode = 'strict' | 'prefix' | 'off';

/** Hosted APIs alias ids (`gpt-4o` → `gpt-4o-2024-08-06`, `vendor/x` → `vendor/x-v2`), so they get `prefix`. */
export function verifyModeOf(model: ResolvedModel): VerifyMode {
  return model.model.verify_model ?? (model.local ? 'strict' : 'prefix');
}

const lastSegment = (id: string) => (id.trim().toLowerCase().split('/').pop() ?? '').replace(/:latest$/, '');

/**
 * The wrong-model guard. Fails closed: a reply that names no model is a mismatch unless the guard is off.
 * `strict` allows only decorations of the same id (case, vendor prefix, `.gguf`, `:latest`, a date suffix);
 * `prefix` also allows a longer id that starts with the requested one. Returns null when acceptable.
 */
export function wrongModelReason(mode: VerifyMode, requested: string, served: string | null): string | null {
  if (mode === 'off') return null;
  if (served === null || served.trim() === '') {
    return `the endpoint did not say which model answered (asked for "${requested}"); refusing to record unverified results`;
  }
  if (sameModel(requested, served)) return null;
  if (mode === 'prefix') {
    const a = lastSegment(requested);
    const b = lastSegment(served);
    if (a !== '' && b !== '' && (b.startsWith(a) || a.startsWith(b))) return null;
  }
  return `asked for "${requested}" but "${served}" answered`;
}
