import { resolve } from 'node:path';
import { CrucibleError } from '@crucibleforge/core';
import { DEFAULT_SIM_CONFIG, loadSimConfig, simBannerLines, startSimEndpoint, type SimEndpointOptions } from '@crucibleforge/sim-endpoint';
import { parseCommandArgs } from '../args';
import { EXIT, UsageError, type CliIO, type CommandModule } from '../io';
import { LISTEN_OPTIONS, listenFlags, serveUntilSignal } from '../serve';

const DEFAULT_PORT = 8089;

const usage = `Usage: crucibleforge sim [--port N] [--host H] [--config file.yaml]

Starts the simulated OpenAI-compatible endpoint (GET /v1/models, POST /v1/chat/completions)
and serves until Ctrl-C.

Options:
  --port N          port to listen on (default: the config's port, else ${DEFAULT_PORT}; 0 = a free port)
  --host H          address to bind (default: the config's host, else 127.0.0.1)
  --config FILE     YAML config: {models: [{id, decode_tps, reasoning_encoding, answer, faults, ...}],
                    port?, host?, api_key?} (default: two demo models, sim-fast and sim-plain)
`;

export const command: CommandModule = {
  usage,
  servesUntilSignal: true,
  async run(args: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseCommandArgs(args, {
      ...LISTEN_OPTIONS,
      config: { type: 'string' },
    });
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const { port, host } = listenFlags(values);
    let config: SimEndpointOptions;
    try {
      config = values.config === undefined ? DEFAULT_SIM_CONFIG : await loadSimConfig(resolve(io.cwd, values.config));
    } catch (error) {
      if (!CrucibleError.isInstance(error)) throw error;
      io.stderr.write(`crucibleforge sim: ${error.message}\n`);
      return EXIT.failed;
    }
    const options = { ...config, port: port ?? config.port ?? DEFAULT_PORT, host: host ?? config.host ?? '127.0.0.1' };
    let sim;
    try {
      sim = await startSimEndpoint(options);
    } catch (error) {
      if (!CrucibleError.isInstance(error)) throw error;
      const hint = error.code === 'SIM_LISTEN_FAILED' ? ' (try another --port, or --port 0 for a free one)' : '';
      io.stderr.write(`crucibleforge sim: ${error.message}${hint}\n`);
      return EXIT.failed;
    }
    const server = sim;
    return serveUntilSignal(io, {
      banner: simBannerLines(sim.url, options.models.map((m) => m.id), options.api_key),
      close: () => server.close(),
      stopped: () => `sim endpoint stopped after ${server.truth.length} request(s)`,
    });
  },
};
