/**
 * What the roofline of one benchmark knows about the weights and the hardware, decided once for `speed`,
 * `bench-llm` and any other caller: the GGUF (given, read from a path, or found for a local endpoint's model),
 * the GPU or bandwidth named, and for a model on this machine with neither named, this host's roofline.
 */
import type { SpeedSettings } from './benchmark';
import { defaultModelRoots } from './discover';
import { readGgufInfo, type GgufInfo } from './gguf';
import { bandwidthLine, discoverServedGguf, ggufSummary, hostRooflineOptions, isLocalEndpoint, type ServedEndpoint } from './host';

/** The roofline part of the speed settings. */
export type Hardware = Pick<SpeedSettings, 'gguf' | 'gpu' | 'bandwidthGbs' | 'hostBandwidth' | 'hostCacheBytes'>;

export interface HardwareRequest {
  model: string;
  /** The model's GGUF: its header (an opened engine's), or a path to read (a bad file throws SPEED_GGUF naming it). */
  gguf?: GgufInfo | string | null | undefined;
  gpu?: string | null | undefined;
  bandwidthGbs?: number | null | undefined;
  /** Where the model is served; a local endpoint's model file is looked for when no GGUF is given. */
  endpoint?: ServedEndpoint | null | undefined;
  /** The model runs in this process (so on this host's memory). */
  inProcess?: boolean;
  /** Where model folders are (the app's HOME and OLLAMA_MODELS). */
  home?: string | undefined;
  ollamaModels?: string | undefined;
  /** The host bandwidth probe's cache folder, and whether to measure again. */
  cacheDir?: string | undefined;
  refresh?: boolean;
  /** Progress lines: a GGUF found, the bandwidth read or measured. */
  say?: (line: string) => void;
}

export async function resolveHardware(request: HardwareRequest): Promise<Hardware> {
  let gguf = typeof request.gguf === 'string' ? await readGgufInfo(request.gguf) : (request.gguf ?? null);
  if (!gguf && request.gguf === undefined && request.endpoint) {
    const roots = await defaultModelRoots({ home: request.home, ollamaModels: request.ollamaModels });
    const found = await discoverServedGguf(request.model, roots, request.endpoint);
    if (found) request.say?.(`found the model's GGUF: ${found.location.path} (${found.location.detail}): ${ggufSummary(found.info)}`);
    gguf = found?.info ?? null;
  }
  const gpu = request.gpu ?? null;
  const bandwidthGbs = request.bandwidthGbs ?? null;
  const local = !gpu && bandwidthGbs === null && (request.inProcess === true || (request.endpoint ? isLocalEndpoint(request.endpoint.baseUrl) : false));
  const say = request.say;
  const roofline = local
    ? await hostRooflineOptions({ cacheDir: request.cacheDir, refresh: request.refresh === true, ...(say ? { onReading: (r) => say(bandwidthLine(r)) } : {}) })
    : {};
  return { gguf, gpu, bandwidthGbs, ...roofline };
}
