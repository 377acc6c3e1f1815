export { startSimEndpoint } from './server';
export { simBannerLines, relayBannerLines } from './banner';
export { simTokenize, countPromptTokens } from './tokenize';
export { parseSimConfig, loadSimConfig, SIM_ERRORS, DEFAULT_SIM_CONFIG } from './config';
export type { SimErrorCode } from './config';
export { detectReasoningOff } from './request';
export { createRelayAnswer } from './relay-files';
export type { RelayFiles, RelayOptions } from './relay-files';
export { startRelayEndpoint, DEFAULT_RELAY_MODEL } from './relay-endpoint';
export type { RelayEndpointOptions } from './relay-endpoint';
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
