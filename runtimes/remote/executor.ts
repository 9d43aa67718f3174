/**
 * The remote Executor: sends already spliced programs (`source_code`) to one or more runners and
 * turns their answers into RunResults, which src/core/rules judges like any other runtime's.
 * `connectRemoteExecutor` asks every runner which languages it offers (GET /languages) first, so
 * that `languages()` can answer synchronously; a language no runner offers is 'unsupported' for the
 * engine, never a failure.
 */
import { InfrastructureError, LANGUAGE_IDS, normalizeLanguage, type Executor, type LanguageId, type RunRequest, type RunResult } from '../../src/contracts';
import { languageRule } from '../../src/core/rules';
import { RemoteRunnerClient, type RemoteClientOptions } from './client';
import { runResultFromResponse, type HealthResponse, type LanguagesResponse, type RunnerLanguage, type SubmitRequest, type SubmitResponse } from './protocol';

export interface RunnerStatus {
  url: string;
  /** The runner's languages; null when it could not be asked. */
  languages: RunnerLanguage[] | null;
  /** Why it could not be asked (unreachable, bad token, …). */
  error?: string;
  /** An official sandbox (no /languages endpoint): every language is assumed. */
  official?: boolean;
}

export interface RemoteExecutor extends Executor {
  readonly client: RemoteRunnerClient;
  readonly runners: readonly RunnerStatus[];
  /** Version of a language's toolchain on the runners, for reports. */
  describe(language: LanguageId): string | undefined;
}

let counter = 0;
const requestId = () => `benchtop-${Date.now().toString(36)}-${(counter++).toString(36)}`;

/** Asks one runner for its languages (a test-connection button does the same). */
export async function askRunner(client: RemoteRunnerClient, url: string): Promise<RunnerStatus> {
  try {
    const reply = await client.request<LanguagesResponse>('GET', '/languages', { candidates: [url], attempts: 2, timeoutMs: 60_000 });
    if (reply.status === 404) {
      // The official MultiLanguageSandbox has no /languages: it runs every language.
      return { url, official: true, languages: null };
    }
    if (reply.status !== 200 || !Array.isArray(reply.body?.languages)) {
      return { url, languages: null, error: `GET /languages answered HTTP ${reply.status}` };
    }
    return { url, languages: reply.body.languages };
  } catch (e) {
    return { url, languages: null, error: (e as Error).message };
  }
}

/** GET /health of one runner. */
export async function runnerHealth(client: RemoteRunnerClient, url: string): Promise<HealthResponse> {
  const reply = await client.request<HealthResponse>('GET', '/health', { candidates: [url], attempts: 1, timeoutMs: 10_000 });
  if (reply.status !== 200) throw new InfrastructureError(`GET /health answered HTTP ${reply.status}`);
  return reply.body;
}

export async function connectRemoteExecutor(options: RemoteClientOptions): Promise<RemoteExecutor> {
  const client = new RemoteRunnerClient(options);
  const runners = await Promise.all(client.urls.map((url) => askRunner(client, url)));
  const offered = new Map<LanguageId, { urls: string[]; version: string }>();
  for (const runner of runners) {
    const languages: Array<{ id: LanguageId; version: string }> = runner.official
      ? LANGUAGE_IDS.map((id) => ({ id, version: 'official sandbox' }))
      : (runner.languages ?? []).filter((l) => l.available).flatMap((l) => {
        const id = normalizeLanguage(l.id);
        return id ? [{ id, version: l.version }] : [];
      });
    for (const { id, version } of languages) {
      const entry = offered.get(id) ?? { urls: [], version };
      entry.urls.push(runner.url);
      offered.set(id, entry);
    }
  }

  return {
    client,
    runners,
    languages: () => [...offered.keys()],
    describe: (language) => offered.get(language)?.version,
    async run(request: RunRequest): Promise<RunResult> {
      const target = offered.get(request.language);
      if (!target) throw new InfrastructureError(`no runner offers ${request.language}`);
      const rule = languageRule(request.language);
      const seconds = request.timeoutMs / 1000;
      const body: SubmitRequest = {
        src_uid: requestId(),
        lang: request.language,
        source_code: request.program,
        // timeout: what an official sandbox expects (it adds the language's extra itself);
        // timeout_ms: the exact limit, for benchtop runners.
        request_extensions: { timeout: Math.max(1, Math.round(seconds - (rule.timeoutSeconds - 30))), timeout_ms: request.timeoutMs },
      };
      const started = performance.now();
      // Compile and run each get the limit; the runner's queue may add a wait.
      const reply = await client.request<SubmitResponse>('POST', '/submit', { body, candidates: target.urls, timeoutMs: 2 * request.timeoutMs + 120_000 });
      const answer = reply.body;
      if (reply.status === 501) throw new InfrastructureError(`${reply.url} cannot run ${request.language}: ${answer.exec_runtime_message}`);
      if (reply.status !== 200) throw new InfrastructureError(`${reply.url} answered HTTP ${reply.status}: ${answer.exec_runtime_message ?? ''}`);
      if (answer.exec_outcome === 'ARGUMENT_ERROR' || answer.exec_outcome === 'INTERNAL_ERROR') {
        throw new InfrastructureError(`${reply.url}: ${answer.exec_outcome}: ${answer.exec_runtime_message}`);
      }
      if (answer.exec_outcome === 'SYNTAX_ERROR') {
        throw new InfrastructureError(`${reply.url} rejected a program that passed benchtop's own pre-check (SYNTAX_ERROR): client and runner disagree`);
      }
      return runResultFromResponse(request.language, answer, performance.now() - started);
    },
    dispose: async () => {},
  };
}
