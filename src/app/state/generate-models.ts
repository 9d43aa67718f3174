/**
 * The Generate tab's critic and difficulty models on any provider: the generator's (the Model
 * panel's form), or another preset with its own base URL. Keys come from the form's per-preset key
 * store (typed in the tab or the Model panel, memory only unless remembered), never from the job.
 */
import { PRESETS, presetPrices } from '../../models/providers';
import type { RunSource } from '../../store/types';
import type { ProviderForm } from './provider.svelte';

export type ProviderSource = Extract<RunSource, { kind: 'provider' }>;

/** `presetId` empty: the generator's provider. `baseUrl` empty: the preset's own. */
export interface RoleProvider {
  presetId: string;
  baseUrl: string;
}

export const SAME_PROVIDER: RoleProvider = { presetId: '', baseUrl: '' };
/** The presets a critic or difficulty model can be on (a custom server: pick OpenAI and give its URL). */
export const ROLE_PRESETS = PRESETS;

const isLocal = (url: string) => /^https?:\/\/(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:|\/|$)/i.test(url);

export function roleBaseUrl(role: RoleProvider): string {
  return role.baseUrl.trim() || (ROLE_PRESETS.find((p) => p.id === role.presetId)?.baseUrl ?? '');
}

/**
 * The stored source of a model on another provider: its preset and base URL, the generator's
 * sampling (temperature, max tokens, streaming). Undefined: the generator's provider.
 */
export function roleSource(form: ProviderForm, role: RoleProvider, model: string): ProviderSource | undefined {
  const preset = ROLE_PRESETS.find((p) => p.id === role.presetId);
  if (!preset || !model.trim()) return undefined;
  const baseUrl = roleBaseUrl(role).replace(/\/+$/, '');
  const { temperature, maxTokens, stream, systemPrompt } = form.runSource().settings;
  return {
    kind: 'provider',
    presetId: preset.id,
    presetName: preset.name,
    settings: {
      kind: preset.kind, baseUrl, model: model.trim(), maxTokens, stream, systemPrompt,
      ...(temperature !== undefined ? { temperature } : {}),
      ...(baseUrl === preset.baseUrl ? preset.settings : {}),
    },
    prices: { ...presetPrices(preset, model.trim()) },
    keyRequired: Boolean(form.keyFor(preset.id).trim()) || (!preset.keyOptional && !isLocal(baseUrl)),
  };
}
