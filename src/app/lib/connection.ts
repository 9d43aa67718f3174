/**
 * "Test connection" in the provider settings: one tiny request with the form's settings, before a
 * run sends hundreds (issue #17). A failure gets the same advice as a run stopped by the breaker.
 */
import { AuthenticationError, type Problem } from '../../contracts';
import { createProviderModel, failureClass, type ProviderSettings } from '../../models/providers';
import { adviceFor } from '../../models/breaker';

/** The question of the test request (the e2e mock provider answers it too). */
export const CONNECTION_TEST_QUESTION = 'Connection test from benchtop: reply with the single word OK.';

export interface ConnectionResult {
  ok: boolean;
  message: string;
}

/** Asks the model one short question, once (no retries), within a minute. */
export async function testConnection(settings: ProviderSettings, pageOrigin: string, signal?: AbortSignal): Promise<ConnectionResult> {
  const started = Date.now();
  const question = { question: CONNECTION_TEST_QUESTION, canonical_solution: '', demo_test_func: '', full_test_func: '', language: 'python', difficulty: 'easy' };
  const problem: Problem = { id: 'connection-test', index: 0, line: 0, language: 'python', difficulty: 'easy', record: question };
  try {
    // Room for a short reply; a thinking model cut by the limit still proves the connection.
    const model = createProviderModel({ ...settings, maxTokens: 64, retry: { attempts: 1 }, requestTimeoutMs: 60_000 });
    const answer = await model.answer(problem, signal);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const said = answer.text.trim().replace(/\s+/g, ' ');
    return { ok: true, message: `Connected: ${settings.model} answered${said ? ` "${said.length > 40 ? `${said.slice(0, 40)}…` : said}"` : ''} in ${seconds} s.` };
  } catch (e) {
    const error = e as Error;
    if (error instanceof AuthenticationError) return { ok: false, message: `${error.message}. Check the API key.` };
    const cls = failureClass(error);
    return { ok: false, message: cls ? adviceFor(cls, error, settings.baseUrl, pageOrigin, 1) : error.message };
  }
}
