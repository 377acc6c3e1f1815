/**
 * The seccomp filter every sandboxed process runs under (passed to bwrap with `--seccomp FD`), as a
 * classic BPF program built here without libseccomp. Its one job: nothing inside the sandbox can
 * inspect, freeze or signal the sandbox's pid 1 (the limit wrapper), or reach another process's memory.
 * Everything else is allowed (the rest of the policy is bwrap's namespaces and the rlimits).
 */

/** Syscall numbers per architecture (Node's `process.arch`), and the AUDIT_ARCH value seccomp reports. */
interface ArchTable {
  auditArch: number;
  /** Denied outright. */
  denied: Record<string, number>;
  /** Denied when their first argument (a pid) is 1, the sandbox's init. */
  deniedForInit: Record<string, number>;
  /** x86-64 only: syscalls of the x32 ABI carry this bit; they are denied, so no second table applies. */
  x32Bit: number | null;
}

const X64: ArchTable = {
  auditArch: 0xc000003e,
  denied: {
    ptrace: 101,
    process_vm_readv: 310,
    process_vm_writev: 311,
    kcmp: 312,
    pidfd_send_signal: 424,
    pidfd_getfd: 438,
    process_madvise: 440,
  },
  deniedForInit: {
    kill: 62,
    rt_sigqueueinfo: 129,
    sched_setparam: 142,
    sched_setscheduler: 144,
    tkill: 200,
    sched_setaffinity: 203,
    tgkill: 234,
    rt_tgsigqueueinfo: 297,
    prlimit64: 302,
    sched_setattr: 314,
    pidfd_open: 434,
  },
  x32Bit: 0x40000000,
};

const ARM64: ArchTable = {
  auditArch: 0xc00000b7,
  denied: {
    ptrace: 117,
    process_vm_readv: 270,
    process_vm_writev: 271,
    kcmp: 272,
    pidfd_send_signal: 424,
    pidfd_getfd: 438,
    process_madvise: 440,
  },
  deniedForInit: {
    sched_setparam: 118,
    sched_setscheduler: 119,
    sched_setaffinity: 122,
    kill: 129,
    tkill: 130,
    tgkill: 131,
    rt_sigqueueinfo: 138,
    rt_tgsigqueueinfo: 240,
    prlimit64: 261,
    sched_setattr: 274,
    pidfd_open: 434,
  },
  x32Bit: null,
};

const TABLES: Record<string, ArchTable> = { x64: X64, arm64: ARM64 };

/** The policy in one line (the README quotes it). */
export const SECCOMP_POLICY =
  'ptrace, process_vm_readv/writev, process_madvise, kcmp, pidfd_getfd and pidfd_send_signal fail with EPERM; kill, tkill, tgkill, ' +
  'rt_(tg)sigqueueinfo, pidfd_open, prlimit64 and sched_set* aimed at pid 1 fail with EPERM; so does every syscall of a foreign ABI (i386, x32)';

/** The architectures a filter can be built for. */
export function seccompSupported(arch: string): boolean {
  return arch in TABLES;
}

// Classic BPF opcodes (linux/filter.h) and seccomp return values (linux/seccomp.h).
const BPF_LD_W_ABS = 0x20;
const BPF_JEQ_K = 0x15;
const BPF_JGE_K = 0x35;
const BPF_RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_EPERM = 0x00050000 | 1;
// struct seccomp_data: int nr; u32 arch; u64 instruction_pointer; u64 args[6] (little-endian hosts).
const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
const OFFSET_ARG0_LOW = 16;

type Label = 'deny' | 'init';
type Step =
  | { op: 'load'; offset: number }
  | { op: 'jeq'; k: number; onTrue: Label | null; onFalse: Label | null }
  | { op: 'jge'; k: number; onTrue: Label }
  | { op: 'ret'; k: number };

/**
 * The filter for `arch` (default: this process's) as the bytes bwrap reads: struct sock_filter[] in
 * host byte order. Pure. Throws for an architecture without a syscall table.
 */
export function buildSeccompFilter(arch: string = process.arch): Buffer {
  const table = TABLES[arch];
  if (!table) throw new Error(`no seccomp syscall table for architecture "${arch}" (supported: ${Object.keys(TABLES).join(', ')})`);
  const steps: Step[] = [
    { op: 'load', offset: OFFSET_ARCH },
    { op: 'jeq', k: table.auditArch, onTrue: null, onFalse: 'deny' },
    { op: 'load', offset: OFFSET_NR },
  ];
  if (table.x32Bit !== null) steps.push({ op: 'jge', k: table.x32Bit, onTrue: 'deny' });
  for (const nr of Object.values(table.denied)) steps.push({ op: 'jeq', k: nr, onTrue: 'deny', onFalse: null });
  for (const nr of Object.values(table.deniedForInit)) steps.push({ op: 'jeq', k: nr, onTrue: 'init', onFalse: null });
  steps.push({ op: 'ret', k: RET_ALLOW });
  const labels: Record<Label, number> = { init: steps.length, deny: steps.length + 3 };
  // A pid is an int: the kernel reads the low 32 bits of the register, so that is what is compared.
  steps.push({ op: 'load', offset: OFFSET_ARG0_LOW }, { op: 'jeq', k: 1, onTrue: 'deny', onFalse: null }, { op: 'ret', k: RET_ALLOW });
  steps.push({ op: 'ret', k: RET_EPERM });

  const out = Buffer.alloc(steps.length * 8);
  steps.forEach((step, i) => {
    const jump = (to: Label | null) => {
      if (to === null) return 0;
      const distance = labels[to] - i - 1;
      if (distance < 0 || distance > 255) throw new Error(`seccomp filter: jump of ${distance} at ${i}`);
      return distance;
    };
    let code: number;
    let jt = 0;
    let jf = 0;
    let k: number;
    switch (step.op) {
      case 'load':
        code = BPF_LD_W_ABS;
        k = step.offset;
        break;
      case 'jeq':
        code = BPF_JEQ_K;
        k = step.k;
        jt = jump(step.onTrue);
        jf = jump(step.onFalse);
        break;
      case 'jge':
        code = BPF_JGE_K;
        k = step.k;
        jt = jump(step.onTrue);
        break;
      case 'ret':
        code = BPF_RET_K;
        k = step.k;
        break;
    }
    const at = i * 8;
    out.writeUInt16LE(code, at);
    out.writeUInt8(jt, at + 2);
    out.writeUInt8(jf, at + 3);
    out.writeUInt32LE(k >>> 0, at + 4);
  });
  return out;
}

/** The syscall names the filter denies (outright, and when aimed at pid 1), for documentation and tests. */
export function seccompRules(arch: string = process.arch): { denied: string[]; deniedForInit: string[] } {
  const table = TABLES[arch];
  return table ? { denied: Object.keys(table.denied), deniedForInit: Object.keys(table.deniedForInit) } : { denied: [], deniedForInit: [] };
}
