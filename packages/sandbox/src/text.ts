import type { SandboxLanguage, SandboxResult } from './types';

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

const LANGUAGES: Record<string, SandboxLanguage> = { python: 'python', py: 'python', node: 'node', js: 'node', javascript: 'node' };
const EXTENSIONS: Record<string, SandboxLanguage> = { '.py': 'python', '.js': 'node', '.mjs': 'node', '.cjs': 'node' };

/** The language a name says (`python`, `py`, `node`, `js`, …) or, without one, a file's extension says; null when neither does. */
export function languageOf(file: string, name?: string): SandboxLanguage | null {
  if (name !== undefined) return LANGUAGES[name.toLowerCase()] ?? null;
  const dot = file.lastIndexOf('.');
  return dot === -1 ? null : (EXTENSIONS[file.slice(dot).toLowerCase()] ?? null);
}
