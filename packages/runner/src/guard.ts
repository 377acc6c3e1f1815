import { servedModelMatches, type ModelMatchMode } from '@crucibleforge/core';
import type { ResolvedModel } from './config';

export type VerifyMode = ModelMatchMode | 'off';

/** Hosted APIs alias ids (`gpt-4o` → `gpt-4o-2024-08-06`, `vendor/x` → `vendor/x-v2`), so they get `prefix`. */
export function verifyModeOf(model: ResolvedModel): VerifyMode {
  return model.model.verify_model ?? (model.local ? 'strict' : 'prefix');
}

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
  if (servedModelMatches(mode, requested, served)) return null;
  return `asked for "${requested}" but "${served}" answered`;
}
