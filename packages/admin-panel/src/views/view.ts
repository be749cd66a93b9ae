import type { AccountApi } from '../api/account-api';
import type { AdminSession as Session } from '@uas/client';
import type { UsersApi } from '../api/users-api';

/** A screen of the panel: its root element, and what to undo when it is replaced. */
export interface View {
  readonly element: HTMLElement;
  /** Called when the URL changed (back/forward) while this view stays on screen. */
  onLocationChange?(): void;
  destroy?(): void;
}

/** What every signed-in screen is given. */
export interface ScreenContext {
  session: Session;
  users: UsersApi;
  accounts: AccountApi;
  navigate(path: string): void;
  onSignedOut(): void;
}
