import type { SandboxResult } from './types';

/** A run's outcome in one line: `[sandbox] status=ok exit=0 wall=31ms cpu=20ms sandboxed=yes`. */
export function describeResult(result: SandboxResult): string {
  const parts = [
    `status=${result.status}`,
    `exit=${result.exit_code ?? '-'}`,
    result.signal ? `signal=${result.signal}` : '',
    `wall=${result.wall_ms}ms`,
    `cpu=${result.cpu_ms === null ? '-' : `${result.cpu_ms}ms`}`,
    `sandboxed=${result.sandboxed ? 'yes' : 'NO'}`,
    result.stdout_truncated ? 'stdout-truncated' : '',
    result.stderr_truncated ? 'stderr-truncated' : '',
  ];
  return `[sandbox] ${parts.filter(Boolean).join(' ')}`;
}
