/** Command-line arguments of `npm run eval`. */
import { parseArgs } from 'node:util';
import type { ExtractionMode } from '../core/extract';
import { normalizeLanguage } from '../core/languages';

export const USAGE = `usage: npm run eval -- --data <file-or-url> --model canonical|replay|replay:<answers.jsonl>
  [--languages python,javascript] [--difficulty easy,medium] [--limit N] [--mode compat|strict]
  [--concurrency N] [--timeout SECONDS] [--out results.jsonl]`;

export interface CliOptions {
  data: string;
  model: string;
  languages: string[];
  difficulties: string[];
  limit?: number;
  mode: ExtractionMode;
  concurrency: number;
  /** Overrides the official per-language time limit. */
  timeoutSeconds?: number;
  out?: string;
}

export class UsageError extends Error {}

const list = (v: string | undefined) => (v ? v.split(',').map((s) => s.trim()).filter(Boolean) : []);

function positiveInteger(name: string, value: string | undefined, allowZero = false): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < (allowZero ? 0 : 1)) throw new UsageError(`--${name} must be a whole number${allowZero ? '' : ' above 0'}, got "${value}"`);
  return n;
}

export function parseCliArgs(argv: string[]): CliOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        data: { type: 'string' },
        model: { type: 'string' },
        languages: { type: 'string' },
        difficulty: { type: 'string' },
        limit: { type: 'string' },
        mode: { type: 'string', default: 'compat' },
        concurrency: { type: 'string', default: '2' },
        timeout: { type: 'string' },
        out: { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  if (!values.data) throw new UsageError('--data is required');
  if (!values.model) throw new UsageError('--model is required');
  if (!/^(canonical|replay|replay:.+)$/.test(values.model)) throw new UsageError(`unknown --model "${values.model}"`);
  if (values.mode !== 'compat' && values.mode !== 'strict') throw new UsageError(`--mode must be compat or strict, got "${values.mode}"`);
  const languages = list(values.languages);
  const unknown = languages.filter((l) => !normalizeLanguage(l));
  if (unknown.length) throw new UsageError(`unknown language${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`);
  const difficulties = list(values.difficulty);
  const badDifficulty = difficulties.filter((d) => !['easy', 'medium', 'hard'].includes(d.toLowerCase()));
  if (badDifficulty.length) throw new UsageError(`--difficulty takes easy, medium, hard; got ${badDifficulty.join(', ')}`);
  const timeout = values.timeout === undefined ? undefined : Number(values.timeout);
  if (timeout !== undefined && !(timeout > 0)) throw new UsageError(`--timeout must be a number of seconds above 0, got "${values.timeout}"`);
  return {
    data: values.data,
    model: values.model,
    languages,
    difficulties,
    limit: positiveInteger('limit', values.limit, true),
    mode: values.mode,
    concurrency: positiveInteger('concurrency', values.concurrency)!,
    timeoutSeconds: timeout,
    out: values.out,
  };
}
