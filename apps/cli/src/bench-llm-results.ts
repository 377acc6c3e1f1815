/** bench-llm's results file (its place and content are the reporter's: resultsPath, BenchResults). */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

export async function writeJsonFile(path: string, value: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify(value, null, 2)}\n`);
}
