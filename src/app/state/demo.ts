/**
 * The embedded demo set and its recorded answers. They ship as static files of the app (not inside
 * its JavaScript, which stays small); the page reads the set and its one-sample answers from its
 * own origin before it first renders, and the several-sample answers when first used.
 */
import demoUrl from '../../../bench-data/demo.jsonl?url';
import demoAnswersUrl from '../../../bench-data/demo-answers.jsonl?url';
import demoMultiAnswersUrl from '../../../bench-data/demo-answers-multi.jsonl?url';
import { parseAnswers, type RecordedAnswer } from '../../models/replay';

export const DEMO_ANSWERS_NAME = 'demo-answers.jsonl';
/** Recorded answers of the demo set's Python, JavaScript and TypeScript problems: 5 samples per problem, up to 3 turns each. */
export const DEMO_MULTI_ANSWERS_NAME = 'demo-answers-multi.jsonl';
export const DEMO_MULTI_SHAPE = { samples: 5, turns: 3 } as const;

export const [demoText = '', demoAnswersText = ''] = await Promise.all(
  [demoUrl, demoAnswersUrl].map(async (url) => {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`could not load the embedded demo set (${url}: HTTP ${response.status})`);
    return response.text();
  }),
);

let demoMulti: Promise<RecordedAnswer[]> | null = null;

/** The demo set's recorded answers with several samples and turns (a failed read is tried again next time). */
export function demoMultiAnswers(): Promise<RecordedAnswer[]> {
  demoMulti ??= fetch(demoMultiAnswersUrl).then(async (response) => {
    if (!response.ok) throw new Error(`could not load ${DEMO_MULTI_ANSWERS_NAME} (HTTP ${response.status})`);
    return parseAnswers(await response.text()).answers;
  });
  demoMulti.catch(() => (demoMulti = null));
  return demoMulti;
}
