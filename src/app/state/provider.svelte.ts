/**
 * The "Model provider" settings of the page: preset, base URL, key, model, sampling, prompt,
 * streaming, concurrency and prices. Everything but the key is saved in localStorage so the
 * form survives a reload (allowing a new origin reloads the page, see lib/csp.ts).
 *
 * The API key lives in this object's memory only, one per preset, so a key typed for one
 * provider is never sent to another. Only when the user ticks "remember on this device" is it
 * written to localStorage (under its preset), and unticking it or "Forget saved keys" removes
 * it. It never goes into the run store, results, exports or URLs.
 */
import { SYSTEM_PROMPT } from '../../core/prompt';
import {
  listModels,
  PRESETS,
  presetPrices,
  providerLabel,
  type ModelInfo,
  type Prices,
  type ProviderPreset,
  type ProviderSettings,
} from '../../models/providers';
import { DEFAULT_MAX_TOKENS } from '../../models/providers/request';
import type { RunSource, StoredProviderSettings } from '../../store/types';
import { testConnection, type ConnectionResult } from '../lib/connection';
import { allowConnectOrigin, isConnectAllowed, normalizeOrigin } from '../lib/csp';

/** Any other server that speaks OpenAI's chat completions (a proxy, a gateway, a local server). */
export const CUSTOM_PRESET: ProviderPreset = {
  id: 'custom',
  name: 'Other OpenAI-compatible server',
  kind: 'openai',
  baseUrl: '',
  keyEnv: 'OPENAI_API_KEY',
  keyOptional: true,
  exampleModel: '',
  listsModels: true,
};

export const PROVIDER_PRESETS: readonly ProviderPreset[] = [...PRESETS, CUSTOM_PRESET];

const presetById = (id: string): ProviderPreset => PROVIDER_PRESETS.find((p) => p.id === id) ?? PRESETS[0]!;

/** Default parallel requests to a provider. */
export const DEFAULT_PROVIDER_CONCURRENCY = 4;

const SETTINGS_KEY = 'benchtop.provider-settings';
const KEYS_KEY = 'benchtop.api-keys';

const isLocalUrl = (url: string) => /^https?:\/\/(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:|\/|$)/i.test(url.trim());

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

function readJson<T>(key: string): Partial<T> {
  try {
    const value = JSON.parse(storage()?.getItem(key) ?? '{}') as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Partial<T>) : {};
  } catch {
    return {};
  }
}

/** What is saved of the form (never the key). */
interface SavedSettings {
  presetId: string;
  baseUrl: string;
  model: string;
  temperature: number | null;
  maxTokens: number | null;
  topP: number | null;
  systemPrompt: string;
  stream: boolean;
  concurrency: number;
  priceIn: number | null;
  priceOut: number | null;
  completion: boolean;
}

const finite = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const positiveInt = (v: number | null, fallback: number) => (v !== null && Number.isFinite(v) && v >= 1 ? Math.floor(v) : fallback);

export class ProviderForm {
  presetId = $state('openai');
  baseUrl = $state(PRESETS[0]!.baseUrl);
  model = $state(PRESETS[0]!.exampleModel);
  /** Official sampling is greedy (SPEC §2); empty = the provider's default. */
  temperature = $state<number | null>(0);
  maxTokens = $state<number | null>(DEFAULT_MAX_TOKENS);
  topP = $state<number | null>(null);
  systemPrompt = $state(SYSTEM_PROMPT);
  stream = $state(true);
  /**
   * Completion mode (AutoCodeBench-Complete, for base models): the /completions endpoint with a
   * plain prompt and a stop string. OpenAI-compatible servers only; one turn.
   */
  completion = $state(false);
  concurrency = $state(DEFAULT_PROVIDER_CONCURRENCY);
  /** US dollars per million tokens. */
  priceIn = $state<number | null>(null);
  priceOut = $state<number | null>(null);

