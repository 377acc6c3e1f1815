/** `--gguf`, `--gpu` and `--bandwidth-gbs` of `speed` and `bench-llm`: what the plausibility roofline knows of the weights and the hardware. */
import { resolve } from 'node:path';
import { readGgufInfo, type GgufInfo } from '@crucibleforge/speed';
import { numberFlag } from './args';
import { UsageError } from './io';

export const HARDWARE_OPTIONS = { gguf: { type: 'string' }, gpu: { type: 'string' }, 'bandwidth-gbs': { type: 'string' } } as const;

export async function hardwareFlags(
  values: { gguf?: string | undefined; gpu?: string | undefined; 'bandwidth-gbs'?: string | undefined },
  cwd: string,
): Promise<{ gguf: GgufInfo | null; gpu: string | null; bandwidthGbs: number | null }> {
  const bandwidthGbs = numberFlag('bandwidth-gbs', values['bandwidth-gbs']) ?? null;
  let gguf: GgufInfo | null = null;
  if (values.gguf !== undefined) {
    try {
      gguf = await readGgufInfo(resolve(cwd, values.gguf));
    } catch (error) {
      throw new UsageError(`--gguf: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { gguf, gpu: values.gpu ?? null, bandwidthGbs };
}
