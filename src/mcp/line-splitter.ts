/**
 * Splits a byte stream into lines, keeping each line's bytes exactly as they arrived (newline
 * included), so a relay forwards them unchanged. A line longer than `maxLineBytes` is passed on
 * in pieces as it arrives, marked `oversized`, so one message can never make the relay hold
 * more than that in memory; it is forwarded but not parsed.
 */
export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private oversized = false;

  constructor(private readonly maxLineBytes = 64 * 1024 * 1024) {}

  /** The complete lines (and oversized pieces) in `chunk`, in order. */
  push(chunk: Buffer): { readonly bytes: Buffer; readonly complete: boolean }[] {
    const out: { bytes: Buffer; complete: boolean }[] = [];
    let start = 0;
    for (
      let newline = chunk.indexOf(10, start);
      newline !== -1;
      newline = chunk.indexOf(10, start)
    ) {
      const piece = chunk.subarray(start, newline + 1);
      out.push({ bytes: this.oversized ? piece : this.take(piece), complete: !this.oversized });
      this.oversized = false;
      start = newline + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      if (this.oversized) out.push({ bytes: rest, complete: false });
      else if (this.pendingBytes + rest.length > this.maxLineBytes) {
        out.push({ bytes: this.take(rest), complete: false });
        this.oversized = true;
      } else {
        // Copy: the caller's chunk buffer may be reused by the stream.
        this.pending.push(Buffer.from(rest));
        this.pendingBytes += rest.length;
      }
    }
    return out;
  }

  /** What is left when the stream ends (a last line without a newline), if anything. */
  end(): Buffer | undefined {
    if (this.pendingBytes === 0) return undefined;
    return this.take(Buffer.alloc(0));
  }

  private take(tail: Buffer): Buffer {
    const line = this.pending.length === 0 ? tail : Buffer.concat([...this.pending, tail]);
    this.pending = [];
    this.pendingBytes = 0;
    return line;
  }
}
