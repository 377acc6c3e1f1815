import type { Category, ChatMessage, GradeOutcome } from '@crucibleforge/core';
import type { CaseRequest, GradeInput, NextStep, PlannedCase } from '@crucibleforge/cases';
import type { Sandbox } from '@crucibleforge/sandbox';

/** The runner never lets one case make more model calls than this, whatever the driver says. */
export const MAX_CASE_TURNS = 30;

/** What a driver may use of the run's world: the grading sandbox, opened the first time a case needs it. */
export interface DriverWorld {
  sandbox: () => Promise<Sandbox>;
}

/** What the model produced over all turns, as a driver grades it (every call, the whole conversation). */
export type FinalReply = GradeInput & { tool_calls: NonNullable<GradeInput['tool_calls']> };

/**
 * Where cases come from and how they are graded; `C` is the driver's own materialised case. The default drives
 * @crucibleforge/cases (`C` = its MaterializedCase, with the cases package's planned case, request and next
 * step); a custom harness supplies its own `C` and the same four steps.
 */
export interface CaseDriver<C = unknown> {
  /** Which graders `grade` applies (recorded in every row; `regrade` writes it beside a re-grade). */
  graderVersion?: string;
  plan(selection: { profile: string; categories: Category[] | null }): Promise<PlannedCase[]>;
  materialize(planned: PlannedCase, seed: number | null, world: DriverWorld): Promise<C>;
  /** What is sent first (and frozen into the row for the judge), and the context the case needs. */
  request(materialized: C): CaseRequest;
  /** What to send after the model's latest reply (the transcript ends with it). */
  next(materialized: C, transcript: ChatMessage[]): NextStep;
  /** Grades what the model produced over all turns (content only; reasoning is never graded). */
  grade(materialized: C, final: FinalReply, world: DriverWorld): Promise<GradeOutcome>;
}
