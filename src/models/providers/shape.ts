/** Reading untyped JSON from providers without trusting its shape. */
import { ReplyShapeError } from './types';

export type Json = Record<string, unknown>;

export const obj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** The JSON of one stream event; a broken event is a clear, retryable error. */
export function eventJson(data: string): Json {
  try {
    return obj(JSON.parse(data));
  } catch {
    throw new ReplyShapeError(`malformed JSON in a stream event: ${data.slice(0, 120)}`);
  }
}

/** Joins optional text pieces; undefined when there were none. */
export function joined(parts: string[]): string | undefined {
  return parts.length ? parts.join('') : undefined;
}
