import { HttpError } from './http';

/**
 * A bound on heavy requests: at most `active` at a time, at most `queue` waiting; beyond that a 503 with
 * Retry-After, so a burst of GETs cannot hold a copy of a big run each.
 */
export class RequestGate {
  #active = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(
    readonly active: number,
    readonly queue: number,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.#active >= this.active) {
      if (this.#waiting.length >= this.queue) {
        throw new HttpError(503, `busy: ${this.#active} heavy requests running and ${this.#waiting.length} waiting; try again shortly`, { 'retry-after': '1' });
      }
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    } else {
      this.#active += 1;
    }
    try {
      return await work();
    } finally {
      const next = this.#waiting.shift();
      if (next) next(); // the slot passes straight on
      else this.#active -= 1;
    }
  }
}
