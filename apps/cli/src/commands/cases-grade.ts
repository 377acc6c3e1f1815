import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ChatMessage, FinishReason, ToolCall } from '@crucibleforge/core';
import { CrucibleError } from '@crucibleforge/core';
import { assertKnownIds, grade as gradeReply, initialMessages, materializeCase, type GradeInput, type LoadedCase, type MaterializedCase } from '@crucibleforge/cases';
import { createSandbox, type Sandbox } from '@crucibleforge/sandbox';
import { intFlag, parseCommandArgs } from '../args';
import { casesDirOf } from '../cases-dir';
import { EXIT, UsageError, type CliIO } from '../io';
import { inert } from '../output';
import { loadSelection } from './cases-load';

const FINISH_REASONS = new Set(['stop', 'length', 'tool_calls', 'content_filter', 'error']);

function toolCall(raw: unknown, where: string): ToolCall {
  const c = raw as Partial<Record<'id' | 'name' | 'arguments', unknown>>;
  if (c === null || typeof c !== 'object' || typeof c.name !== 'string') throw new UsageError(`${where}: a tool call needs a "name" string`);
  const args = typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments ?? {});
  return { id: typeof c.id === 'string' ? c.id : `call_${c.name}`, name: c.name, arguments: args };
}

/**
 * A reply file: the reply text, or a JSON object with a string `content` as the runner stores a row
 * ({content, tool_calls_by_turn?, tool_calls?, transcript?, finish_reason?}; other keys are ignored).
 * Any other text, JSON included, is the reply itself (`text` forces that). Pure; bad fields name the file.
 */
export function parseReplyFile(text: string, file: string, forceText = false): GradeInput {
  if (forceText || !text.trimStart().startsWith('{')) return { content: text };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { content: text };
  }
  const row = parsed as Record<string, unknown>;
  if (row === null || typeof row !== 'object' || Array.isArray(row) || typeof row['content'] !== 'string') return { content: text };
  const input: GradeInput = { content: row['content'] };
  const byTurn = row['tool_calls_by_turn'];
  if (byTurn !== undefined) {
    if (!Array.isArray(byTurn) || !byTurn.every(Array.isArray)) throw new UsageError(`${file}: "tool_calls_by_turn" must be an array of arrays of tool calls`);
    input.tool_calls = (byTurn as unknown[][]).flatMap((turn, t) => turn.map((c, i) => toolCall(c, `${file}: tool_calls_by_turn[${t}][${i}]`)));
  } else if (row['tool_calls'] !== undefined) {
    if (!Array.isArray(row['tool_calls'])) throw new UsageError(`${file}: "tool_calls" must be an array`);
    input.tool_calls = row['tool_calls'].map((c, i) => toolCall(c, `${file}: tool_calls[${i}]`));
  }
  const transcript = row['transcript'];
  if (transcript !== undefined) {
    if (!Array.isArray(transcript) || !transcript.every((m) => m !== null && typeof m === 'object' && typeof (m as ChatMessage).role === 'string')) {
      throw new UsageError(`${file}: "transcript" must be an array of chat messages ({role, content, …})`);
    }
    input.transcript = transcript as ChatMessage[];
  }
  const finish = row['finish_reason'];
  if (finish !== undefined && finish !== null) {
    if (typeof finish !== 'string' || !FINISH_REASONS.has(finish)) throw new UsageError(`${file}: "finish_reason" must be one of ${[...FINISH_REASONS].join(', ')}`);
    input.finish_reason = finish as FinishReason;
  }
  return input;
}

export async function pickCase(io: CliIO, casesFlag: string | undefined, id: string | undefined, what: string): Promise<LoadedCase | number> {
  if (id === undefined) throw new UsageError(`cases ${what} needs a case id`);
  const dir = casesDirOf(io, casesFlag);
  const selection = await loadSelection(io, dir, undefined);
  if (typeof selection === 'number') return selection;
  try {
    assertKnownIds([id], selection.all, `cases ${what}`);
  } catch (error) {
    if (CrucibleError.isInstance(error) && error.code === 'CASES_UNKNOWN_CASE') {
      io.stderr.write(`crucibleforge cases: ${error.message}\n`);
      return EXIT.usage;
    }
    throw error;
  }
  return selection.all.find((c) => c.def.id === id)!;
}

/** Materialises the case for the seed as a run does (derive programs in the sandbox); a number is an exit code. */
export async function concrete(io: CliIO, c: LoadedCase, seed: number, sandbox: () => Promise<Sandbox>): Promise<MaterializedCase | number> {
  try {
    return await materializeCase(c.def, seed, c.def.derive ? { sandbox: await sandbox() } : {});
  } catch (error) {
    if (CrucibleError.isInstance(error) && error.code === 'SANDBOX_UNAVAILABLE') {
      io.stderr.write(`crucibleforge cases: ${error.message}\n`);
      return EXIT.noSandbox;
    }
    if (CrucibleError.isInstance(error) && error.code.startsWith('CASES_')) {
      io.stderr.write(`crucibleforge cases: ${error.message}\n`);
      return EXIT.failed;
    }
    throw error;
  }
}

