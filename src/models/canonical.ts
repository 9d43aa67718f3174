import type { Model } from './types';

/** Submits each record's reference solution as is: a self-check of the harness. */
export const canonicalModel: Model = {
  id: 'canonical',
  async answer(problem) {
    return { text: problem.record.canonical_solution, isCode: true };
  },
};