  /** Keys typed in this page, by preset: memory only. */
  private keys = $state<Record<string, string>>({});
  /** Keys the user asked to remember, by preset (a copy of what is in localStorage). */
  private remembered = $state<Record<string, string>>({});

  models = $state.raw<ModelInfo[]>([]);
  listing = $state(false);
  listError = $state<string | null>(null);
  private listController: AbortController | null = null;
  /** "Test connection": going on, and its outcome (cleared when the settings it used change). */
  testing = $state(false);
  testResult = $state<(ConnectionResult & { for: string }) | null>(null);

  constructor() {
    this.restore();
    $effect.root(() => {
      $effect(() => this.save(this.saved()));
    });
  }

  get preset(): ProviderPreset {
    return presetById(this.presetId);
  }

  get apiKey(): string {
    return this.keys[this.presetId] ?? '';
  }

  set apiKey(value: string) {
    this.keys = { ...this.keys, [this.presetId]: value };
    if (this.rememberKey) this.writeRemembered({ ...this.remembered, [this.presetId]: value });
  }

  /** Whether this preset's key is remembered on this device. */
  get rememberKey(): boolean {
    return this.presetId in this.remembered;
  }

  set rememberKey(on: boolean) {
    const { [this.presetId]: _dropped, ...others } = this.remembered;
    this.writeRemembered(on ? { ...others, [this.presetId]: this.apiKey } : others);
  }

  /** Names of the presets whose key is saved in this browser. */
  get rememberedPresets(): string[] {
    return Object.keys(this.remembered).map((id) => presetById(id).name);
  }

  forgetSavedKeys(): void {
    this.writeRemembered({});
  }

  private writeRemembered(keys: Record<string, string>): void {
    this.remembered = keys;
    const s = storage();
    if (!s) return;
    if (Object.keys(keys).length) s.setItem(KEYS_KEY, JSON.stringify(keys));
    else s.removeItem(KEYS_KEY);
  }

  /** The key is required unless the preset is a local server or the URL points at this machine. */
  get keyRequired(): boolean {
    return !this.preset.keyOptional && !isLocalUrl(this.baseUrl);
  }

  /** Completion mode is on and the preset speaks OpenAI's API (the only one with /completions). */
  get completionActive(): boolean {
    return this.completion && this.preset.kind === 'openai';
  }

  get usesOfficialPrompt(): boolean {
    return this.systemPrompt === SYSTEM_PROMPT;
  }

  /** The origin of the base URL, if it is one the page could be allowed to connect to. */
  get origin(): string | null {
    return normalizeOrigin(this.baseUrl);
  }

  /** Whether the page's connection policy lets it reach the base URL now. */
  get connectAllowed(): boolean {
    return isConnectAllowed(this.baseUrl.trim());
  }

  get prices(): Partial<Prices> {
    return { ...(this.priceIn !== null ? { input: this.priceIn } : {}), ...(this.priceOut !== null ? { output: this.priceOut } : {}) };
  }

  get label(): string {
    return `${this.preset.name}: ${this.model.trim() || '(no model)'}`;
  }

  /** Why a run cannot start with these settings (empty when it can). */
  get problems(): string[] {
    const out: string[] = [];
    let url: URL | null = null;
    try {
      url = new URL(this.baseUrl.trim());
    } catch {
      /* reported below */
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) out.push('Enter the base URL of the API (http or https).');
    else if (!this.connectAllowed) out.push(`Allow this page to connect to ${url.origin} first.`);
    if (!this.model.trim()) out.push('Enter a model name.');
    if (this.keyRequired && !this.apiKey.trim()) out.push(`Enter your API key for ${this.preset.name}.`);
    return out;
  }

  selectPreset(id: string): void {
    const preset = presetById(id);
    this.presetId = preset.id;
    this.baseUrl = preset.baseUrl;
    this.model = preset.exampleModel;
    this.models = [];
    this.listError = null;
    this.fillPrices();
  }

