import { CrucibleError } from '@crucibleforge/core';

/** Every code startGuiServer throws (requests never throw: they get an HTTP status and a message). */
export type GuiErrorCode = 'GUI_BAD_OPTIONS' | 'GUI_TOKEN_INVALID' | 'GUI_LISTEN_FAILED';

export class GuiError extends CrucibleError<GuiErrorCode> {
  constructor(code: GuiErrorCode, message: string, options: ConstructorParameters<typeof CrucibleError>[2] = {}) {
    super(code, message, options);
    this.name = 'GuiError';
  }
}
