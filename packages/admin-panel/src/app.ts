import { AccountApi } from './api/account-api';
import { AdminsApi } from './api/admins-api';
import { watchEnrolmentGate } from './api/enrolment-gate';
import { FactorsApi } from './api/factors-api';
import { InvitationsApi } from './api/invitations-api';
import { createSession } from './api/session';
import { UsersApi } from './api/users-api';
import { WebhooksApi } from './api/webhooks-api';
import { IdentityProvidersApi } from './api/identity-providers-api';
import { OAuthClientsApi } from './api/oauth-clients-api';
import { permissionsOf } from './state/permissions';
import { paths, routeOf, sameScreen, type Route } from './state/routes';
import { h } from './ui/dom';
import { adminsView } from './views/admins-view';
import { auditView } from './views/audit-view';
import { invitationsView } from './views/invitations-view';
import { loginView } from './views/login-view';
import { mailView } from './views/mail-view';
import { overviewView } from './views/overview-view';
import { securityView } from './views/security-view';
import { userView } from './views/user-view';
import { usersView } from './views/users-view';
import { webhookView } from './views/webhook-view';
import { webhooksView } from './views/webhooks-view';
import { identityProvidersView } from './views/identity-providers-view';
import { oauthClientsView } from './views/oauth-clients-view';
import type { ScreenContext, SignedInAdmin, View } from './views/view';

/** Decides what is on screen: nothing but the login form until a session exists. */
export class App {
  readonly #session = createSession(() => this.#signedOut('Your session has ended. Please sign in again.'));
  readonly #users = new UsersApi(this.#session);
  readonly #accounts = new AccountApi(this.#session);
  readonly #invitations = new InvitationsApi(this.#session);
  readonly #factors = new FactorsApi(this.#session);
  readonly #admins = new AdminsApi(this.#session);
  readonly #webhooks = new WebhooksApi(this.#session);
  readonly #identityProviders = new IdentityProvidersApi(this.#session);
  readonly #oauthClients = new OAuthClientsApi(this.#session);
  /** ADMIN_MFA=required refused a call: only the Security page is open until a factor is active. */
  #enrolmentRequired = false;
  #view: View | null = null;
  #route: Route | null = null;
  #routing = 0;
  /** Where to go after signing in: the page the admin asked for before being sent to log in. */
  #returnTo = '';

  constructor(private readonly root: HTMLElement) {}

