/** Output capping inside runtimes: at most OUTPUT_LIMIT characters of a stream, with a visible mark where it was cut; and the result of a declined program. */
import type { RunResult } from '../../src/contracts';

/** Keeps at most `limit` characters of a stream, marking the cut. */
export const OUTPUT_LIMIT = 1 << 20;
export function capOutput(text: string, limit = OUTPUT_LIMIT): { text: string; truncated: boolean } {
  if (text.length <= limit) return { text, truncated: false };
  return { text: text.slice(0, limit) + truncationMark(text.length - limit, 'characters'), truncated: true };
}

/** The visible mark at the end of a cut stream (the app also flags the run as truncated). */
export function truncationMark(more: number, unit: 'characters' | 'bytes'): string {
  return `\n[… truncated: ${more} more ${unit}]`;
}

/**
 * Captures one output stream inside a runtime worker, keeping at most `limit` characters: a
 * program that prints 100 MB costs a counter, not 100 MB of memory and a 100 MB message.
 */
export class OutputCapture {
  private parts: string[] = [];
  private kept = 0;
  private droppedChars = 0;
  private droppedBytes = 0;

  constructor(private readonly limit = OUTPUT_LIMIT) {}

  write(text: string): void {
    const room = this.limit - this.kept;
    if (room <= 0) {
      this.droppedChars += text.length;
      return;
    }
    const part = text.length <= room ? text : text.slice(0, room);
    this.parts.push(part);
    this.kept += part.length;
    this.droppedChars += text.length - part.length;
  }

  /** Counts characters that were cut before they reached the capture. */
  drop(characters: number): void {
    if (characters > 0) this.droppedChars += characters;
  }

  /** Bytes a decoder would turn into text; once the limit is reached they are only counted. */
  writeBytes(bytes: Uint8Array, decoder: TextDecoder): void {
    if (this.kept >= this.limit) this.droppedBytes += bytes.length;
    else this.write(decoder.decode(bytes, { stream: true }));
  }

  /** The limit is reached: whatever comes next is only counted. */
  get full(): boolean {
    return this.kept >= this.limit;
  }

  get truncated(): boolean {
    return this.droppedChars > 0 || this.droppedBytes > 0;
  }

  text(): string {
    const text = this.parts.join('');
    if (!this.truncated) return text;
    // Bytes dropped undecoded are counted as bytes (the characters cut from a last chunk with them).
    return text + truncationMark(this.droppedChars + this.droppedBytes, this.droppedBytes ? 'bytes' : 'characters');
  }
}

/** The result of a program the runtime declined to run (RunResult `declined`: not a verdict). */
export function declinedRun(why: string, durationMs = 0): Omit<RunResult, 'runtime'> {
  return { exitCode: null, stdout: '', stderr: '', timedOut: false, durationMs, declined: why };
}
