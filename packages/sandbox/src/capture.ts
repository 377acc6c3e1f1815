/**
 * Bounded capture of one output stream: keeps the first `capBytes`, a short tail (for classifying
 * crashes whose message comes last), counts everything, and optionally watches for a token across
 * chunk boundaries, even past the cap. Memory stays O(cap) whatever the program prints.
 */
export class CappedCapture {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer = Buffer.alloc(0);
  private carry = '';
  totalBytes = 0;
  tokenSeen = false;

  constructor(
    private readonly capBytes: number,
    private readonly token: string | null = null,
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
    if (this.token !== null && !this.tokenSeen) {
      // latin1 maps bytes 1:1, so an ASCII token is found whatever the encoding of the rest.
      const text = this.carry + chunk.toString('latin1');
      if (text.includes(this.token)) this.tokenSeen = true;
      this.carry = this.token.length > 1 ? text.slice(-(this.token.length - 1)) : '';
    }
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
