/** Live counters around any Model: answers in flight, answers received, tokens. */
import { addUsage, emptyTotals, type UsageTotals } from './usage';
import type { AnswerSource } from '../contracts';

export interface Meter extends UsageTotals {
  inFlight: number;
  /** Answers that arrived, and requests that failed after their retries. */
  received: number;
  failed: number;
}

/** Wraps `model`; `onChange` is called with the counters after every change. */
export function meteredModel(model: AnswerSource, onChange: (meter: Readonly<Meter>) => void = () => {}): { model: AnswerSource; meter: Readonly<Meter> } {
  const meter: Meter = { ...emptyTotals(), inFlight: 0, received: 0, failed: 0 };
  return {
    meter,
    model: {
      id: model.id,
      async answer(problem, signal, context) {
        meter.inFlight++;
        onChange(meter);
        try {
          const answer = await model.answer(problem, signal, context);
          meter.received++;
          addUsage(meter, answer.usage);
          return answer;
        } catch (e) {
          meter.failed++;
          throw e;
        } finally {
          meter.inFlight--;
          onChange(meter);
        }
      },
    },
  };
}
