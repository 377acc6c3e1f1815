export { caseSetDir, CASE_SET_MARKER } from './dir';
export { defaultCasesDir, findCasesDir, shippedCasesDir } from './locate';
