/** The CLI's terminal conventions (core's): colour, width, `--json`, untrusted text made inert. */
export { jsonMode, neutralizeControls as inert, terminalWidth, useColor } from '@crucibleforge/core';

/** The usage line every data command shares. */
export const JSON_FLAG_HELP = '  --json                print the result as one JSON object on stdout (the other lines go to stderr)';
