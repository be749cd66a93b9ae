import { Session } from './api/session';
import { UsersApi } from './api/users-api';
import { h } from './ui/dom';
import { loginView } from './views/login-view';
import { usersView } from './views/users-view';
import type { View } from './views/view';

const HOME = '/admin/';
const LOGIN = '/admin/login';
type Screen = 'login' | 'users';

/** Decides what is on screen: nothing but the login form until a session exists. */
export class App {
  readonly #session = new Session(() => this.#signedOut('Your session has ended. Please sign in again.'));
  readonly #users = new UsersApi(this.#session);
  #view: View | null = null;
  #screen: Screen | null = null;
  #routing = 0;
  /** Where to go after signing in: the list the admin asked for before being sent to log in. */
  #returnTo = '';

  constructor(private readonly root: HTMLElement) {}

  start(): void {
    addEventListener('popstate', () => {
      if (this.#screen === screenOf(location.pathname) && this.#view?.onLocationChange) this.#view.onLocationChange();
      else void this.#route();
    });
    void this.#route();
  }

  async #route(notice: string | null = null): Promise<void> {
    const ticket = ++this.#routing;
    const wanted = screenOf(location.pathname);
    if (!this.#session.admin) {
      this.#show(null, statusPage('Loading…'));
      let restored: boolean;
      try {
        restored = await this.#session.refresh();
      } catch (error) {
        if (ticket === this.#routing) this.#show(null, this.#unreachable(error));
        return;
      }
      if (ticket !== this.#routing) return;
      if (!restored) {
        if (wanted === 'users') this.#returnTo = location.search;
        this.#showLogin(notice);
        return;
      }
    }
    if (location.pathname !== HOME) history.replaceState(null, '', HOME + (wanted === 'users' ? location.search : ''));
    this.#show(
      'users',
      usersView({
        session: this.#session,
        users: this.#users,
        onSignedOut: () => this.#signedOut('You have signed out.'),
      }),
    );
  }

  #showLogin(notice: string | null): void {
    if (location.pathname !== LOGIN) history.replaceState(null, '', LOGIN);
    this.#show(
      'login',
      loginView({
        session: this.#session,
        notice,
        onSignedIn: () => {
          history.replaceState(null, '', HOME + this.#returnTo);
          this.#returnTo = '';
          // Keyboard and screen-reader users start on the page's heading, not on a vanished form.
          void this.#route().then(() => this.root.querySelector<HTMLElement>('h1')?.focus());
        },
      }),
    );
  }

  /** Leaves every signed-in screen, open dialogs included, for the login form. */
  #signedOut(notice: string): void {
    if (this.#screen === 'login') return;
    this.#routing += 1;
    for (const dialog of document.querySelectorAll('dialog')) dialog.close();
    this.#showLogin(notice);
  }

  #show(screen: Screen | null, view: View | HTMLElement): void {
    this.#view?.destroy?.();
    this.#view = view instanceof HTMLElement ? null : view;
    this.#screen = screen;
    this.root.replaceChildren(view instanceof HTMLElement ? view : view.element);
  }

  #unreachable(error: unknown): HTMLElement {
    const retry = h('button', { type: 'button', class: 'button primary' }, 'Try again');
    retry.addEventListener('click', () => void this.#route());
    return statusPage(`Could not restore the session: ${(error as Error).message}`, retry);
  }
}

function screenOf(pathname: string): Screen {
  return pathname.replace(/\/+$/, '') === LOGIN ? 'login' : 'users';
}

function statusPage(message: string, ...extra: HTMLElement[]): HTMLElement {
  return h('main', { class: 'status-page', 'aria-busy': extra.length === 0 }, h('p', {}, message), ...extra);
}
