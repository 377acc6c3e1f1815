/**
 * bench-llm's suite on the runner's case loop: a profile of the case set in bench-llm's order, one case
 * at a time, the speed measured first, stored as a run; its events shown the reporter's bench-llm way.
 */
import { inSeedOrder } from '@crucibleforge/cases/internal';
import { BenchSections, benchSpeedSection, type Paint } from '@crucibleforge/report';
import type { SpeedReport } from '@crucibleforge/speed';
import { createRun, defaultDriver, type CreateRunOptions } from './api';
import type { CaseDriver } from './driver';
import type { RunHandle } from './engine';
import { readRunSpeed } from './speed-store';
import type { RunRow } from './storage-types';

export interface BenchRunOptions extends Omit<CreateRunOptions, 'driver' | 'models' | 'casesDir'> {
  /** The one model's label in `config`. */
  label: string;
  casesDir: string;
  paint: Paint;
  /** Lines to show (the speed section, each test as it ends, a score per section). */
  say: (lines: string[]) => void;
  /** A notice or the endpoint's failure. */
  warn: (line: string) => void;
}

export interface BenchRunResult {
  speed: SpeedReport | null;
  rows: RunRow[];
  run: { run_id: string; dir: string };
  /** The model was stopped (its endpoint failed). */
  stopped: boolean;
}

/** The case set's driver with its plan in bench-llm's order (the runner runs one at a time, in plan order). */
function inSuiteOrder(driver: CaseDriver): CaseDriver {
  return { ...driver, plan: async (selection) => inSeedOrder(await driver.plan(selection)) };
}

async function follow(handle: RunHandle, o: BenchRunOptions, speedOf: () => Promise<SpeedReport | null>): Promise<{ rows: RunRow[]; stopped: boolean }> {
  const sections = new BenchSections<RunRow>(handle.plan.cases, o.paint);
  const say = (lines: string[]) => lines.length > 0 && o.say(lines);
  let stopped = false;
  for await (const event of handle.events) {
    if (event.type === 'speed') {
      const report = await speedOf();
      if (report) say(benchSpeedSection(report, o.paint));
    } else if (event.type === 'case-start') say(sections.start(event.case_id));
    else if (event.type === 'case-end') say(sections.end(event.row));
    else if (event.type === 'run-end') say(sections.close());
    else if (event.type === 'notice') o.warn(event.message);
    else if (event.type === 'model-stopped') {
      stopped = true;
      o.warn(`the endpoint failed: ${event.message}`);
    }
  }
  return { rows: sections.rows, stopped };
}

/** Runs the suite: preflight, the speed measurement, then the tests one at a time, stored as a run in `resultsDir`. */
export async function benchRun(o: BenchRunOptions): Promise<BenchRunResult> {
  const { label, paint: _paint, say: _say, warn: _warn, ...run } = o;
  const handle = await createRun({ ...run, models: [label], driver: inSuiteOrder(await defaultDriver(o.casesDir)) });
  const speedOf = async () => (await readRunSpeed(o.resultsDir, handle.runId))?.find((s) => s.model === label)?.report ?? null;
  const { rows, stopped } = await follow(handle, o, speedOf);
  await handle.done;
  return { speed: await speedOf(), rows, run: { run_id: handle.runId, dir: handle.plan.dir }, stopped };
}