  start(): void {
    watchEnrolmentGate(this.#session, () => {
      if (this.#enrolmentRequired) return;
      this.#enrolmentRequired = true;
      if (this.#route?.screen !== 'security') this.navigate(paths.security);
    });
    addEventListener('popstate', () => {
      const route = routeOf(location.pathname);
      if (this.#route && sameScreen(route, this.#route) && this.#view?.onLocationChange) this.#view.onLocationChange();
      else void this.#show();
    });
    void this.#show();
  }

  /** Goes to a path of the panel, as a link would, keeping the session. */
  readonly navigate = (path: string): void => {
    if (path !== location.pathname + location.search) history.pushState(null, '', path);
    void this.#show().then(() => this.root.querySelector<HTMLElement>('h1')?.focus());
  };

  async #show(notice: string | null = null): Promise<void> {
    const ticket = ++this.#routing;
    const wanted = routeOf(location.pathname);
    if (!this.#session.admin) {
      this.#display(null, statusPage('Loading…'));
      let restored: boolean;
      try {
        restored = await this.#session.refresh();
      } catch (error) {
        if (ticket === this.#routing) this.#display(null, this.#unreachable(error));
        return;
      }
      if (ticket !== this.#routing) return;
      if (!restored) {
        if (wanted.screen !== 'login') this.#returnTo = location.pathname + location.search;
        this.#showLogin(notice);
        return;
      }
    }
    let route: Route = wanted;
    if (this.#enrolmentRequired) route = { screen: 'security' };
    else if (wanted.screen === 'login') route = { screen: 'overview' };
    if (route.screen !== wanted.screen)
      history.replaceState(null, '', route.screen === 'security' ? paths.security : paths.overview);
    let me: SignedInAdmin;
    try {
      me = await this.#signedInAdmin();
    } catch (error) {
      if (ticket === this.#routing && this.#session.admin) this.#display(null, this.#unreachable(error));
      return;
    }
    if (ticket !== this.#routing) return;
    this.#display(route, this.#screen(route, me));
  }

  /**
   * The admin and their role, read for every screen so that a change an owner made applies at the
   * next page. While a second factor must be enrolled the API answers nothing but enrolment, and
   * the Security page (the only one open) needs no role.
   */
  async #signedInAdmin(): Promise<SignedInAdmin> {
    const admin = this.#session.admin;
    if (this.#enrolmentRequired && admin) return { ...admin, role: null };
    const { id, attributes } = await this.#admins.me();
    return { id, email: attributes.email, name: attributes.name, role: attributes.role };
  }

  #screen(route: Route, me: SignedInAdmin): View {
    const context: ScreenContext = {
      session: this.#session,
      users: this.#users,
      accounts: this.#accounts,
      admins: this.#admins,
      webhooks: this.#webhooks,
      identityProviders: this.#identityProviders,
      oauthClients: this.#oauthClients,
      factors: this.#factors,
      me,
      can: permissionsOf(me.role),
      navigate: this.navigate,
      onSignedOut: () => this.#signedOut('You have signed out.'),
    };
    switch (route.screen) {
      case 'users':
        return usersView(context);
      case 'user':
        return userView(context, route.id);
      case 'audit':
        return auditView(context);
      case 'mail':
        return mailView(context);
      case 'invitations':
        return invitationsView(context, this.#invitations);
      case 'admins':
        return adminsView(context);
      case 'webhooks':
        return webhooksView(context);
      case 'webhook':
        return webhookView(context, route.id);
      case 'identity-providers':
        return identityProvidersView(context);
      case 'oauth-clients':
        return oauthClientsView(context);
      case 'security':
        return securityView(context, this.#factors, {
          enrolmentRequired: this.#enrolmentRequired,
          onFactorActivated: () => {
            this.#enrolmentRequired = false;
          },
        });
      default:
        return overviewView(context);
    }
  }

  #showLogin(notice: string | null): void {
    if (location.pathname !== paths.login) history.replaceState(null, '', paths.login);
    this.#display(
      { screen: 'login' },
      loginView({
        session: this.#session,
        notice,
        onSignedIn: () => {
          history.replaceState(null, '', this.#returnTo || paths.overview);
          this.#returnTo = '';
          // Keyboard and screen-reader users start on the page's heading, not on a vanished form.
          void this.#show().then(() => this.root.querySelector<HTMLElement>('h1')?.focus());
        },
      }),
    );
  }

  /** Leaves every signed-in screen, open dialogs included, for the login form. */
  #signedOut(notice: string): void {
    if (this.#route?.screen === 'login') return;
    this.#routing += 1;
    this.#enrolmentRequired = false;
    for (const dialog of document.querySelectorAll('dialog')) dialog.close();
    this.#showLogin(notice);
  }

  #display(route: Route | null, view: View | HTMLElement): void {
    this.#view?.destroy?.();
    this.#view = view instanceof HTMLElement ? null : view;
    this.#route = route;
    this.root.replaceChildren(view instanceof HTMLElement ? view : view.element);
  }

  #unreachable(error: unknown): HTMLElement {
    const retry = h('button', { type: 'button', class: 'button primary' }, 'Try again');
    retry.addEventListener('click', () => void this.#show());
    return statusPage(`Could not restore the session: ${(error as Error).message}`, retry);
  }
}

function statusPage(message: string, ...extra: HTMLElement[]): HTMLElement {
  return h('main', { class: 'status-page', 'aria-busy': extra.length === 0 }, h('p', {}, message), ...extra);
}
