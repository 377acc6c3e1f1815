import { readFile, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HttpError } from './http';
import { insideRoot } from './paths';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
};

/** The page's files: `public/` next to `src/` and `dist/` (the same relative place in both). */
export function defaultStaticDir(): string {
  return fileURLToPath(new URL('../public/', import.meta.url));
}

/** Reads one file of the static directory, or throws 404; only known file types are served. */
export async function readStatic(root: string, segments: readonly string[]): Promise<{ body: Buffer; type: string }> {
  const file = insideRoot(root, segments);
  const type = TYPES[extname(file).toLowerCase()];
  if (!type) throw new HttpError(404, 'not found');
  try {
    if (!(await stat(file)).isFile()) throw new HttpError(404, 'not found');
    return { body: await readFile(file), type };
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new HttpError(404, 'not found');
  }
}
