/** The user's config and cache folders (no package imports: cheap for every command). */
import { join } from 'node:path';
import type { CliIO } from './io';

/** `$XDG_CONFIG_HOME/crucibleforge` or `~/.config/crucibleforge`. */
export function userConfigDir(env: CliIO['env']): string | undefined {
  const base = env['XDG_CONFIG_HOME'] || (env['HOME'] ? join(env['HOME'], '.config') : undefined);
  return base ? join(base, 'crucibleforge') : undefined;
}

/** `$XDG_CACHE_HOME/crucibleforge` or `~/.cache/crucibleforge` (local GPU lock files live under it). */
export function userCacheDir(env: CliIO['env']): string | undefined {
  const base = env['XDG_CACHE_HOME'] || (env['HOME'] ? join(env['HOME'], '.cache') : undefined);
  return base ? join(base, 'crucibleforge') : undefined;
}
