export { startLeaseServerDouble } from './server';
export type { LeaseServerDouble, LeaseServerDoubleOptions, RecordedRequest, ScriptedReply } from './server';
export { LeaseBook } from './book';
export type { DoubleLease, DoubleModel, DoubleResident, VacateAsk, BookReply } from './book';
export { createManualTime } from './manual-time';
export type { ManualTime } from './manual-time';
