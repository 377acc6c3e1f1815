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
  all: { summary: 'run, judge and report in one go', load: async () => (await import('./all')).command },
  'bench-llm': { summary: 'the five-minute first read: speed, five ability tests, three agent-fitness checks (bench-llm classic)', load: async () => (await import('./bench-llm')).command },
  cases: { summary: 'list the cases, or verify that every case proves itself (references run, answers re-derived)', load: async () => (await import('./cases')).command },
  compare: { summary: 'compare two runs (or two models of one run) with exact tests and gate a change: exit 1 when worse', load: async () => (await import('./compare')).command },
  config: { summary: 'show and check models.yaml, or write a commented example (--init)', load: async () => (await import('./config')).command },
  demo: { summary: 'the main job end to end on a simulated endpoint: speed, the standard profile, judging, reports', load: async () => (await import('./demo')).command },
  gui: { summary: 'serve the web GUI on 127.0.0.1:8777 (models, new run, live log, results, any case)', load: async () => (await import('./gui')).command },
  'import-openclaw': { summary: 'import providers and models from OpenClaw\'s config (keys never copied, models disabled)', load: async () => (await import('./import-openclaw')).command },
  judge: { summary: 'judge the prose answers of a run against their reference answers', load: async () => (await import('./judge')).command },
  lease: { summary: 'rent GPUs from a StudioForge server (or lock them locally) and give them back', load: async () => (await import('./lease')).command },
  models: { summary: 'configured models and what each endpoint serves (size, quantization)', load: async () => (await import('./models')).command },
  pairwise: { summary: 'compare models answer by answer with the judge, both orders (win/tie/loss, ratings)', load: async () => (await import('./pairwise')).command },
  recover: { summary: 're-run the reasoning-overflow rows of a run with the recovery ladder', load: async () => (await import('./recover')).command },
  regrade: { summary: 're-grade a run\'s stored replies with the current graders (no model calls; versioned records)', load: async () => (await import('./regrade')).command },
  report: { summary: 'write report.md, report.json and report.html and print the summary table', load: async () => (await import('./report')).command },
  run: { summary: 'benchmark models on a profile (durable, resumable; judge and report follow)', load: async () => (await import('./run')).command },
  sandbox: { summary: 'run a program in the sandbox', load: async () => (await import('./sandbox')).command },
  sim: { summary: 'serve the simulated OpenAI-compatible endpoint (demo models or a YAML config)', load: async () => (await import('./sim')).command },
  speed: { summary: 'measure TTFT, decode and prefill speed of one model, with a roofline plausibility check', load: async () => (await import('./speed')).command },
  status: { summary: 'providers up or down, per-model preflight, cases per profile, latest runs', load: async () => (await import('./status')).command },
};
