import { resolve } from 'node:path';
import { CrucibleError } from '@crucibleforge/core';
import { DEFAULT_RELAY_MODEL, DEFAULT_SIM_CONFIG, loadSimConfig, relayBannerLines, simBannerLines, startRelayEndpoint, startSimEndpoint, type SimEndpoint } from '@crucibleforge/sim-endpoint';
import { parseCommandArgs } from '../args';
import { EXIT, UsageError, type CliIO, type CommandModule } from '../io';
import { LISTEN_OPTIONS, listenFlags, serveUntilSignal } from '../serve';

const DEFAULT_PORT = 8089;

const usage = `Usage: crucibleforge sim [--port N] [--host H] [--config file.yaml]
       crucibleforge sim --relay DIR [--port N] [--host H] [--model ID]

Starts the simulated OpenAI-compatible endpoint (GET /v1/models, POST /v1/chat/completions)
and serves until Ctrl-C.

Options:
  --port N          port to listen on (default: the config's port, else ${DEFAULT_PORT}; 0 = a free port)
  --host H          address to bind (default: the config's host, else 127.0.0.1)
  --config FILE     YAML config: {models: [{id, decode_tps, reasoning_encoding, answer, faults, ...}],
                    port?, host?, api_key?} (default: two demo models, sim-fast and sim-plain)
  --relay DIR       one model whose every answer is a file: requests go to DIR/req-N/conversation.txt,
                    answers come from DIR/req-N/reply.md (see cases/README.md, "the relay")
  --model ID        the relay's model id (default: ${DEFAULT_RELAY_MODEL})
`;

export const command: CommandModule = {
  usage,
  servesUntilSignal: true,
  async run(args: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseCommandArgs(args, { ...LISTEN_OPTIONS, config: { type: 'string' }, relay: { type: 'string' }, model: { type: 'string' } });
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const { port, host } = listenFlags(values);
    const relay = values.relay;
    if (relay?.trim() === '') throw new UsageError('--relay needs a directory: --relay DIR');
    if (relay !== undefined && values.config !== undefined) throw new UsageError('--relay and --config do not go together (the relay serves one model of its own)');
    if (relay === undefined && values.model !== undefined) throw new UsageError('--model names the relay\'s model: give --relay DIR too');
    let sim: SimEndpoint, banner: string[];
    try {
      if (relay !== undefined) {
        const options = { dir: resolve(io.cwd, relay), model: values.model ?? DEFAULT_RELAY_MODEL, port: port ?? DEFAULT_PORT, host: host ?? '127.0.0.1' };
        sim = await startRelayEndpoint(options);
        banner = relayBannerLines(sim.url, options.model, options.dir);
      } else {
        const config = values.config === undefined ? DEFAULT_SIM_CONFIG : await loadSimConfig(resolve(io.cwd, values.config));
        const options = { ...config, port: port ?? config.port ?? DEFAULT_PORT, host: host ?? config.host ?? '127.0.0.1' };
        sim = await startSimEndpoint(options);
        banner = simBannerLines(sim.url, options.models.map((m) => m.id), options.api_key);
      }
    } catch (error) {
      if (!CrucibleError.isInstance(error)) throw error;
      const hint = error.code === 'SIM_LISTEN_FAILED' ? ' (try another --port, or --port 0 for a free one)' : '';
      io.stderr.write(`crucibleforge sim: ${error.message}${hint}\n`);
      return EXIT.failed;
    }
    return serveUntilSignal(io, {
      banner,
      close: () => sim.close(),
      stopped: () => `${relay !== undefined ? 'relay' : 'sim endpoint'} stopped after ${sim.truth.length} request(s)`,
    });
  },
};
