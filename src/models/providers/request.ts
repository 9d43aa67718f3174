/** What every wire format asks: the system prompt (official by default) and the question. */
import { buildChatMessages, SYSTEM_PROMPT } from '../../core/prompt';
import type { ProviderSettings } from './types';

/** The official limit on new tokens (SPEC §2). */
export const DEFAULT_MAX_TOKENS = 8192;

export function messagesFor(settings: ProviderSettings, question: string): { system: string; user: string } {
  const [system, user] = buildChatMessages(question, settings.systemPrompt ?? SYSTEM_PROMPT);
  return { system: system!.content, user: user!.content };
}
