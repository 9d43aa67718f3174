/** Server-sent events from a fetch body, parsed by the maintained `eventsource-parser`. */
import { createParser, type EventSourceMessage } from 'eventsource-parser';

/**
 * Feeds `body` to the parser and hands each event to `onEvent`; stops reading (and releases the
 * connection) as soon as `onEvent` returns true. Resolves when the body ends; network errors reject.
 */
export async function readEvents(body: ReadableStream<Uint8Array>, onEvent: (message: EventSourceMessage) => boolean): Promise<void> {
  let done = false;
  const parser = createParser({
    onEvent(message) {
      if (!done && onEvent(message)) done = true;
    },
  });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let ended = false;
  try {
    while (!done) {
      const chunk = await reader.read();
      // An event cut off by the end of the body is dropped, as the SSE standard says.
      if ((ended = chunk.done)) break;
      parser.feed(decoder.decode(chunk.value, { stream: true }));
    }
  } finally {
    // Complete early, or a handler threw: close the connection rather than leave it open.
    if (!ended) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

/** Whether the response is an event stream (a server may ignore `stream` and send JSON). */
export function isEventStream(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').toLowerCase().includes('text/event-stream');
}
