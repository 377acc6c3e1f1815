import type { CommandModule } from '../io';

export interface CommandEntry {
  summary: string;
  load(): Promise<CommandModule>;
}

/**
 * Every command, lazily imported so `--help` and each command start fast (no work before argv is
 * parsed). Keep alphabetical; one line each.
 */
export const COMMANDS: Record<string, CommandEntry> = {
  lease: { summary: 'rent GPUs from a StudioForge server (or lock them locally) and give them back', load: async () => (await import('./lease')).command },
  sandbox: { summary: 'run a program in the sandbox', load: async () => (await import('./sandbox')).command },
  sim: { summary: 'serve the simulated OpenAI-compatible endpoint (demo models or a YAML config)', load: async () => (await import('./sim')).command },
  speed: { summary: 'measure TTFT, decode and prefill speed of one model, with a roofline plausibility check', load: async () => (await import('./speed')).command },
};
