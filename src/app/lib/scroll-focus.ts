/**
 * A box that scrolls sideways (a wide table on a phone) must be reachable by keyboard to be
 * scrolled (WCAG 2.1.1; axe's scrollable-region-focusable): while it scrolls and holds nothing
 * focusable itself, it is a Tab stop of its own; when it fits, it is not (no idle stop on a desktop).
 * A Svelte action: `<div class="table-scroll" use:scrollFocus>`.
 */
const FOCUSABLE = 'a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex="-1"])';

export function scrollFocus(box: HTMLElement): { destroy(): void } {
  const update = () => {
    const needed = box.scrollWidth > box.clientWidth + 1 && !box.querySelector(FOCUSABLE);
    // Written only when it changes: a write dirties the page's style, and the next box's read of
    // its widths then lays the whole page out again, once per table on every result of a run (#16).
    if (needed === box.hasAttribute('tabindex')) return;
    if (needed) box.tabIndex = 0;
    else box.removeAttribute('tabindex');
  };
  // The box's own size (a rotated phone) and its table's (rows and columns come and go).
  const observer = new ResizeObserver(update);
  observer.observe(box);
  if (box.firstElementChild) observer.observe(box.firstElementChild);
  update();
  return { destroy: () => observer.disconnect() };
}
