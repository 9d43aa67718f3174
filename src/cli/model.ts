/** `--model …` to a Model: canonical solutions, recorded answers, or a provider with the key from the environment. */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { canonicalModel } from '../models/canonical';
import { createProviderModel, findPreset, presetPrices, ProviderSettingsError, type Prices, type ProviderHooks, type ProviderSettings } from '../models/providers';
import { parseAnswers, replayAnswersModel, replayOwnOutputModel } from '../models/replay';
import type { AnswerSource } from '../contracts';
import type { CliOptions, ProviderChoice } from './args';

export class ModelSetupError extends Error {}

export interface CliModel {
  model: AnswerSource;
  /** Known or given prices per million tokens (provider models only). */
  prices?: Partial<Prices>;
  /** The provider's settings without the key (provider models only), for the manifest. */
  settings?: Omit<ProviderSettings, 'apiKey'>;
}

const isLocal = (url: string) => /^https?:\/\/(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:|\/|$)/.test(url);

/** The key from the environment variable; required except for local servers. */
function apiKeyFor(choice: ProviderChoice, baseUrl: string, env: NodeJS.ProcessEnv): string | undefined {
  const preset = findPreset(choice.preset)!;
  const name = choice.apiKeyEnv ?? preset.keyEnv;
  const key = env[name]?.trim();
  if (!key && !preset.keyOptional && !isLocal(baseUrl)) {
    throw new ModelSetupError(`no API key: set ${name}${choice.apiKeyEnv ? '' : ' (or name another variable with --api-key-env)'}`);
  }
  return key || undefined;
}

/** A provider model; `systemPrompt` replaces the evaluation prompt (the generator's own requests). */
export async function providerModel(spec: string, choice: ProviderChoice, hooks: ProviderHooks, env: NodeJS.ProcessEnv, completion: boolean, systemPromptOverride?: string): Promise<CliModel> {
  const preset = findPreset(choice.preset)!;
  const baseUrl = choice.baseUrl ?? preset.baseUrl;
  let systemPrompt = systemPromptOverride;
  if (choice.systemPromptFile) {
    try {
      systemPrompt = (await readFile(choice.systemPromptFile, 'utf8')).replace(/\r?\n$/, '');
    } catch (e) {
      throw new ModelSetupError(`could not read ${choice.systemPromptFile}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
  }
  const settings: ProviderSettings = {
    kind: preset.kind,
    baseUrl,
    apiKey: apiKeyFor(choice, baseUrl, env),
    model: choice.model,
    id: spec,
    temperature: choice.temperature,
    topP: choice.topP,
    maxTokens: choice.maxTokens,
    systemPrompt,
    stream: choice.stream,
    ...(completion ? { completion: true } : {}),
    // A custom base URL is some other OpenAI-compatible server: keep the widely accepted field.
    ...(choice.baseUrl === undefined ? preset.settings : {}),
    requestTimeoutMs: choice.requestTimeoutSeconds * 1000,
    retry: { attempts: choice.attempts, baseDelayMs: choice.retryDelaySeconds * 1000 },
  };
  let model: AnswerSource;
  try {
    model = createProviderModel(settings, hooks);
  } catch (e) {
    if (e instanceof ProviderSettingsError) throw new ModelSetupError(e.message);
    throw e;
  }
  const known = presetPrices(preset, choice.model);
  const prices = { input: choice.priceIn ?? known?.input, output: choice.priceOut ?? known?.output };
  const { apiKey: _key, ...withoutKey } = settings;
  return { model, prices, settings: withoutKey };
}

async function replayFile(file: string, readText: (source: string) => Promise<string>): Promise<AnswerSource> {
  const { answers, errors } = parseAnswers(await readText(file));
  for (const e of errors.slice(0, 5)) console.error(`${file}: ${e}`);
  if (!answers.length) throw new ModelSetupError(`${file} holds no answers`);
  return replayAnswersModel(basename(file), answers);
}

export async function loadModel(
  options: CliOptions,
  readText: (source: string) => Promise<string>,
  hooks: ProviderHooks = {},
  env: NodeJS.ProcessEnv = process.env,
): Promise<CliModel> {
  if (options.provider) return providerModel(options.model, options.provider, hooks, env, options.completion);
  if (options.model === 'canonical') return { model: canonicalModel };
  if (options.model === 'replay') return { model: replayOwnOutputModel };
  return { model: await replayFile(options.model.slice('replay:'.length), readText) };
}
