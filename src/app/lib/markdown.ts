/** Markdown → sanitized HTML for questions and model answers (marked + DOMPurify). */
import DOMPurify from 'dompurify';
import { Marked } from 'marked';

const marked = new Marked({ gfm: true, breaks: false });

/**
 * Tags that would make the browser fetch something (images, media, frames) or change the page
 * (forms, styles) are removed: a question or an answer must never reach the network.
 */
const FORBID_TAGS = ['img', 'picture', 'source', 'video', 'audio', 'iframe', 'object', 'embed', 'form', 'input', 'button', 'style', 'link', 'meta', 'svg', 'math'];

let hooked = false;
function addHooks(): void {
  if (hooked) return;
  hooked = true;
  // Links open in a new tab and carry no referrer.
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A' && node.getAttribute('href')) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
  });
}

export function renderMarkdown(text: string): string {
  addHooks();
  const html = marked.parse(text, { async: false });
  return DOMPurify.sanitize(html, { FORBID_TAGS, FORBID_ATTR: ['style', 'srcset', 'background'] });
}
