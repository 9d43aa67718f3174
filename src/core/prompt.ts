/** What the model is asked (SPEC §2). */

/** The official system prompt, verbatim. */
export const SYSTEM_PROMPT =
  'You are an expert programmer. Your task is to provide a code solution within a single Markdown code block for the given programming problem. Do not include any direct execution commands, test cases, or usage examples within the code block.';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Chat mode: the system prompt, then the question as the user message. */
export function buildChatMessages(question: string, systemPrompt: string = SYSTEM_PROMPT): ChatMessage[] {
  return [
    { role: 'system', content: systemPrompt },
    { role: 'user', content: question },
  ];
}

export const COMPLETION_STOP = '[Code Solution End]';
const COMPLETION_START = '[Code Solution]';

/** Completion mode (AutoCodeBench-Complete): one plain prompt for base models. */
export function buildCompletionPrompt(question: string, systemPrompt: string = SYSTEM_PROMPT): string {
  return `${systemPrompt}\n\n${question}\n\n${COMPLETION_START}\n`;
}

/** The answer of a completion: before the stop string, after the last `[Code Solution]` if any. */
export function cutCompletion(text: string): string {
  const stop = text.indexOf(COMPLETION_STOP);
  let answer = stop === -1 ? text : text.slice(0, stop);
  const start = answer.lastIndexOf(COMPLETION_START);
  if (start !== -1) answer = answer.slice(start + COMPLETION_START.length);
  return answer;
}