  setModel(model: string): void {
    this.model = model;
    this.fillPrices();
  }

  /** Known prices for the preset's example model; otherwise leaves the fields empty (cost unknown). */
  private fillPrices(): void {
    const known = presetPrices(this.preset, this.model.trim());
    this.priceIn = known?.input ?? null;
    this.priceOut = known?.output ?? null;
  }

  resetSystemPrompt(): void {
    this.systemPrompt = SYSTEM_PROMPT;
  }

  /** Saves the origin in the page's connection policy and reloads (the policy is built at load). */
  allowAndReload(): void {
    const origin = this.origin;
    if (!origin) return;
    allowConnectOrigin(origin);
    this.save(this.saved());
    location.reload();
  }

  /** Settings for a request, with the key. */
  settings(): ProviderSettings {
    const preset = this.preset;
    const baseUrl = this.baseUrl.trim();
    const model = this.model.trim();
    return {
      kind: preset.kind,
      baseUrl,
      apiKey: this.apiKey.trim() || undefined,
      model,
      id: `${preset.id === CUSTOM_PRESET.id ? preset.kind : preset.id}:${model}`,
      ...(this.temperature !== null ? { temperature: this.temperature } : {}),
      ...(this.topP !== null ? { topP: this.topP } : {}),
      maxTokens: positiveInt(this.maxTokens, DEFAULT_MAX_TOKENS),
      systemPrompt: this.systemPrompt,
      stream: this.stream,
      ...(this.completionActive ? { completion: true } : {}),
      // A changed base URL is some other server: keep the widely accepted request fields.
      ...(baseUrl.replace(/\/+$/, '') === preset.baseUrl ? preset.settings : {}),
    };
  }

  /** What a run stores about its source: the settings without the key. */
  runSource(): Extract<RunSource, { kind: 'provider' }> {
    const { apiKey: _key, id: _id, retry: _retry, requestTimeoutMs: _timeout, anthropicVersion: _version, ...rest } = this.settings();
    const settings: StoredProviderSettings = { ...rest, systemPrompt: rest.systemPrompt ?? SYSTEM_PROMPT, stream: Boolean(rest.stream) };
    // A run made with a key is continued only with a key (a local server may need one too).
    const keyRequired = this.keyRequired || Boolean(this.apiKey.trim());
    return { kind: 'provider', presetId: this.presetId, presetName: this.preset.name, settings, prices: { ...this.prices }, keyRequired };
  }

  /** Puts a stored run's settings back in the form (to continue it with the key of that provider). */
  applyRunSource(source: Extract<RunSource, { kind: 'provider' }>): void {
    const s = source.settings;
    this.presetId = presetById(source.presetId).id;
    this.baseUrl = s.baseUrl;
    this.model = s.model;
    this.temperature = s.temperature ?? null;
    this.topP = s.topP ?? null;
    this.maxTokens = s.maxTokens ?? DEFAULT_MAX_TOKENS;
    this.systemPrompt = s.systemPrompt;
    this.stream = s.stream;
    this.completion = Boolean(s.completion);
    this.priceIn = source.prices?.input ?? null;
    this.priceOut = source.prices?.output ?? null;
  }

  /** Request settings for a stored run: its own settings, this page's key for its preset. */
  settingsFor(source: Extract<RunSource, { kind: 'provider' }>, id: string): ProviderSettings {
    const key = (this.keys[source.presetId] ?? '').trim();
    return { ...source.settings, id, ...(key ? { apiKey: key } : {}) };
  }

  /** Sets the key of a stored run's preset (the resume banner asks for it), remembered if that preset's is. */
  setKeyFor(presetId: string, key: string): void {
    this.keys = { ...this.keys, [presetId]: key };
    if (presetId in this.remembered) this.writeRemembered({ ...this.remembered, [presetId]: key });
  }

