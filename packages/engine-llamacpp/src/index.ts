export { createLlamaCppEngine, modelIdOf } from './engine';
export type { EngineInfo, LlamaCppEngine, LlamaCppEngineOptions } from './engine';
// benchPpTg stays inside: its target holds node-llama-cpp objects (engine.benchmark() is the way in)
export { renderPpTg, meanSd } from './bench';
export type { PpTgOptions, PpTgReport, PpTgTest } from './bench';
export { ENGINE_NAME } from './llama';
export { openGgufEngine, engineLine, fitPpTg, runPpTg } from './open';
export type { OpenedEngine } from './open';
export { engineError, isEngineError, ENGINE_ERRORS, ENGINE_ERROR_CODES } from './errors';
export type { EngineError, EngineErrorCode } from './errors';
