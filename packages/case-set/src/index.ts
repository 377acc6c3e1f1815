export { caseSetDir, CASE_SET_MARKER } from './dir';