  /** The key typed (or remembered) for a preset: another model of the Generate tab uses it. */
  keyFor(presetId: string): string {
    return this.keys[presetId] ?? '';
  }

  /** Whether a stored run can be continued now (its provider's key is known, if it needs one). */
  hasKeyFor(source: Extract<RunSource, { kind: 'provider' }>): boolean {
    return !source.keyRequired || Boolean((this.keys[source.presetId] ?? '').trim());
  }

  /** The outcome of the last "Test connection", if it tested the settings now in the form. */
  get connection(): ConnectionResult | null {
    return this.testResult && this.testResult.for === this.testKey() ? this.testResult : null;
  }

  private testKey(): string {
    return JSON.stringify([this.presetId, this.baseUrl.trim(), this.model.trim(), this.apiKey.trim().length]);
  }

  /** Sends one tiny request with these settings. */
  async testConnection(): Promise<void> {
    if (this.testing) return;
    const key = this.testKey();
    this.testing = true;
    this.testResult = null;
    try {
      this.testResult = { ...(await testConnection(this.settings(), location.origin)), for: key };
    } catch (e) {
      this.testResult = { ok: false, message: (e as Error).message, for: key };
    } finally {
      this.testing = false;
    }
  }

  async listModels(): Promise<void> {
    this.listController?.abort();
    const controller = (this.listController = new AbortController());
    this.listing = true;
    this.listError = null;
    try {
      const models = await listModels({ ...this.settings(), retry: { attempts: 2 }, requestTimeoutMs: 30_000 }, {}, controller.signal);
      if (controller.signal.aborted) return;
      this.models = models;
      if (!models.length) this.listError = `${providerLabel(this.settings())} listed no models`;
    } catch (e) {
      if (!controller.signal.aborted) this.listError = (e as Error).message;
    } finally {
      if (this.listController === controller) {
        this.listing = false;
        this.listController = null;
      }
    }
  }

  private saved(): SavedSettings {
    return {
      presetId: this.presetId,
      baseUrl: this.baseUrl,
      model: this.model,
      temperature: this.temperature,
      maxTokens: this.maxTokens,
      topP: this.topP,
      systemPrompt: this.systemPrompt,
      stream: this.stream,
      concurrency: this.concurrency,
      priceIn: this.priceIn,
      priceOut: this.priceOut,
      completion: this.completion,
    };
  }

  private save(settings: SavedSettings): void {
    try {
      storage()?.setItem(SETTINGS_KEY, JSON.stringify(settings));
    } catch {
      /* storage full or disabled: the form still works */
    }
  }

  private restore(): void {
    const s = readJson<SavedSettings>(SETTINGS_KEY);
    const remembered = readJson<Record<string, string>>(KEYS_KEY);
    this.remembered = Object.fromEntries(Object.entries(remembered).filter((e): e is [string, string] => typeof e[1] === 'string'));
    this.keys = { ...this.remembered };
    if (typeof s.presetId !== 'string') {
      this.fillPrices();
      return;
    }
    this.presetId = presetById(s.presetId).id;
    if (typeof s.baseUrl === 'string') this.baseUrl = s.baseUrl;
    if (typeof s.model === 'string') this.model = s.model;
    this.temperature = 'temperature' in s ? finite(s.temperature) : 0;
    this.maxTokens = finite(s.maxTokens) ?? DEFAULT_MAX_TOKENS;
    this.topP = finite(s.topP);
    if (typeof s.systemPrompt === 'string') this.systemPrompt = s.systemPrompt;
    if (typeof s.stream === 'boolean') this.stream = s.stream;
    if (typeof s.completion === 'boolean') this.completion = s.completion;
    this.concurrency = positiveInt(finite(s.concurrency), DEFAULT_PROVIDER_CONCURRENCY);
    this.priceIn = finite(s.priceIn);
    this.priceOut = finite(s.priceOut);
  }
}
