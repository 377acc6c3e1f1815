import type { FetchLike } from '@crucibleforge/core';
import {
  createRun,
  defaultDriver,
  EventChannel,
  planRun,
  type CaseDriver,
  type CostEstimate,
  type RunnerConfig,
  type RunnerConfigData,
  type RunProgress,
  type RunSummary,
  type RunWorld,
} from '@crucibleforge/runner';
import { HttpError } from './http';
import { liveMessages, type LiveMessage } from './live';
import type { RunRequest } from './request';

export interface RunServiceOptions {
  resultsDir: string;
  casesDir: string;
  /** Where API keys are read from (the CLI passes its environment). */
  env: Record<string, string | undefined>;
  toolVersion: string;
  fetch?: FetchLike;
  /** Local GPU lock directory: the same one the CLI uses, so GUI and CLI runs share one lease per GPU. */
  leaseCacheDir?: string;
  allowUnsandboxed?: boolean;
  /** Where cases come from (default: the cases package over `casesDir`). */
  driver?: CaseDriver;
  /** Extra world for the runner (tests: a sandbox, a clock). `fetch` above wins. */
  world?: RunWorld;
  now: () => Date;
}

export type LiveStatus = 'running' | 'stopping' | 'finished' | 'failed';

/** A run started by this server: its replayable message stream and where it stands. */
export interface LiveRun {
  id: string;
  status: LiveStatus;
  started_at: string;
  models: string[];
  profile: string;
  progress: RunProgress | null;
  summary: RunSummary | null;
  error: string | null;
  /** Every message so far, replayed to each new subscriber. */
  channel: EventChannel<LiveMessage>;
  /** Settles when the run has ended and its stream is closed. */
  finished: Promise<void>;
  stop(): void;
}

export interface RunEstimate {
  /** The run this would continue (same profile, models, categories, seed, cases and unfinished), or null for a new one. */
  resumes: string | null;
  cases: number;
  total: number;
  already_done: number;
  models: string[];
  estimate: CostEstimate;
}

export interface LiveRunView {
  run_id: string;
  status: LiveStatus;
  started_at: string;
  profile: string;
  models: string[];
  progress: RunProgress | null;
  error: string | null;
}

export function liveView(run: LiveRun): LiveRunView {
  return { run_id: run.id, status: run.status, started_at: run.started_at, profile: run.profile, models: run.models, progress: run.progress, error: run.error };
}

/**
 * A priced run starts only when the request itself accepts its cost (the page's tick is not enough: any
 * client can POST): `accept_cost_usd` at least the server's own upper bound, or a `budget_usd` no higher than
 * what was accepted (the runner stops before passing the budget). 428 otherwise, naming the amount.
 */
export function confirmCost(estimate: CostEstimate, budgetUsd: number | null, accepted: number | null): void {
  if (!estimate.priced || estimate.total_usd <= 0) return;
  const bound = `$${estimate.total_usd.toFixed(4)}`;
  if (accepted === null) {
    throw new HttpError(428, `this run is priced (up to ${bound}): send accept_cost_usd (at least ${bound}, or with a budget_usd no higher than it) to start it`);
  }
  const epsilon = 1e-9;
  if (accepted + epsilon >= estimate.total_usd) return;
  if (budgetUsd !== null && budgetUsd <= accepted + epsilon) return;
  throw new HttpError(428, `accept_cost_usd $${accepted.toFixed(4)} is below this run's upper bound of ${bound}; accept at least that, or set budget_usd to at most $${accepted.toFixed(4)}`);
}

/**
 * Starts runs through the runner (the same planning, storage and lease path as `crucibleforge run`), one at a
 * time per GUI, and keeps each run's messages for the live page.
 */
export class RunService {
  #runs = new Map<string, LiveRun>();
  #active: LiveRun | null = null;
  #starting = false;

  constructor(private readonly options: RunServiceOptions) {}

