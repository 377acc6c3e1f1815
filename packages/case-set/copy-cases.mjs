// The build step that makes the case set shippable: the repository's cases/ (the one source of truth, edited
// there) is copied into this package, which publishes it. The copy is a build output (git-ignored, like dist).
import { cpSync, existsSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const from = fileURLToPath(new URL('../../cases/', import.meta.url));
const to = fileURLToPath(new URL('./cases/', import.meta.url));
if (!existsSync(`${from}schema.json`)) throw new Error(`copy-cases: no case set at ${from} (expected schema.json there)`);
rmSync(to, { recursive: true, force: true });
cpSync(from, to, { recursive: true });
