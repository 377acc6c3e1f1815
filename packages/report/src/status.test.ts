import { describe, expect, it } from 'vitest';
import { renderModelStatus, type ModelStatus } from './status';

const stopped: ModelStatus = {
  stop: { reason: 'endpoint-down', message: 'upstream said \u001b[2J\u001b]0;owned\u0007 and closed', at: '2030-01-01T00:00:00.000Z' },
  planned: 6,
  ran: 1,
  not_run: 5,
  attempts: { requests: 3, retries: 2, wait_s: 1.5, faults: { 'connect-refused': 2 }, failed: { 'connect-refused': 1 }, dropped_events: 0 },
};

describe('renderModelStatus', () => {
  it("shows a stop message's control characters instead of sending them to the terminal", () => {
    const text = renderModelStatus([{ model: 'm\u009b31m', status: stopped }]);
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(text).toContain('upstream said ␛[2J␛]0;owned␇ and closed');
    expect(text).toContain('ran 1 of 6 cases, 5 not run');
  });
});
