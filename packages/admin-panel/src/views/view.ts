import type { AccountApi } from '../api/account-api';
import type { AdminSession as Session } from '@uas/client';
import type { UsersApi } from '../api/users-api';
import type { AdminsApi } from '../api/admins-api';
import type { WebhooksApi } from '../api/webhooks-api';
import type { IdentityProvidersApi } from '../api/identity-providers-api';
import type { OAuthClientsApi } from '../api/oauth-clients-api';
import type { FactorsApi } from '../api/factors-api';
import type { Can } from '../state/permissions';

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
  admins: AdminsApi;
  /** Webhook endpoints and their deliveries (owners only). */
  webhooks: WebhooksApi;
  /** Identity providers (owners only) and users' identities at them. */
  identityProviders: IdentityProvidersApi;
  /** The applications that sign their users in through this service (owners only). */
  oauthClients: OAuthClientsApi;
  /** The signed-in admin's own second factors. */
  factors: FactorsApi;
  /** The signed-in admin as the API read them for this screen, role included. */
  me: SignedInAdmin;
  /** What that role allows: controls it does not allow are not shown. */
  can: Can;
  navigate(path: string): void;
  onSignedOut(): void;
}

/** Who is signed in; `role` is null only while a second factor must be enrolled first. */
export interface SignedInAdmin {
  id: string;
  email: string;
  name: string;
  role: string | null;
}
