import { describe, expect, it } from 'vitest';
import { calibratedLimit, WALL_HEADROOM } from './calibration';
import type { GraderOf } from './schema/graders';

const grader = (complexity: GraderOf<'code'>['complexity']): GraderOf<'code'> => ({ type: 'code', language: 'python', function: 'f', tests: [{ call: 'f()', expect: 1 }], complexity });

describe('calibratedLimit', () => {
  it('is a multiple of the reference CPU time, so a busy host does not stretch it for naive code', () => {
    // measured on a loaded host: 1071 ms wall for 370 ms of CPU
    expect(calibratedLimit({ wall_ms: 1071, cpu_ms: 370 }, grader({ multiple: 10, floor_s: 1 }))).toEqual({ multiple: 10, floor_ms: 1000, headroom_ms: 3213, limit_ms: 3700 });
  });
  it('never goes below WALL_HEADROOM × the reference wall time, so correct code passes on a busy host', () => {
    expect(WALL_HEADROOM).toBe(3);
    expect(calibratedLimit({ wall_ms: 1071, cpu_ms: 370 }, grader({ multiple: 5, floor_s: 1 })).limit_ms).toBe(3213);
  });
  it('falls back to wall time without a CPU figure, and keeps the floor (default 1 s, multiple 10)', () => {
    expect(calibratedLimit({ wall_ms: 400, cpu_ms: null }, grader({ multiple: 5 })).limit_ms).toBe(2000);
    expect(calibratedLimit({ wall_ms: 30, cpu_ms: 20 }, grader({})).limit_ms).toBe(1000);
    expect(calibratedLimit({ wall_ms: 30, cpu_ms: 20 }, grader({ floor_s: 2.5 })).limit_ms).toBe(2500);
    expect(calibratedLimit({ wall_ms: 150, cpu_ms: 140 }, grader({})).limit_ms).toBe(1400);
  });
});
