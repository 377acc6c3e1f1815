import { isAbsolute, relative, resolve, sep } from 'node:path';
import { HttpError } from './http';

/** Run ids are folder names under the results directory: the runner's own rule, checked here before any lookup. */
const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$/;

export function checkRunId(id: string): string {
  if (!RUN_ID.test(id) || id.includes('..')) throw new HttpError(400, `invalid run id "${id.slice(0, 100)}" (letters, digits, . _ - only)`);
  return id;
}

/**
 * Splits a raw request path into decoded segments, refusing anything that could climb out of a directory:
 * `.` and `..` (also percent-encoded), encoded slashes or backslashes, NUL, and malformed escapes.
 */
export function pathSegments(rawPath: string): string[] {
  if (!rawPath.startsWith('/')) throw new HttpError(400, 'the path must start with /');
  const segments: string[] = [];
  for (const raw of rawPath.split('/').slice(1)) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      throw new HttpError(400, 'malformed percent-encoding in the path');
    }
    if (segment === '.' || segment === '..' || /[/\\\0]/.test(segment) || /^[A-Za-z]:/.test(segment)) {
      throw new HttpError(400, 'path traversal refused');
    }
    segments.push(segment);
  }
  return segments;
}

/** `root/segments…`, proven to stay inside `root` (resolve, then a prefix check). */
export function insideRoot(root: string, segments: readonly string[]): string {
  const base = resolve(root);
  const target = resolve(base, ...segments);
  const rel = relative(base, target);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel) || !`${target}`.startsWith(base + sep)) {
    throw new HttpError(400, 'path traversal refused');
  }
  return target;
}
