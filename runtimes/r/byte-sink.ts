import { OutputCapture } from '../host/output';

/** Bytes written one at a time by Emscripten's stdout/stderr devices, decoded in chunks. */
export class ByteSink {
  target: OutputCapture | null = null;
  private chunk = new Uint8Array(8192);
  private used = 0;
  private decoder = new TextDecoder();

  push(byte: number): void {
    if (this.used === this.chunk.length) this.drain();
    this.chunk[this.used++] = byte;
  }

  text(text: string): void {
    this.drain();
    this.target?.write(text);
  }

  /** Hands on what is buffered, and the end of a multi-byte character cut at the end. */
  flush(): void {
    this.drain();
    const rest = this.decoder.decode();
    if (rest) this.target?.write(rest);
  }

  private drain(): void {
    if (!this.used) return;
    // Output written before the program ran (none, normally) has no target and is dropped.
    this.target?.writeBytes(this.chunk.subarray(0, this.used), this.decoder);
    this.used = 0;
  }
}
