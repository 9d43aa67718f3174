import type { AnswerSource } from '../contracts';

/** Submits each record's reference solution as is: a self-check of the harness. */
export const canonicalModel: AnswerSource = {
  id: 'canonical',
  async answer(problem) {
    return { text: problem.record.canonical_solution, isCode: true };
  },
};
