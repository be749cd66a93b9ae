/** A screen of the panel: its root element, and what to undo when it is replaced. */
export interface View {
  readonly element: HTMLElement;
  /** Called when the URL changed (back/forward) while this view stays on screen. */
  onLocationChange?(): void;
  destroy?(): void;
}