export function lazySandbox(io: CliIO, allowUnsandboxed: boolean): () => Promise<Sandbox> {
  const bwrapPath = io.env['CRUCIBLEFORGE_BWRAP'];
  let made: Promise<Sandbox> | null = null;
  return () => (made ??= createSandbox({ allowUnsandboxed, poolSize: 2, ...(bwrapPath ? { bwrapPath } : {}) }));
}

/** `cases grade <id> --reply FILE`: grades one reply exactly as a run does. Exit 0 pass, 1 anything else. */
export async function grade(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    reply: { type: 'string' },
    seed: { type: 'string' },
    cases: { type: 'string' },
    json: { type: 'boolean' },
    text: { type: 'boolean' },
    'allow-unsandboxed': { type: 'boolean' },
  });
  if (positionals.length > 1) throw new UsageError(`cases grade takes one case id, got ${positionals.length}`);
  if (values.reply === undefined) throw new UsageError('cases grade needs --reply FILE (the reply text, or the runner\'s JSON row)');
  const seed = intFlag('seed', values.seed, 1, 0);
  const file = resolve(io.cwd, values.reply);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--reply ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : error instanceof Error ? error.message : String(error)}`);
  }
  const input = parseReplyFile(text, file, values.text ?? false);
  const picked = await pickCase(io, values.cases, positionals[0], 'grade');
  if (typeof picked === 'number') return picked;
  const sandbox = lazySandbox(io, values['allow-unsandboxed'] ?? false);
  const c = await concrete(io, picked, seed, sandbox);
  if (typeof c === 'number') return c;
  let box: Sandbox | undefined;
  if (c.grader.type === 'code') {
    try {
      box = await sandbox();
    } catch (error) {
      if (CrucibleError.isInstance(error) && error.code === 'SANDBOX_UNAVAILABLE') {
        io.stderr.write(`crucibleforge cases grade: ${error.message}\n`);
        return EXIT.noSandbox;
      }
      throw error;
    }
    if (!box.sandboxed) io.stderr.write('crucibleforge cases grade: WARNING: bwrap is unavailable; running the reply WITHOUT a sandbox\n');
  }
  const outcome = await gradeReply(c, input, { ...(box ? { sandbox: box } : {}), signal: io.signal });
  if (values.json) {
    io.stdout.write(`${JSON.stringify({ id: c.id, seed: c.seed, revision: c.revision, ...outcome })}\n`);
  } else {
    const label = outcome.status === 'pass' ? 'PASS' : outcome.status.toUpperCase();
    io.stdout.write(`${label} ${c.id}${c.seed === null ? '' : ` (seed ${c.seed})`}: ${inert(outcome.reason)}\n`);
  }
  return outcome.status === 'pass' ? EXIT.ok : EXIT.failed;
}

/** `cases show <id>`: exactly what the model is sent for the case and seed; never the reference, grader or verify data. */
export async function show(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    seed: { type: 'string' },
    cases: { type: 'string' },
    json: { type: 'boolean' },
    'allow-unsandboxed': { type: 'boolean' },
  });
  if (positionals.length > 1) throw new UsageError(`cases show takes one case id, got ${positionals.length}`);
  const seed = intFlag('seed', values.seed, 1, 0);
  const picked = await pickCase(io, values.cases, positionals[0], 'show');
  if (typeof picked === 'number') return picked;
  const c = await concrete(io, picked, seed, lazySandbox(io, values['allow-unsandboxed'] ?? false));
  if (typeof c === 'number') return c;
  const messages = initialMessages(c);
  if (values.json) {
    io.stdout.write(`${JSON.stringify({ messages, tools: c.tools, turns: c.turns, max_tokens: c.max_tokens }, null, 2)}\n`);
    return EXIT.ok;
  }
  const parts: string[] = [];
  if (c.system) parts.push(`--- system\n${c.system.trimEnd()}`);
  c.turns.forEach((turn, i) => {
    const when = i === 0 ? '' : ' (sent after the previous reply)';
    parts.push(`--- user, turn ${i + 1} of ${c.turns.length}${when}\n${turn.trimEnd()}`);
  });
  if (c.tools.length > 0) {
    parts.push(`--- tools (${c.tools.length}; their results come from the case's scripted world)\n${JSON.stringify(c.tools, null, 2)}`);
  }
  parts.push(`--- max_tokens: ${c.max_tokens}${c.seed === null ? '' : `; seed ${c.seed}`}`);
  io.stdout.write(`${parts.join('\n\n')}\n`);
  return EXIT.ok;
}
