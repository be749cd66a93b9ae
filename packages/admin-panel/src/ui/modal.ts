import { h, uniqueId, type Child } from './dom';

export interface Modal {
  readonly dialog: HTMLDialogElement;
  /** Where the modal's content goes. */
  readonly body: HTMLElement;
  close(): void;
  /** Resolves once the modal has closed, however it was closed. */
  readonly closed: Promise<void>;
}

/**
 * A native modal <dialog>: it traps focus, closes with Escape, and gives focus back to what
 * had it before. It removes itself from the page once closed.
 */
export function openModal(title: string, ...content: Child[]): Modal {
  const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const titleId = uniqueId('dialog-title');
  const body = h('div', { class: 'dialog-body' }, ...content);
  const dialog = h('dialog', { 'aria-labelledby': titleId }, h('h2', { id: titleId }, title), body);
  document.body.append(dialog);

  const closed = new Promise<void>((resolve) => {
    dialog.addEventListener('close', () => {
      dialog.remove();
      if (opener?.isConnected) opener.focus();
      resolve();
    });
  });
  dialog.showModal();
  return { dialog, body, close: () => dialog.close(), closed };
}
