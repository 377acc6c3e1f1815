import { makeRedactor } from '@crucibleforge/core';
import { configuredSecrets, secretVariables, type RunnerConfigData } from '@crucibleforge/runner';

export { secretVariables };

/**
 * A last line of defence: replaces the value of every secret variable anywhere in outgoing text. Nothing the
 * server sends should contain a key in the first place; this makes sure a stray error message cannot either.
 */
export function makeScrubber(secrets: readonly string[]): (text: string) => string {
  return makeRedactor(secrets);
}

export function secretsOf(config: RunnerConfigData, env: Record<string, string | undefined>): string[] {
  return configuredSecrets(config, env);
}
