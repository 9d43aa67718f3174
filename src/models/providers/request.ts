/** What every wire format asks: the system prompt (official by default) and the question. */
import { buildChatMessages, SYSTEM_PROMPT } from '../../core/prompt';
import type { PriorTurn } from '../../contracts';
import type { ProviderSettings } from './types';

/** The official limit on new tokens (SPEC §2). */
export const DEFAULT_MAX_TOKENS = 8192;

export function messagesFor(settings: ProviderSettings, question: string): { system: string; user: string } {
  const [system, user] = buildChatMessages(question, settings.systemPrompt ?? SYSTEM_PROMPT);
  return { system: system!.content, user: user!.content };
}

/** Earlier turns as chat messages after the question: the model's answer, then the feedback it got. */
export function priorMessages(history: readonly PriorTurn[] | undefined): Array<{ role: 'assistant' | 'user'; content: string }> {
  return (history ?? []).flatMap((t) => [
    { role: 'assistant' as const, content: t.answer },
    { role: 'user' as const, content: t.feedback },
  ]);
}
