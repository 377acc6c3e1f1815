export { startSimEndpoint } from './server';
export { simBannerLines } from './banner';
export { simTokenize, countPromptTokens } from './tokenize';
export { parseSimConfig, loadSimConfig, SIM_ERRORS, DEFAULT_SIM_CONFIG } from './config';
export type { SimErrorCode } from './config';
export { detectReasoningOff } from './request';
export type {
  AnswerContext,
  AnswerFn,
  ReasoningEncoding,
  SimAnswer,
  SimAnswerError,
  SimEndpoint,
  SimEndpointOptions,
  SimFault,
  SimModelOptions,
  SimRequestView,
  SimTruth,
  UsagePlacement,
} from './types';
