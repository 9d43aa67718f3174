/**
 * Proxy mode: /submit and /splice_code are relayed to an upstream sandbox (e.g. the official image,
 * or another benchtop runner) with its token; this runner only adds auth, CORS and the queue.
 */
import { LANGUAGE_IDS, LANGUAGE_NAMES } from '../src/contracts';
import { languageRule } from '../src/core/rules';
import type { LanguagesResponse } from '../runtimes/remote/protocol';
import { HttpError } from './http';
import { TOOLCHAINS } from './toolchains';

export interface Relayed {
  status: number;
  body: string;
  retryAfter: string | null;
}

export class Upstream {
  /** `base` without its trailing slashes. */
  constructor(readonly base: string, private readonly token: string | undefined, private readonly maxTimeoutMs: number) {}

  private headers(): Record<string, string> {
    return { 'content-type': 'application/json', ...(this.token ? { authorization: `Bearer ${this.token}` } : {}) };
  }

  /** Relays one POST; an unreachable upstream is a 502 with the official error fields. */
  async forward(path: string, raw: Buffer, signal: AbortSignal): Promise<Relayed> {
    let response: Response;
    try {
      response = await fetch(`${this.base}${path}`, { method: 'POST', body: new Uint8Array(raw), headers: this.headers(), signal: AbortSignal.any([signal, AbortSignal.timeout(this.maxTimeoutMs * 2 + 60_000)]) });
    } catch (e) {
      throw new HttpError(502, `upstream ${this.base} unreachable: ${(e as Error).message}`, { exec_outcome: 'INTERNAL_ERROR', exec_runtime_message: `upstream unreachable: ${(e as Error).message}` });
    }
    return { status: response.status, body: await response.text(), retryAfter: response.headers.get('retry-after') };
  }

  /** An upstream benchtop runner knows its languages; the official sandbox has no such endpoint. */
  async languages(): Promise<LanguagesResponse> {
    try {
      const r = await fetch(`${this.base}/languages`, { headers: this.headers(), signal: AbortSignal.timeout(10_000) });
      if (r.ok) return (await r.json()) as LanguagesResponse;
    } catch { /* fall through */ }
    return {
      languages: LANGUAGE_IDS.map((id) => ({
        id, name: LANGUAGE_NAMES[id], available: true, version: 'unknown (upstream sandbox)', command: TOOLCHAINS[id].command,
        official_command: languageRule(id).officialCommand, official_version: TOOLCHAINS[id].official, timeout_seconds: languageRule(id).timeoutSeconds,
      })),
    };
  }
}
