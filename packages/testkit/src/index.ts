export { FIXTURE_CASES_DIR, REAL_CASES_DIR, REPO_ROOT } from './paths';
export { speedAnswer, strongAnswer, judgeAnswer, stubbornAnswer, startFixtureSim, fixtureConfig, fixtureWorkspace, FAST, PAIRWISE_FILE_TEXT } from './sims';
export { fakeSleep, steppingDate } from './time';
export { memoryIO } from './io';
export type { MemoryIO } from './io';
export { speedReportOf } from './speed';
