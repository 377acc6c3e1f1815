/**
 * The one message of the runner's preflight (a real streamed completion before a run). Shared so that an endpoint
 * standing in for a model (the sim's relay) can recognise the preflight and answer it at once.
 */
export const PREFLIGHT_PROMPT = 'Reply with the single word: ready';
