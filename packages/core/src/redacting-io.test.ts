import { describe, expect, it } from 'vitest';
import { redactingIO } from './redacting-io';

describe('redactingIO', () => {
  it('redacts the secrets on stdout and stderr and keeps the terminal facts readable', () => {
    const out: string[] = [];
    const err: string[] = [];
    const stdout = { write: (t: string) => out.push(t), isTTY: true, columns: 100 };
    const io = redactingIO({ stdout, stderr: { write: (t: string) => err.push(t), isTTY: false }, cwd: '/w' }, ['sk-secret-123', undefined]);
    io.stdout.write('key sk-secret-123 echoed');
    io.stderr.write('error: sk-secret-123');
    expect(out.join('')).not.toContain('sk-secret-123');
    expect(err.join('')).toContain('[redacted]');
    expect(io.stdout.isTTY).toBe(true);
    stdout.columns = 120;
    expect(io.stdout.columns).toBe(120);
    expect(io.stderr.isTTY).toBe(false);
    expect(io.cwd).toBe('/w');
  });
});
