import { realpath } from 'node:fs/promises';
import { dirname } from 'node:path';
import { findExecutable } from './detect';
import type { SandboxLanguage } from './types';

export interface InterpreterPaths {
  python: string;
  node: string;
}

const MIB = 1024 * 1024;

/** V8 reserves about 0.7 GiB of address space before running any code, so Node gets this on top. */
export const NODE_ADDRESS_SPACE_ALLOWANCE_MB = 1024;

export function mainFileName(language: SandboxLanguage): string {
  return language === 'python' ? 'main.py' : 'main.js';
}

/** The interpreter argv for `main` and the address-space limit that gives the program `memoryMb`. Pure. */
export function interpreterCommand(
  language: SandboxLanguage,
  paths: InterpreterPaths,
  memoryMb: number,
  main: string,
): { argv: string[]; addressSpaceBytes: number } {
  if (language === 'python') {
    // -E: ignore PYTHON* variables, -s: no user site-packages, -B: write no .pyc. (Not -I: that drops the
    // script's folder from sys.path, and extra files placed next to the program must stay importable.)
    return { argv: [paths.python, '-E', '-s', '-B', main], addressSpaceBytes: memoryMb * MIB };
  }
  return {
    argv: [paths.node, `--max-old-space-size=${memoryMb}`, main],
    addressSpaceBytes: (memoryMb + NODE_ADDRESS_SPACE_ALLOWANCE_MB) * MIB,
  };
}

/** Resolves the interpreters, and the host folders outside /usr that must be bound for them to run. */
export async function resolveInterpreters(options: {
  pythonPath?: string;
  nodePath?: string;
}): Promise<{ paths: InterpreterPaths; extraReadOnly: string[] }> {
  const python = options.pythonPath ?? '/usr/bin/python3';
  const node = options.nodePath ?? (await findExecutable(['/usr/bin/node', '/usr/local/bin/node'])) ?? process.execPath;
  const extraReadOnly: string[] = [];
  for (const path of [python, node]) {
    let real = path;
    try {
      real = await realpath(path);
    } catch {
      continue; // missing: the run will report the interpreter's absence as an error
    }
    const system = ['/usr/', '/bin/', '/lib/', '/lib64/', '/sbin/'].some((prefix) => real.startsWith(prefix));
    // e.g. ~/.nvm/versions/node/v20/bin/node → bind ~/.nvm/versions/node/v20 (the install prefix only)
    if (!system) extraReadOnly.push(dirname(dirname(real)));
    if (real !== path && !system) extraReadOnly.push(dirname(path));
  }
  return { paths: { python, node }, extraReadOnly };
}
