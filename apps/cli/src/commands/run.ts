import { parseCommandArgs } from '../args';
import type { CommandModule } from '../io';
import { withJsonOutput } from '../runner-context';
import { generate, RUN_FLAGS_HELP, RUN_OPTIONS } from '../runner-run';

const usage = `Usage: crucibleforge run --profile P --models a,b [options]

Generates and grades every case of the profile for each model; prose answers wait for "crucibleforge
judge". Every attempt is written (and flushed) as it finishes, so an interrupted run loses at most the
requests in flight: run the same command again, or --resume ID, to finish only what is missing.

${RUN_FLAGS_HELP}

Exit codes: 0 every model finished, 1 a model stopped or cases are missing, 2 usage or config error,
3 no sandbox.
`;

export const command: CommandModule = {
  usage,
  async run(args, io) {
    const { values } = parseCommandArgs(args, RUN_OPTIONS, false);
    return withJsonOutput(io, 'run', values.json, async (io, emit) => {
      const generation = await generate(values, io);
      emit({ summary: generation.summary });
      return generation.code;
    });
  },
};
