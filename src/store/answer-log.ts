/**
 * A run's answers in the page's store as an AnswerLog (src/models/recorded.ts): `answers` (the
 * run's stored answers, by resultKey) are recalled, and each new answer is put in the store before
 * it is evaluated. A store that cannot write does not stop the run: `onStoreError` says so.
 */
import { resultKey } from '../core/results';
import type { AnswerLog } from '../models/recorded';
import type { RunStore, StoredAnswer } from './types';

export function storeAnswerLog(store: RunStore, runId: string, answers: Map<string, StoredAnswer>, onStoreError: (e: unknown) => void): AnswerLog {
  return {
    recall({ id, sample, turn }) {
      const stored = answers.get(resultKey(id, sample, turn));
      return stored && { text: stored.output, ...(stored.isCode ? { isCode: true } : {}), ...(stored.usage ? { usage: stored.usage } : {}), ...(stored.reasoning ? { reasoning: stored.reasoning } : {}) };
    },
    async record({ id, sample, turn }, answer) {
      const key = resultKey(id, sample, turn);
      const entry: StoredAnswer = {
        output: answer.text,
        ...(answer.isCode ? { isCode: true } : {}),
        ...(answer.usage ? { usage: answer.usage } : {}),
        ...(answer.reasoning ? { reasoning: answer.reasoning } : {}),
        receivedAt: Date.now(),
      };
      answers.set(key, entry);
      await store.putAnswer(runId, key, entry).catch(onStoreError);
    },
  };
}
