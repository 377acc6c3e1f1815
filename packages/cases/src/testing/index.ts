// Test material for other packages' tests (unstable): hostile replies to coding cases.
export { PYTHON_EXPLOITS, NODE_EXPLOITS, exploitReply } from './exploits';
export type { Exploit } from './exploits';
