import { describe, expect, it } from 'vitest';
import { classify, looksLikeMemoryFailure, signalFromStatus, type RunFacts } from './classify';

const base: RunFacts = {
  timedOut: false,
  outputKilled: false,
  aborted: false,
  exitCode: 0,
  signal: null,
  wrapperStatus: 0,
  stderrTail: '',
};

describe('classify', () => {
  it('ok on exit 0, error on another exit code', () => {
    expect(classify(base)).toEqual({ status: 'ok', exit_code: 0, signal: null });
    expect(classify({ ...base, exitCode: 1, wrapperStatus: 1 })).toEqual({ status: 'error', exit_code: 1, signal: null });
  });

  it('our own kills win over what the program did', () => {
    const killed = { ...base, exitCode: null, signal: 'SIGKILL', wrapperStatus: null };
    expect(classify({ ...killed, timedOut: true }).status).toBe('timeout');
    expect(classify({ ...killed, outputKilled: true }).status).toBe('output_limit');
    expect(classify({ ...killed, aborted: true }).status).toBe('killed');
    expect(classify({ ...killed, timedOut: true, stderrTail: 'MemoryError' }).status).toBe('timeout');
  });

  it('memory failures from Python and Node', () => {
    expect(classify({ ...base, exitCode: 1, wrapperStatus: 1, stderrTail: 'Traceback...\nMemoryError\n' }).status).toBe('memory');
    const node = 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory';
    expect(classify({ ...base, exitCode: 134, wrapperStatus: 134, stderrTail: node })).toEqual({ status: 'memory', exit_code: null, signal: 'SIGABRT' });
    // exit 0 with the word in stderr is not a failure
    expect(classify({ ...base, stderrTail: 'MemoryError' }).status).toBe('ok');
  });

  it('reads 128+N as signal N; SIGXCPU (the CPU limit) is a timeout', () => {
    expect(classify({ ...base, exitCode: 152, wrapperStatus: 152 })).toEqual({ status: 'timeout', exit_code: null, signal: 'SIGXCPU' });
    expect(classify({ ...base, exitCode: 137, wrapperStatus: null })).toEqual({ status: 'killed', exit_code: null, signal: 'SIGKILL' });
    expect(classify({ ...base, exitCode: 139, wrapperStatus: 139 })).toEqual({ status: 'killed', exit_code: null, signal: 'SIGSEGV' });
  });

  it('prefers the wrapper status over the outer exit code', () => {
    expect(classify({ ...base, exitCode: 0, wrapperStatus: 3 })).toEqual({ status: 'error', exit_code: 3, signal: null });
  });
});

describe('helpers', () => {
  it('signalFromStatus', () => {
    expect(signalFromStatus(137)).toBe('SIGKILL');
    expect(signalFromStatus(128)).toBeNull();
    expect(signalFromStatus(1)).toBeNull();
    expect(signalFromStatus(255)).toBeNull();
  });
  it('looksLikeMemoryFailure', () => {
    expect(looksLikeMemoryFailure('RangeError: Array buffer allocation failed')).toBe(true);
    expect(looksLikeMemoryFailure('ValueError: bad')).toBe(false);
  });
});
