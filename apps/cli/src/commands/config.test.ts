import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../main';
import { memoryIO } from '@crucibleforge/testkit';

describe('crucibleforge config', () => {
  it('--init writes the commented example once and refuses to overwrite', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cf-config-'));
    const t = memoryIO({ cwd: dir });
    expect(await main(['config', '--init'], t.io)).toBe(0);
    const text = await readFile(join(dir, 'models.yaml'), 'utf8');
    expect(text).toContain('base_url: http://localhost:1234/v1');
    expect(text).toContain('#   kind: deepseek');
    await writeFile(join(dir, 'models.yaml'), `${text}\n# mine\n`);
    const again = memoryIO({ cwd: dir });
    expect(await main(['config', '--init'], again.io)).toBe(1);
    expect(again.stderr()).toMatch(/already exists; not overwriting/);
    expect(await readFile(join(dir, 'models.yaml'), 'utf8')).toContain('# mine');
    const show = memoryIO({ cwd: dir });
    expect(await main(['config'], show.io)).toBe(0);
    expect(show.stdout()).toBe(`${join(dir, 'models.yaml')}\nvalid: 1 providers, 1 models (1 enabled), no judge\n`);
  });

  it('finds the config through $CRUCIBLEFORGE_CONFIG and the user config dir, and names bad fields', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cf-config-'));
    const home = join(dir, 'home');
    const init = memoryIO({ cwd: dir });
    expect(await main(['config', '--init', '--config', join(home, '.config', 'crucibleforge', 'models.yaml')], init.io)).toBe(0);
    const viaHome = memoryIO({ cwd: dir, env: { HOME: home } });
    expect(await main(['config'], viaHome.io)).toBe(0);
    expect(viaHome.stdout()).toContain(join(home, '.config', 'crucibleforge', 'models.yaml'));
    const bad = join(dir, 'bad.yaml');
    await writeFile(bad, 'providers:\n  x:\n    kind: lmstudio\n    base_url: not a url\n');
    const viaEnv = memoryIO({ cwd: dir, env: { HOME: home, CRUCIBLEFORGE_CONFIG: bad } });
    expect(await main(['config'], viaEnv.io)).toBe(2);
    expect(viaEnv.stderr()).toContain(`${bad}:4:15: providers.x.base_url: must be an http(s) URL`);
    const none = memoryIO({ cwd: join(dir, 'nowhere'), env: {} });
    expect(await main(['config'], none.io)).toBe(2);
    expect(none.stdout()).toBe('');
    expect(none.stderr()).toMatch(/^crucibleforge config: no models.yaml found \(looked at .*\); create one with "crucibleforge config --init"\n$/);
  });
});
