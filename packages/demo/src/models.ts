import type { SimAnswer, SimModelOptions, SimRequestView } from '@crucibleforge/sim-endpoint';
import { FILLER_ANSWER, referenceAnswer } from './answers';
import { faultyAnswer, planFaults } from './faults';
import { judgeAnswer } from './judge';
import { assistantTurn, createCaseMatcher } from './match';
import type { DemoModels, DemoModelsOptions, DemoPace } from './types';

type Speed = Pick<SimModelOptions, 'first_token_base_ms' | 'prefill_tps' | 'decode_tps'>;

/** Decode and prefill rates per pace: `realistic` is a 30B-class model on one good GPU; `fast` keeps a demo short. */
export const DEMO_PACES: Record<DemoPace, { strong: Speed; faulty: Speed }> = {
  realistic: {
    strong: { first_token_base_ms: 180, prefill_tps: 2_500, decode_tps: 85 },
    faulty: { first_token_base_ms: 320, prefill_tps: 1_200, decode_tps: 42 },
  },
  fast: {
    strong: { first_token_base_ms: 40, prefill_tps: 60_000, decode_tps: 2_400 },
    faulty: { first_token_base_ms: 70, prefill_tps: 30_000, decode_tps: 1_500 },
  },
};

const JUDGE_SPEED: Speed = { first_token_base_ms: 5, prefill_tps: 1_000_000, decode_tps: 20_000 };

function thinking(title: string | null): string {
  return title
    ? `The task is "${title}". I know how to solve this; I will answer in exactly the format the prompt asks for.`
    : 'A long free-form answer is wanted here; I will write it in plain, steady prose.';
}

/**
 * The demo's simulated models over a set of materialised cases: `strong` answers every case from its
 * reference (code in a fenced block, `Answer: N`, the reference calls turn by turn, the reference reply or
 * prose) with a short reasoning channel; `faulty` does the same except on its planned faults; `judge`
 * follows the reference-judge protocol honestly. Requests that match no case (speed prompts) get a
 * steady prose answer. See match.ts for how a request finds its case.
 */
export async function createDemoModels(options: DemoModelsOptions): Promise<DemoModels> {
  const pace = DEMO_PACES[options.pace ?? 'fast'];
  const ids = { strong: options.ids?.strong ?? 'sim-strong', faulty: options.ids?.faulty ?? 'sim-faulty', judge: options.ids?.judge ?? 'sim-judge' };
  const faults = [...(options.faults ?? (await planFaults(options.cases)))];
  const faultById = new Map(faults.map((f) => [f.case_id, f]));
  const match = createCaseMatcher(options.cases);

  const answer = (withFaults: boolean) => (view: SimRequestView): SimAnswer => {
    const c = match(view.messages);
    const reasoning = view.reasoning_off ? {} : { reasoning: thinking(c?.title ?? null) };
    if (!c) return { ...reasoning, content: FILLER_ANSWER };
    const turn = assistantTurn(view.messages);
    const fault = withFaults ? faultById.get(c.id) : undefined;
    return fault ? { ...reasoning, ...faultyAnswer(c, fault, turn, view) } : { ...reasoning, ...referenceAnswer(c, turn) };
  };

  const strong: SimModelOptions = {
    id: ids.strong,
    ...pace.strong,
    reasoning_encoding: 'reasoning_content',
    context_length: 131_072,
    answer: answer(false),
  };
  const faulty: SimModelOptions = {
    id: ids.faulty,
    ...pace.faulty,
    reasoning_encoding: 'reasoning',
    context_length: 65_536,
    answer: answer(true),
  };
  const judge: SimModelOptions = { id: ids.judge, ...JUDGE_SPEED, context_length: 32_768, answer: judgeAnswer };
  return {
    strong,
    faulty,
    judge,
    models: [strong, faulty, judge],
    faults,
    labels: {
      [ids.strong]: `${ids.strong} (simulated: answers from the case references)`,
      [ids.faulty]: `${ids.faulty} (simulated: realistic faults)`,
      [ids.judge]: `${ids.judge} (simulated reference judge)`,
    },
  };
}
