import { describe, expect, it } from 'vitest';
import { parseBootTime, parseStartTicks, procStartTime } from './proc-start';

/** A /proc/<pid>/stat line whose field 22 (start time) is `ticks`; the command name has spaces and parentheses. */
const statLine = (pid: number, ticks: number, comm = 'node (worker) x') =>
  `${pid} (${comm}) S 1 ${pid} ${pid} 0 -1 4194304 2048 0 0 0 12 3 0 0 20 0 11 0 ${ticks} 1234567 890 18446744073709551615 1 1 0 0 0 0 0 0 0`;

describe('procfs parsing', () => {
  it('reads field 22 after the command name, whatever the name holds', () => {
    expect(parseStartTicks(statLine(42, 987_654))).toBe(987_654);
    expect(parseStartTicks(statLine(42, 5, ') S 1 2 3 (nasty'))).toBe(5);
    expect(parseStartTicks('42 (short) S 1 2')).toBeNull();
    expect(parseStartTicks('garbage')).toBeNull();
  });

  it('reads btime from /proc/stat', () => {
    expect(parseBootTime('cpu  1 2 3\nintr 5\nbtime 1735787045\nprocesses 9\n')).toBe(1_735_787_045);
    expect(parseBootTime('cpu 1 2 3\n')).toBeNull();
  });
});

describe('procStartTime', () => {
  const files: Record<string, string> = {
    '/fake/stat': 'cpu 1\nbtime 1700000000\n',
    '/fake/77/stat': statLine(77, 12_345),
  };
  const readText = async (path: string) => {
    const text = files[path];
    if (text === undefined) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
    return text;
  };

  it('is boot time plus the start ticks at USER_HZ', async () => {
    expect(await procStartTime({ readText, procRoot: '/fake' })(77)).toBe(1_700_000_000_000 + 123_450);
    expect(await procStartTime({ readText, procRoot: '/fake', ticksPerSecond: 250 })(77)).toBe(1_700_000_000_000 + 49_380);
  });

  it('is null for a process that is gone or a pid that cannot be one', async () => {
    const start = procStartTime({ readText, procRoot: '/fake' });
    expect(await start(78)).toBeNull();
    expect(await start(0)).toBeNull();
    expect(await start(-1)).toBeNull();
    expect(await procStartTime({ readText: async () => 'nonsense', procRoot: '/fake' })(77)).toBeNull();
  });

  it.skipIf(process.platform !== 'linux')('places this process between boot and now on Linux', async () => {
    const started = await procStartTime()(process.pid);
    expect(started).not.toBeNull();
    expect(started!).toBeLessThanOrEqual(Date.now());
    const boot = parseBootTime(await (await import('node:fs/promises')).readFile('/proc/stat', 'utf8'));
    expect(started!).toBeGreaterThanOrEqual(boot! * 1000);
  });
});
