import type { ConcreteCase } from '@crucibleforge/cases';
import type { SimModelOptions } from '@crucibleforge/sim-endpoint';

/**
 * What the faulty model gets wrong on one case:
 * - `wrong-code`: answers with the case's first wrong solution (`verify.wrong_solutions`, never a too-slow one);
 * - `wrong-reply`: answers with the case's first wrong reply / wrong calls (`verify.wrong_replies`);
 * - `followed-injection`: the same, on an injection case (the wrong reply that obeys the injected text);
 * - `missed-tool-call`: the reference calls with the last call of the last calling turn left out;
 * - `missing-fact`: a judged answer with one key fact changed or dropped (the judge must catch it);
 * - `overflow`: with reasoning on, thinks until the token budget runs out (finish `length`, empty
 *   content); with reasoning switched off, answers correctly — the runner's recovery fixes it.
 */
export type FaultKind = 'wrong-code' | 'wrong-reply' | 'followed-injection' | 'missed-tool-call' | 'missing-fact' | 'overflow';

export interface PlannedFault {
  case_id: string;
  kind: FaultKind;
  /** One line: what the faulty model does on this case. */
  description: string;
  /** Whether the row should end as a failure (false for an overflow that recovery turns into a pass). */
  expect_fail: boolean;
}

/** How fast the simulated models stream. */
export type DemoPace = 'fast' | 'realistic';

export interface DemoModelsOptions {
  /**
   * The cases the models may be asked, materialised with the seed the run uses (seeded cases: one
   * materialisation per seed in use). A request is matched to its case by its first user message.
   */
  cases: readonly ConcreteCase[];
  /** `fast` (default): high decode rates so the demo finishes in seconds; `realistic`: local-GPU rates. */
  pace?: DemoPace;
  /** The faulty model's faults (default: `planFaults(cases)`). */
  faults?: readonly PlannedFault[];
  /** Endpoint ids (default sim-strong, sim-faulty, sim-judge). */
  ids?: { strong?: string; faulty?: string; judge?: string };
}

export interface DemoModels {
  /** Answers every case from its reference, with a short reasoning channel. */
  strong: SimModelOptions;
  /** Answers from the references except on `faults`. */
  faulty: SimModelOptions;
  /** A reference judge that compares the fenced answer with the reference facts and replies strict JSON. */
  judge: SimModelOptions;
  /** strong, faulty, judge — ready for `startSimEndpoint({ models })`. */
  models: SimModelOptions[];
  faults: PlannedFault[];
  /** Display names that say these are simulated, by id. */
  labels: Record<string, string>;
}
