/**
 * Bounded capture of one output stream: keeps the first `capBytes`, a short tail (for classifying
 * crashes whose message comes last) and counts everything. Memory stays O(cap) whatever the program prints.
 */
export class CappedCapture {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer = Buffer.alloc(0);
  totalBytes = 0;

  constructor(
    private readonly capBytes: number,
    private readonly tailBytes = 4096,
  ) {}

  get truncated(): boolean {
    return this.totalBytes > this.capBytes;
  }

  push(chunk: Buffer): void {
    this.totalBytes += chunk.length;
    if (this.headBytes < this.capBytes) {
      const room = this.capBytes - this.headBytes;
      const kept = chunk.length <= room ? chunk : chunk.subarray(0, room);
      this.head.push(Buffer.from(kept));
      this.headBytes += kept.length;
    }
    const joined = Buffer.concat([this.tail, chunk.length > this.tailBytes ? chunk.subarray(-this.tailBytes) : chunk]);
    this.tail = joined.length > this.tailBytes ? Buffer.from(joined.subarray(-this.tailBytes)) : joined;
  }

  /** The kept head, decoded as UTF-8 (a multi-byte character cut by the cap becomes U+FFFD). */
  text(): string {
    return Buffer.concat(this.head).toString('utf8');
  }

  /** The last few KiB, decoded as UTF-8. */
  tailText(): string {
    return this.tail.toString('utf8');
  }
}
