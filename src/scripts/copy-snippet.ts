/**
 * Copy buttons beside text the page shows anyway (the badge's embed snippets, src/components/BadgeEmbed.astro):
 * each `button[data-copy]` copies the text of the element its value names, and says so in the `[data-copy-status]`
 * beside it. The buttons stay hidden without JavaScript and where the clipboard cannot be written (an insecure
 * page, an old browser): the snippet is still there to select.
 */
export function enhanceCopyButtons(document: Document): void {
  if (typeof navigator.clipboard?.writeText !== 'function') return;
  for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-copy]')) {
    const source = document.getElementById(button.dataset['copy'] ?? '');
    const status = button.parentElement?.querySelector<HTMLElement>('[data-copy-status]');
    if (source === null || status == null) continue;
    button.hidden = false;
    button.addEventListener('click', () => {
      status.textContent = '';
      navigator.clipboard.writeText(source.textContent ?? '').then(
        () => {
          status.textContent = button.dataset['copied'] ?? '';
        },
        () => {
          status.textContent = button.dataset['copyFailed'] ?? '';
        },
      );
    });
  }
}
