import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * Stable problem id: the first 12 hex digits of sha256(language + "\n" + question).
 * The same problem gets the same id in every copy of the dataset, whatever its line number.
 */
export function problemId(language: string, question: string): string {
  return bytesToHex(sha256(utf8ToBytes(language + '\n' + question))).slice(0, 12);
}