  #driver(): Promise<CaseDriver> {
    return this.options.driver ? Promise.resolve(this.options.driver) : defaultDriver(this.options.casesDir);
  }

  #world(): RunWorld {
    return { ...this.options.world, ...(this.options.fetch ? { fetch: this.options.fetch } : {}) };
  }

  #planOptions(config: RunnerConfig | RunnerConfigData, request: RunRequest, driver: CaseDriver) {
    return {
      config,
      env: this.options.env,
      models: request.models,
      profile: request.profile,
      categories: request.categories,
      seed: request.seed,
      speed: request.speed,
      resultsDir: this.options.resultsDir,
      casesDir: this.options.casesDir,
      driver,
      toolVersion: this.options.toolVersion,
      ...(request.budget_usd === null ? {} : { budgetUsd: request.budget_usd }),
    };
  }

  /** What a run would do and cost at most; nothing is written or sent. */
  async estimate(config: RunnerConfig | RunnerConfigData, request: RunRequest): Promise<RunEstimate> {
    const plan = await planRun(this.#planOptions(config, request, await this.#driver()));
    return {
      resumes: plan.resumed ? plan.runId : null,
      cases: plan.cases.length,
      total: plan.total,
      already_done: plan.alreadyDone,
      models: plan.models.map((m) => m.resolved.label),
      estimate: plan.estimate,
    };
  }

  active(): LiveRun | null {
    return this.#active;
  }

  get(id: string): LiveRun | undefined {
    return this.#runs.get(id);
  }

  async start(config: RunnerConfig | RunnerConfigData, request: RunRequest): Promise<LiveRun> {
    if (this.#starting || this.#active) {
      const which = this.#active ? `run ${this.#active.id} is still going` : 'another run is starting';
      throw new HttpError(409, `${which}: one run at a time (stop it or wait for it to finish)`);
    }
    this.#starting = true;
    let live: LiveRun;
    try {
      const driver = await this.#driver();
      const planOptions = this.#planOptions(config, request, driver);
      const plan = await planRun(planOptions);
      confirmCost(plan.estimate, plan.budgetUsd, request.accept_cost_usd);
      const handle = await createRun({
        ...planOptions,
        plan,
        world: this.#world(),
        ...(this.options.leaseCacheDir ? { leaseCacheDir: this.options.leaseCacheDir } : {}),
        ...(this.options.allowUnsandboxed ? { allowUnsandboxed: true } : {}),
      });
      const channel = new EventChannel<LiveMessage>();
      let settle!: () => void;
      live = {
        id: handle.runId,
        status: 'running',
        started_at: this.options.now().toISOString(),
        models: handle.plan.models.map((m) => m.resolved.label),
        profile: request.profile,
        progress: null,
        summary: null,
        error: null,
        channel,
        finished: new Promise<void>((resolve) => (settle = resolve)),
        stop: () => {
          if (live.status !== 'running') return;
          live.status = 'stopping';
          channel.push({ type: 'log', level: 'warn', text: 'stop requested: no new cases start; requests in flight are cancelled', at: this.options.now().toISOString() });
          handle.stop('stopped from the GUI');
        },
      };
      this.#runs.set(live.id, live);
      this.#active = live;
      void this.#follow(live, handle).finally(settle);
    } finally {
      this.#starting = false;
    }
    return live;
  }

  async #follow(live: LiveRun, handle: Awaited<ReturnType<typeof createRun>>): Promise<void> {
    const pump = (async () => {
      for await (const event of handle.events) {
        for (const message of liveMessages(event, this.options.now().toISOString())) {
          if (message.type === 'progress') {
            const { type: _type, ...progress } = message;
            live.progress = progress;
          }
          live.channel.push(message);
        }
      }
    })();
    try {
      live.summary = await handle.done;
      live.status = 'finished';
    } catch (error) {
      live.status = 'failed';
      live.error = error instanceof Error ? error.message : String(error);
    }
    await pump.catch(() => undefined);
    if (live.status === 'failed') {
      live.channel.push({ type: 'log', level: 'error', text: `the run failed: ${live.error}`, at: this.options.now().toISOString() });
      live.channel.push({ type: 'failed', message: live.error ?? 'unknown error' });
    }
    live.channel.close();
    if (this.#active === live) this.#active = null;
  }

  /** Stops a run of this server; false when it is not running here. */
  stop(id: string): boolean {
    const live = this.#runs.get(id);
    if (!live || live.status !== 'running') return false;
    live.stop();
    return true;
  }

  /** Stops whatever runs and waits for it to wind down (server shutdown). */
  async stopAll(): Promise<void> {
    const active = this.#active;
    if (!active) return;
    active.stop();
    await active.finished;
  }
}
