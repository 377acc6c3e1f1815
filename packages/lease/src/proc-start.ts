import { readFile } from 'node:fs/promises';

/** When process `pid` started, epoch milliseconds; null when that cannot be known (no procfs, no such process). */
export type ProcessStartTime = (pid: number) => number | null | Promise<number | null>;

/**
 * Field 22 of `/proc/<pid>/stat`: the start time in clock ticks after boot. The command name (field 2)
 * may itself hold spaces and parentheses, so fields are counted from its last closing parenthesis.
 */
export function parseStartTicks(stat: string): number | null {
  const close = stat.lastIndexOf(')');
  if (close < 0) return null;
  const fields = stat.slice(close + 1).trim().split(/\s+/); // fields[0] is field 3 (state)
  const raw = fields[22 - 3];
  if (raw === undefined || !/^\d+$/.test(raw)) return null;
  const ticks = Number(raw);
  return Number.isSafeInteger(ticks) ? ticks : null;
}

/** The `btime` line of `/proc/stat`: when the machine booted, epoch seconds. */
export function parseBootTime(procStat: string): number | null {
  const match = /^btime\s+(\d+)\s*$/m.exec(procStat);
  return match ? Number(match[1]) : null;
}

export interface ProcStartTimeOptions {
  /** Reads a file as UTF-8 text (default: node:fs). */
  readText?: (path: string) => Promise<string>;
  /** USER_HZ, the unit of field 22 (default 100, what Linux reports on every common architecture). */
  ticksPerSecond?: number;
  /** Where procfs is mounted (default /proc). */
  procRoot?: string;
}

/**
 * A {@link ProcessStartTime} from procfs: boot time (`btime` of /proc/stat) plus field 22 of
 * /proc/<pid>/stat. Null wherever either cannot be read or parsed (not Linux, the process is gone).
 * Boot time is whole seconds, so the result can be up to a second early, never late.
 */
export function procStartTime(options: ProcStartTimeOptions = {}): (pid: number) => Promise<number | null> {
  const read = options.readText ?? ((path: string) => readFile(path, 'utf8'));
  const hz = options.ticksPerSecond ?? 100;
  const root = options.procRoot ?? '/proc';
  return async (pid) => {
    if (!Number.isSafeInteger(pid) || pid <= 0) return null;
    try {
      const [stat, procStat] = await Promise.all([read(`${root}/${pid}/stat`), read(`${root}/stat`)]);
      const ticks = parseStartTicks(stat);
      const boot = parseBootTime(procStat);
      return ticks === null || boot === null ? null : boot * 1000 + Math.floor((ticks * 1000) / hz);
    } catch {
      return null;
    }
  };
}
