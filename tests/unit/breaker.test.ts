import { describe, expect, it } from 'vitest';
import { adviceFor, BREAKER_ATTEMPTS, FailureBreaker } from '../../src/models/breaker';
import { failureClass, ProviderError } from '../../src/models/providers';

const network = () => new ProviderError('openai (127.0.0.1:1): network error: Failed to fetch', undefined, true);
const status = (n: number) => new ProviderError(`openai (x): HTTP ${n}`, n, n >= 500 || n === 429);
const breaker = () => new FailureBreaker((cls, _e, tries) => `${cls} ×${tries}`);

describe('the repeated-failure breaker (issue #17)', () => {
  it('classes failures; rate limits, time-outs and non-provider errors never count', () => {
    expect(failureClass(network())).toBe('network');
    expect(failureClass(status(404))).toBe('HTTP 404');
    expect(failureClass(new ProviderError('empty reply (HTTP 200)', 200, true))).toBe('reply');
    expect(failureClass(status(429))).toBeNull();
    expect(failureClass(new ProviderError('no complete reply within 600 s', undefined, true, undefined, 'timeout'))).toBeNull();
    expect(failureClass(new Error('abort'))).toBeNull();
  });

  it(`trips on ${BREAKER_ATTEMPTS} failures of one class in a row over two problems or more, once`, () => {
    const b = breaker();
    const out = ['a', 'b', 'c', 'd', 'e'].map((p) => b.failure(network(), p));
    expect(out).toEqual([null, null, null, `network ×${BREAKER_ATTEMPTS}`, null]);
  });

  it('does not trip for one problem that always fails, after a success, or when the class changes', () => {
    const one = breaker();
    expect(Array.from({ length: 10 }, () => one.failure(status(500), 'a')).every((x) => x === null)).toBe(true);
    const answered = breaker();
    answered.success();
    expect(['a', 'b', 'c', 'd', 'e'].map((p) => answered.failure(network(), p)).every((x) => x === null)).toBe(true);
    const mixed = breaker();
    expect([network(), network(), status(404), network(), status(429), network(), network()].map((e, i) => mixed.failure(e, `p${i}`)).every((x) => x === null)).toBe(true);
  });

  it('names the page origin in the CORS advice for every common server', () => {
    const text = adviceFor('network', network(), 'http://127.0.0.1:8000/v1', 'https://bench.example', 4);
    expect(text).toMatch(/^4 requests in a row failed the same way and none succeeded: no answer from http:\/\/127\.0\.0\.1:8000\/v1 could be read/);
    for (const setting of [`--allowed-origins '["https://bench.example"]'`, 'OLLAMA_ORIGINS=https://bench.example', '"Enable CORS"', 'LiteLLM', 'OpenRouter']) expect(text).toContain(setting);
    expect(adviceFor('HTTP 404', status(404), 'u', 'o', 1)).toMatch(/^The request failed: the server answered HTTP 404 .*base URL/);
  });
});
