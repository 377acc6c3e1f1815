// Test support (also used by the demo): a GGUF writer and tiny random-weight llama models. Nothing large is committed.
export { writeGguf, gguf, toHalf, tensorByteSize, GGML_TYPES } from './gguf-writer';
export type { GgufFile, GgufTensor, GgufValue, GgmlTypeName, TypedArray, TypedValue } from './gguf-writer';
export { tinyLlama, writeTinyLlama, byteVocabulary } from './tiny-llama';
export type { TinyLlama, TinyLlamaOptions } from './tiny-llama';
