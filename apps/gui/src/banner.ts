import type { GuiServer } from './server';

/** What `crucibleforge gui` says when the server is up: where, the token, the config, results and cases, the sandbox. */
export function guiBannerLines(
  gui: Pick<GuiServer, 'url' | 'openUrl' | 'token' | 'tokenGenerated' | 'host'>,
  o: { configPath: string | null; searched: readonly string[]; resultsDir: string; casesDir: string; sandbox: boolean },
): string[] {
  const lines = [`CrucibleForge GUI on ${gui.url}`];
  if (gui.token) {
    lines.push(`open: ${gui.openUrl}`);
    lines.push(gui.tokenGenerated ? `token: generated for this session (${gui.host} is not loopback, so every request needs it)` : 'token: required on every request');
  }
  if (gui.host === '0.0.0.0' || gui.host === '::') lines.push('listening on every interface: from another machine use this machine\'s address');
  lines.push(o.configPath ? `config: ${o.configPath}` : `config: none found (looked at ${o.searched.join(', ')}); create one with "crucibleforge config --init"`);
  lines.push(`results: ${o.resultsDir}`, `cases: ${o.casesDir}`);
  if (!o.sandbox) lines.push('sandbox: unavailable (see above), so code cases cannot be graded in GUI runs');
  return lines;
}
