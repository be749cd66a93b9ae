import { h, setAttr, uniqueId, type Child } from './dom';

export type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/** A labelled form control with an optional hint and a slot for its error message. */
export interface Field<C extends Control = Control> {
  readonly element: HTMLElement;
  readonly control: C;
  setError(message: string | null): void;
}

export function field<C extends Control>(label: string, control: C, hint?: Child): Field<C> {
  const id = control.id || uniqueId('field');
  control.id = id;
  const hintEl = hint ? h('p', { class: 'hint', id: `${id}-hint` }, hint) : null;
  const errorEl = h('p', { class: 'field-error', id: `${id}-error`, hidden: true });
  const labelEl = h('label', { for: id }, label);
  const isCheck = control instanceof HTMLInputElement && control.type === 'checkbox';
  const element = isCheck
    ? h('div', { class: 'field field-check' }, control, labelEl, hintEl, errorEl)
    : h('div', { class: 'field' }, labelEl, control, hintEl, errorEl);
  const describe = (withError: boolean) =>
    [hintEl ? hintEl.id : '', withError ? errorEl.id : ''].filter(Boolean).join(' ') || null;
  setAttr(control, 'aria-describedby', describe(false));

  return {
    element,
    control,
    setError(message) {
      errorEl.textContent = message ?? '';
      errorEl.hidden = message === null;
      setAttr(control, 'aria-invalid', message !== null ? 'true' : null);
      setAttr(control, 'aria-describedby', describe(message !== null));
    },
  };
}
