/**
 * A readers–writer gate for one run: cases of every model pass through `shared` side by side; a speed
 * measurement passes through `exclusive` alone — it waits for the requests in flight to finish, and new cases
 * wait until it is done — so one model's speed is never measured while another model is being asked cases
 * (providers run side by side, and two of them may share one machine). A waiting writer goes first.
 */
export class RunGate {
  #readers = 0;
  #writing = false;
  #writers: (() => void)[] = [];
  #readersWaiting: (() => void)[] = [];

  async shared<T>(work: () => Promise<T>): Promise<T> {
    // a woken reader is counted by whoever wakes it, so no writer can slip in before it resumes
    if (this.#writing || this.#writers.length > 0) await new Promise<void>((go) => this.#readersWaiting.push(go));
    else this.#readers += 1;
    try {
      return await work();
    } finally {
      this.#readers -= 1;
      this.#wake();
    }
  }

  async exclusive<T>(work: () => Promise<T>): Promise<T> {
    if (this.#writing || this.#readers > 0 || this.#writers.length > 0) await new Promise<void>((go) => this.#writers.push(go));
    else this.#writing = true;
    try {
      return await work();
    } finally {
      this.#writing = false;
      this.#wake();
    }
  }

  #wake(): void {
    if (this.#writing || this.#readers > 0) return;
    const writer = this.#writers.shift();
    if (writer) {
      this.#writing = true;
      writer();
      return;
    }
    const readers = this.#readersWaiting.splice(0);
    this.#readers += readers.length;
    for (const go of readers) go();
  }
}
