/** Common providers: wire format, base URL, an example model, and its prices where known well. */
import type { ProviderKind, ProviderSettings } from './types';

export interface Prices {
  /** US dollars per million input (prompt) tokens. */
  input: number;
  /** US dollars per million output tokens (reasoning included). */
  output: number;
}

export interface ProviderPreset {
  id: string;
  name: string;
  kind: ProviderKind;
  baseUrl: string;
  /** Environment variable the CLI reads the key from by default. */
  keyEnv: string;
  /** Local servers run without a key. */
  keyOptional?: boolean;
  exampleModel: string;
  /** Prices of `exampleModel`; undefined where they change too often to state here. */
  prices?: Prices;
  /** Whether GET …/models lists the models. */
  listsModels: boolean;
  /** Format details this provider needs. */
  settings?: Pick<ProviderSettings, 'maxTokensField' | 'streamUsage'>;
}

/** Default base URL per wire format (the API version is part of it). */
export const DEFAULT_BASE_URLS: Record<ProviderKind, string> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
  gemini: 'https://generativelanguage.googleapis.com/v1beta',
};

export const PRESETS: readonly ProviderPreset[] = [
  // OpenAI's reasoning models reject max_tokens; max_completion_tokens works for all of its models.
  { id: 'openai', name: 'OpenAI', kind: 'openai', baseUrl: DEFAULT_BASE_URLS.openai, keyEnv: 'OPENAI_API_KEY', exampleModel: 'gpt-4o-mini', prices: { input: 0.15, output: 0.6 }, listsModels: true, settings: { maxTokensField: 'max_completion_tokens' } },
  { id: 'anthropic', name: 'Anthropic', kind: 'anthropic', baseUrl: DEFAULT_BASE_URLS.anthropic, keyEnv: 'ANTHROPIC_API_KEY', exampleModel: 'claude-sonnet-4-20250514', prices: { input: 3, output: 15 }, listsModels: true },
  { id: 'gemini', name: 'Google Gemini', kind: 'gemini', baseUrl: DEFAULT_BASE_URLS.gemini, keyEnv: 'GEMINI_API_KEY', exampleModel: 'gemini-2.5-flash', prices: { input: 0.3, output: 2.5 }, listsModels: true },
  { id: 'openrouter', name: 'OpenRouter', kind: 'openai', baseUrl: 'https://openrouter.ai/api/v1', keyEnv: 'OPENROUTER_API_KEY', exampleModel: 'openai/gpt-4o-mini', prices: { input: 0.15, output: 0.6 }, listsModels: true },
  { id: 'deepseek', name: 'DeepSeek', kind: 'openai', baseUrl: 'https://api.deepseek.com', keyEnv: 'DEEPSEEK_API_KEY', exampleModel: 'deepseek-chat', listsModels: true },
  { id: 'groq', name: 'Groq', kind: 'openai', baseUrl: 'https://api.groq.com/openai/v1', keyEnv: 'GROQ_API_KEY', exampleModel: 'llama-3.3-70b-versatile', prices: { input: 0.59, output: 0.79 }, listsModels: true },
  { id: 'together', name: 'Together AI', kind: 'openai', baseUrl: 'https://api.together.xyz/v1', keyEnv: 'TOGETHER_API_KEY', exampleModel: 'Qwen/Qwen2.5-Coder-32B-Instruct', listsModels: true },
  { id: 'mistral', name: 'Mistral', kind: 'openai', baseUrl: 'https://api.mistral.ai/v1', keyEnv: 'MISTRAL_API_KEY', exampleModel: 'codestral-latest', listsModels: true },
  { id: 'vllm', name: 'vLLM (local)', kind: 'openai', baseUrl: 'http://localhost:8000/v1', keyEnv: 'VLLM_API_KEY', keyOptional: true, exampleModel: 'Qwen/Qwen2.5-Coder-7B-Instruct', prices: { input: 0, output: 0 }, listsModels: true },
  { id: 'ollama', name: 'Ollama (local)', kind: 'openai', baseUrl: 'http://localhost:11434/v1', keyEnv: 'OLLAMA_API_KEY', keyOptional: true, exampleModel: 'qwen2.5-coder:7b', prices: { input: 0, output: 0 }, listsModels: true },
  { id: 'lmstudio', name: 'LM Studio (local)', kind: 'openai', baseUrl: 'http://localhost:1234/v1', keyEnv: 'LMSTUDIO_API_KEY', keyOptional: true, exampleModel: 'qwen2.5-coder-7b-instruct', prices: { input: 0, output: 0 }, listsModels: true },
];

export function findPreset(id: string): ProviderPreset | undefined {
  return PRESETS.find((p) => p.id === id.toLowerCase());
}

/** Known prices for a model of a preset: only its example model's. */
export function presetPrices(preset: ProviderPreset | undefined, model: string): Prices | undefined {
  return preset && preset.exampleModel === model ? preset.prices : undefined;
}
