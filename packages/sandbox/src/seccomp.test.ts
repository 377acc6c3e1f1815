import { describe, expect, it } from 'vitest';
import { buildSeccompFilter, seccompRules, seccompSupported } from './seccomp';

/** Decodes struct sock_filter[] back into instructions. */
function decode(buf: Buffer) {
  const out: { code: number; jt: number; jf: number; k: number }[] = [];
  for (let at = 0; at < buf.length; at += 8) {
    out.push({ code: buf.readUInt16LE(at), jt: buf.readUInt8(at + 2), jf: buf.readUInt8(at + 3), k: buf.readUInt32LE(at + 4) });
  }
  return out;
}

/** A tiny classic-BPF interpreter over seccomp_data, enough to run the filter on made-up syscalls. */
function evaluate(filter: Buffer, data: { arch: number; nr: number; arg0?: number }): number {
  const prog = decode(filter);
  let acc = 0;
  for (let pc = 0; pc < prog.length; pc++) {
    const { code, jt, jf, k } = prog[pc]!;
    if (code === 0x20) acc = k === 0 ? data.nr : k === 4 ? data.arch : k === 16 ? (data.arg0 ?? 0) >>> 0 : 0;
    else if (code === 0x15) pc += acc === k ? jt : jf;
    else if (code === 0x35) pc += acc >>> 0 >= k ? jt : jf;
    else if (code === 0x06) return k;
    else throw new Error(`unknown opcode ${code}`);
  }
  throw new Error('fell off the end');
}

const ALLOW = 0x7fff0000;
const EPERM = 0x00050001;
const X64 = 0xc000003e;

describe('buildSeccompFilter', () => {
  const filter = buildSeccompFilter('x64');
  it('is whole sock_filter records ending in a return', () => {
    expect(filter.length % 8).toBe(0);
    expect(decode(filter).at(-1)?.code).toBe(0x06);
  });
  it('denies ptrace and process_vm_readv outright and allows ordinary syscalls', () => {
    expect(evaluate(filter, { arch: X64, nr: 101 })).toBe(EPERM); // ptrace
    expect(evaluate(filter, { arch: X64, nr: 310 })).toBe(EPERM); // process_vm_readv
    expect(evaluate(filter, { arch: X64, nr: 0 })).toBe(ALLOW); // read
    expect(evaluate(filter, { arch: X64, nr: 57 })).toBe(ALLOW); // fork
  });
  it('denies kill and tgkill aimed at pid 1 only, whatever the high half of the register', () => {
    expect(evaluate(filter, { arch: X64, nr: 62, arg0: 1 })).toBe(EPERM);
    expect(evaluate(filter, { arch: X64, nr: 62, arg0: 7 })).toBe(ALLOW);
    expect(evaluate(filter, { arch: X64, nr: 62, arg0: -1 })).toBe(ALLOW);
    expect(evaluate(filter, { arch: X64, nr: 234, arg0: 1 })).toBe(EPERM);
  });
  it('denies every syscall of a foreign ABI (i386) and of x32', () => {
    expect(evaluate(filter, { arch: 0x40000003, nr: 0 })).toBe(EPERM);
    expect(evaluate(filter, { arch: X64, nr: 0x40000000 + 101 })).toBe(EPERM);
  });
  it('has tables for x64 and arm64 only, naming the same rules', () => {
    expect(seccompSupported('x64') && seccompSupported('arm64')).toBe(true);
    expect(seccompSupported('riscv64')).toBe(false);
    expect(() => buildSeccompFilter('riscv64')).toThrow(/no seccomp syscall table/);
    const sorted = (r: { denied: string[]; deniedForInit: string[] }) => [[...r.denied].sort(), [...r.deniedForInit].sort()];
    expect(sorted(seccompRules('arm64'))).toEqual(sorted(seccompRules('x64')));
    expect(evaluate(buildSeccompFilter('arm64'), { arch: 0xc00000b7, nr: 117 })).toBe(EPERM); // arm64 ptrace
  });
});
