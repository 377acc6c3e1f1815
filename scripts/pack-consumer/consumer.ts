// A harness an adopter writes from the READMEs, typechecked strictly against the installed tarballs by
// scripts/pack-test.mjs (never run): every package imported, the glue between them used as documented.
import { caseSetDir } from '@crucibleforge/case-set';
import { caseRequest, grade, loadCaseSet, materializeCase, resultRow, type JudgeInput, type ResultRowInput } from '@crucibleforge/cases';
import { EXIT, main as cliMain, type CliIO } from '@crucibleforge/cli';
import { CrucibleError, type ChatReply, type ChatRequest, type ResultRow } from '@crucibleforge/core';
import { createDemoModels } from '@crucibleforge/demo';
import { createLlamaCppEngine, renderPpTg, type LlamaCppEngineOptions } from '@crucibleforge/engine-llamacpp';
import { startGuiServer } from '@crucibleforge/gui';
import { completerFrom, gradeFromVerdict, judgeAgainstReference, type JudgeCompleter } from '@crucibleforge/judge';
import { acquireLease } from '@crucibleforge/lease';
import { buildReport, renderMarkdown } from '@crucibleforge/report';
import { loadConfig } from '@crucibleforge/runner';
import { createSandbox } from '@crucibleforge/sandbox';
import { startSimEndpoint } from '@crucibleforge/sim-endpoint';
import { createTimedCompleter, streamChat } from '@crucibleforge/timing';
import { runSpeedBenchmark } from '@crucibleforge/speed';
import { writeGguf } from '@crucibleforge/speed/testing';

/** One model, every judged case of the shipped set: a row each, judged by a plain function. */
export async function harness(model: (request: ChatRequest) => Promise<ChatReply>, judgeModel: JudgeCompleter): Promise<ResultRow[]> {
  const loaded = await loadCaseSet(caseSetDir);
  const sandbox = await createSandbox();
  const rows: ResultRow[] = [];
  for (const picked of loaded.cases) {
    const c = await materializeCase(picked.def, 1, { sandbox });
    const request = caseRequest(c);
    const judgeInput: JudgeInput | undefined = request.judge_input;
    if (!judgeInput) continue;
    const messages = request.messages;
    const started = new Date();
    const reply = await model({ messages, max_tokens: c.max_tokens, temperature: c.temperature });
    let outcome = await grade(c, { content: reply.content, tool_calls: reply.tool_calls, finish_reason: reply.finish_reason }, { sandbox });
    const record = await judgeAgainstReference(
      { ...judgeInput, answer: reply.content, caseId: c.id },
      { complete: judgeModel, identity: { model: 'judge', endpoint: 'http://127.0.0.1:1/v1' } },
    );
    if (outcome.status === 'pending') outcome = gradeFromVerdict(record);
    const input: ResultRowInput = { run_id: 'r', model: 'm', provider: 'local', case: c, messages, reply, grade: outcome, judge: record, started_at: started };
    rows.push(resultRow(input));
  }
  const report = buildReport({ rows, generatedAt: new Date().toISOString(), toolVersion: '0.1.0' });
  void renderMarkdown(report);
  return rows;
}

/** A GGUF in process: the engine is a timed completer like the HTTP one. */
export async function inProcess(options: LlamaCppEngineOptions): Promise<string> {
  const engine = createLlamaCppEngine(options);
  try {
    const timed = await engine.completeTimed({ messages: [{ role: 'user', content: 'Hi' }], max_tokens: 8 });
    return `${timed.reply.content} ${renderPpTg(await engine.benchmark({ promptTokens: 8, generateTokens: 4, repetitions: 1 }))}`;
  } finally {
    await engine.close();
  }
}

export const everything = [
  writeGguf, runSpeedBenchmark,
  cliMain, EXIT, CrucibleError, createDemoModels, startGuiServer, acquireLease, loadConfig, startSimEndpoint,
  streamChat, createTimedCompleter, completerFrom,
] as const;
export type { CliIO };
