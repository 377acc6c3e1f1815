import type { ChatMessage, ToolDefinition } from '@crucibleforge/core';

/** Longest piece the sim tokenizer emits, in UTF-16 code units (surrogate pairs are never split). */
const MAX_TOKEN_CHARS = 4;

/**
 * The sim's deterministic tokenizer: the text is cut into words (each with its leading whitespace),
 * and each word into pieces of at most 4 characters. `simTokenize(t).join('') === t` always holds.
 */
export function simTokenize(text: string): string[] {
  const tokens: string[] = [];
  for (const word of text.match(/\s*\S+|\s+/g) ?? []) {
    const chars = Array.from(word);
    let piece = '';
    for (const char of chars) {
      if (piece.length > 0 && piece.length + char.length > MAX_TOKEN_CHARS) {
        tokens.push(piece);
        piece = '';
      }
      piece += char;
    }
    if (piece.length > 0) tokens.push(piece);
  }
  return tokens;
}

/** The characters of one message that count toward the prompt: its content and any tool calls it made. */
function messageChars(message: ChatMessage): number {
  let chars = message.content?.length ?? 0;
  for (const call of message.tool_calls ?? []) chars += call.name.length + call.arguments.length;
  return chars;
}

/**
 * The prompt token count the sim reports: ceil(chars / 4) over all message contents (plus the names
 * and arguments of tool calls in assistant turns) and the JSON text of the tool definitions.
 */
export function countPromptTokens(messages: readonly ChatMessage[], tools?: readonly ToolDefinition[]): number {
  let chars = 0;
  for (const message of messages) chars += messageChars(message);
  if (tools && tools.length > 0) chars += JSON.stringify(tools).length;
  return Math.ceil(chars / 4);
}
