import type { RunnerConfigData } from '@crucibleforge/runner';

/** Names of every environment variable the configuration reads a secret from. */
export function secretVariables(config: RunnerConfigData): string[] {
  const names = new Set<string>();
  for (const provider of Object.values(config.providers)) if (provider.api_key_env) names.add(provider.api_key_env);
  for (const model of Object.values(config.models)) if (model.lease?.api_key_env) names.add(model.lease.api_key_env);
  return [...names];
}

/**
 * A last line of defence: replaces the value of every secret variable anywhere in outgoing text. Nothing the
 * server sends should contain a key in the first place; this makes sure a stray error message cannot either.
 */
export function makeScrubber(secrets: readonly string[]): (text: string) => string {
  const values = [...new Set(secrets.filter((s) => s.length >= 4).flatMap((s) => [s, JSON.stringify(s).slice(1, -1)]))].sort((a, b) => b.length - a.length);
  if (values.length === 0) return (text) => text;
  return (text) => {
    let out = text;
    for (const value of values) if (out.includes(value)) out = out.split(value).join('[redacted]');
    return out;
  };
}

export function secretsOf(config: RunnerConfigData, env: Record<string, string | undefined>): string[] {
  return secretVariables(config)
    .map((name) => env[name])
    .filter((v): v is string => typeof v === 'string' && v !== '');
}
