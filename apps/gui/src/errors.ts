import { CrucibleError, type CrucibleErrorOptions, type ErrorTable } from '@crucibleforge/core';

/** Every code startGuiServer throws (requests never throw: they get an HTTP status and a message). */
export type GuiErrorCode = 'GUI_BAD_OPTIONS' | 'GUI_TOKEN_INVALID' | 'GUI_LISTEN_FAILED';

export const GUI_ERRORS = {
  GUI_BAD_OPTIONS: { kind: 'config', retryable: false },
  GUI_TOKEN_INVALID: { kind: 'config', retryable: false },
  GUI_LISTEN_FAILED: { kind: 'internal', retryable: false },
} as const satisfies ErrorTable<GuiErrorCode>;

export class GuiError extends CrucibleError<GuiErrorCode> {
  constructor(code: GuiErrorCode, message: string, options: CrucibleErrorOptions = {}) {
    super(code, message, { ...options, kind: GUI_ERRORS[code].kind });
    this.name = 'GuiError';
  }
}
