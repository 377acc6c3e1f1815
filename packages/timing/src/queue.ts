/**
 * A single-consumer push queue exposed as an async iterator. The producer never waits for the
 * consumer (so a slow loop body cannot delay when events are read and timed); `onReturn` runs when
 * the consumer leaves the loop early.
 */
export class EventQueue<T> {
  private items: T[] = [];
  private head = 0;
  private waiter: { resolve: (r: IteratorResult<T>) => void; reject: (e: unknown) => void } | null = null;
  private done = false;
  private failure: { error: unknown } | null = null;
  private iterated = false;

  constructor(private readonly onReturn: () => void) {}

  push(item: T): void {
    if (this.done) return;
    if (this.waiter) {
      const waiter = this.waiter;
      this.waiter = null;
      waiter.resolve({ value: item, done: false });
    } else this.items.push(item);
  }

  close(error?: unknown): void {
    if (this.done) return;
    this.done = true;
    if (error !== undefined) this.failure = { error };
    if (this.waiter) {
      const waiter = this.waiter;
      this.waiter = null;
      if (this.failure) waiter.reject(this.failure.error);
      else waiter.resolve({ value: undefined, done: true });
    }
  }

  iterator(): AsyncIterator<T> {
    if (this.iterated) throw new Error('a timed stream can be iterated only once');
    this.iterated = true;
    return {
      next: () => {
        if (this.head < this.items.length) {
          const value = this.items[this.head]!;
          this.items[this.head] = undefined as T;
          this.head += 1;
          if (this.head > 1024 && this.head * 2 > this.items.length) {
            this.items = this.items.slice(this.head);
            this.head = 0;
          }
          return Promise.resolve({ value, done: false });
        }
        if (this.done) {
          if (this.failure) {
            const { error } = this.failure;
            this.failure = null;
            return Promise.reject(error);
          }
          return Promise.resolve({ value: undefined, done: true });
        }
        return new Promise((resolve, reject) => {
          this.waiter = { resolve, reject };
        });
      },
      return: () => {
        const wasDone = this.done;
        this.done = true;
        this.items = [];
        this.head = 0;
        if (!wasDone) this.onReturn();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
