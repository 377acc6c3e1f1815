import type { TimingTimeouts } from './types';

export type TimeoutKind = 'connect' | 'first_token' | 'gap' | 'total';

/**
 * The four timeouts of one request with a single lazily re-armed timer: recording a token is one
 * assignment (no timer churn at thousands of events per second); when the timer fires it checks which
 * deadline really passed and re-arms for the next one otherwise. Uses real time (performance.now),
 * independent of the injected measurement clock.
 */
export class Watchdog {
  private readonly started = performance.now();
  private sent: number | null = null;
  private headers = false;
  private lastToken: number | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** When the armed timer fires (performance.now()); a deadline earlier than this re-arms it. */
  private armedFor = Number.POSITIVE_INFINITY;
  private stopped = false;

  constructor(
    private readonly timeouts: TimingTimeouts,
    private readonly onTimeout: (kind: TimeoutKind) => void,
  ) {
    this.arm();
  }

  requestSent(): void {
    this.sent = performance.now();
    this.rearmIfEarlier(this.sent + Math.min(this.timeouts.connectMs, this.timeouts.firstTokenMs));
  }

  headersReceived(): void {
    this.headers = true;
  }

  /** A token-bearing event arrived (call once per read, not per event). */
  token(): void {
    this.lastToken = performance.now();
    if (this.lastToken + this.timeouts.gapMs < this.armedFor) this.rearmIfEarlier(this.lastToken + this.timeouts.gapMs);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private deadlines(): [TimeoutKind, number][] {
    const t = this.timeouts;
    const from = this.sent ?? this.started;
    const out: [TimeoutKind, number][] = [];
    if (!this.headers) out.push(['connect', from + t.connectMs]);
    if (this.lastToken === null) out.push(['first_token', from + t.firstTokenMs]);
    else out.push(['gap', this.lastToken + t.gapMs]);
    out.push(['total', this.started + t.totalMs]);
    return out;
  }

  private rearmIfEarlier(deadline: number): void {
    if (this.stopped || deadline >= this.armedFor) return;
    if (this.timer) clearTimeout(this.timer);
    this.arm();
  }

  private arm(): void {
    if (this.stopped) return;
    const next = Math.min(...this.deadlines().map(([, at]) => at));
    this.armedFor = next;
    this.timer = setTimeout(() => this.check(), Math.max(0, Math.ceil(next - performance.now())));
  }

  private check(): void {
    this.timer = null;
    this.armedFor = Number.POSITIVE_INFINITY;
    if (this.stopped) return;
    const now = performance.now();
    const expired = this.deadlines().find(([, at]) => at <= now);
    if (expired) {
      this.stop();
      this.onTimeout(expired[0]);
    } else this.arm();
  }
}
