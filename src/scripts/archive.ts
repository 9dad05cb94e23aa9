/**
 * A provider page folds its archive (the event history, the estimate's checks) so that a phone reads the answer
 * and the charts first. A link to an event (`#event-<id>`) must still land on it: Chromium opens a closed
 * `<details>` for a fragment by itself; other browsers get it opened here, on load and on every hash change.
 */
export function openArchiveAtAnchor(document: Document): void {
  const open = () => {
    const id = decodeURIComponent(document.location.hash.slice(1));
    const target = id === '' ? null : document.getElementById(id);
    const archive = target?.closest('details');
    if (!target || !archive || archive.open) return;
    archive.open = true;
    target.scrollIntoView();
  };
  open();
  window.addEventListener('hashchange', open);
}
