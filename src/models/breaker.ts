/**
 * Stops a run whose provider fails the same way on every request (issue #17): a browser that
 * cannot read the answers (CORS), a wrong base URL or model, a server that is down. Without it
 * every problem is retried (and a paid API may bill each try) and the run ends "Finished" with
 * nothing to show. The advice names the server setting that fixes the usual causes. One definition
 * for both front ends: the page (src/app/state/run.svelte.ts) and the CLI (src/cli/main.ts).
 */
import { failureClass } from './providers';

/** Failed tries of one class in a row, across at least two problems, with no answer yet. */
export const BREAKER_ATTEMPTS = 4;

/** The run was stopped because its provider failed the same way repeatedly; `advice` says what to do. */
export class RepeatedFailureError extends Error {
  override name = 'RepeatedFailureError';
  constructor(readonly advice: string) {
    super('stopped: the provider failed the same way on every request');
  }
}

/** Counts failed tries; once one class repeats with no success, `failure` returns the advice. */
export class FailureBreaker {
  private succeeded = false;
  private current: string | null = null;
  private count = 0;
  private readonly problems = new Set<string>();

  constructor(private readonly describe: (failureClass: string, error: Error, count: number) => string, private readonly threshold = BREAKER_ATTEMPTS) {}

  success(): void {
    this.succeeded = true;
  }

  /** Notes one failed try; returns the advice when the run should stop (once). */
  failure(error: unknown, problem: string | undefined): string | null {
    const cls = failureClass(error);
    if (this.succeeded || cls === null) {
      this.current = null;
      return null;
    }
    if (cls !== this.current) {
      this.current = cls;
      this.count = 0;
      this.problems.clear();
    }
    this.count++;
    if (problem) this.problems.add(problem);
    // Two problems at least: one problem that always fails is that problem's, not the provider's.
    if (this.count >= this.threshold && this.problems.size >= 2) {
      this.succeeded = true; // fires once
      return this.describe(cls, error as Error, this.count);
    }
    return null;
  }
}

/**
 * What is wrong and how to fix it, for a failure class of a provider at `baseUrl`; `tries` failed
 * the same way (a "Test connection" passes 1). `pageOrigin` is the page's origin, for the CORS
 * advice; null for the CLI, which no CORS rule stops and which goes on with --retry-errors.
 */
export function adviceFor(cls: string, error: Error, baseUrl: string, pageOrigin: string | null, tries: number): string {
  const same = tries > 1 ? `${tries} requests in a row failed the same way and none succeeded` : 'The request failed';
  const cli = pageOrigin === null;
  const goOn = cli ? 'then run the same command again with --retry-errors (with --out, every answer received so far is kept).' : 'then press Continue.';
  const listModels = cli ? '--model (the server lists its models at GET /models)' : 'the model name (List models shows what the server offers)';
  if (cls === 'network' && cli) {
    return `${same}: no answer came from ${baseUrl} (${error.message}). Check that the server is running and reachable from this machine and that --base-url is right (OpenAI-compatible servers usually end in /v1); ${goOn}`;
  }
  if (cls === 'network') {
    return `${same}: no answer from ${baseUrl} could be read (${error.message}). Either the server is not reachable from this browser (is it running, is the URL right?) or it does not allow this page's origin, ${pageOrigin} (CORS). `
      + `To allow it — vLLM: --allowed-origins '["${pageOrigin}"]' (the default, "*", allows every origin); `
      + `Ollama: set OLLAMA_ORIGINS=${pageOrigin} in the server's environment and restart it; `
      + 'LM Studio: turn on "Enable CORS" in the local server settings; '
      + `LiteLLM proxy: add ${pageOrigin} to the origins its CORS settings allow; `
      + 'OpenRouter and the hosted APIs answer browsers already: check the base URL. Then press Test connection in the provider settings, and Continue.';
  }
  if (cls === 'HTTP 404') return `${same}: the server answered HTTP 404 (${error.message}). Check the base URL (OpenAI-compatible servers usually end in /v1) and ${listModels}; ${goOn}`;
  if (cls.startsWith('HTTP 5')) return `${same}: the server answered with an error (${error.message}). Check that the server is up and the model loaded, ${goOn}`;
  if (cls.startsWith('HTTP')) return `${same}: the server refused the requests (${error.message}). Check ${listModels} and the request settings (max tokens, temperature), ${goOn}`;
  return `${same}: the server answered, but not with a usable reply (${error.message}). Check that the base URL is the API's and not a web page or a proxy's sign-in page, ${goOn}`;
}
