/** What `config` prints about a valid models.yaml: its providers, models (enabled ones) and judge. */
export interface ConfigShape {
  providers: Record<string, unknown>;
  models: Record<string, { enabled: boolean }>;
  judge?: { model: string } | null | undefined;
}

/** `config --json`: `{ path, providers, models, enabled, judge }` (labels; the judge's model or null). */
export function configSummary(path: string, config: ConfigShape) {
  const models = Object.entries(config.models);
  const enabled = models.filter(([, m]) => m.enabled).map(([label]) => label);
  return { path, providers: Object.keys(config.providers), models: models.map(([label]) => label), enabled, judge: config.judge?.model ?? null };
}

/** `PATH\nvalid: 2 providers, 3 models (1 enabled), judge M` (or `, no judge`). */
export function configSummaryText(path: string, config: ConfigShape): string {
  const s = configSummary(path, config);
  return `${path}\nvalid: ${s.providers.length} providers, ${s.models.length} models (${s.enabled.length} enabled)${s.judge === null ? ', no judge' : `, judge ${s.judge}`}\n`;
}
