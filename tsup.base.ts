import type { Options } from 'tsup';

/** The one build recipe every package re-uses: ESM, .d.ts, sourcemaps, node20. */
export function packageBuild(entry: string[] | Record<string, string>, extra: Options = {}): Options {
  return {
    entry,
    format: ['esm'],
    dts: true,
    sourcemap: true,
    clean: true,
    platform: 'node',
    target: 'node20',
    ...extra,
  };
}
