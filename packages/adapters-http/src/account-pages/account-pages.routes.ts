import { EmailTakenError, hasActionTokenForm, InvalidActionTokenError, ValidationError } from '@uas/domain';
import { type Context, Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../app-env';
import { requestContext } from '../network/request-context';
import { pageRoute } from '../openapi/route-description';
import { PANEL_CONTENT_SECURITY_POLICY } from '../routes/admin-panel.routes';
import { isSameOrigin } from '../session/same-origin';
import type { AccountActions } from './account-actions';
import { ACCOUNT_CSS, ACCOUNT_PATH, ACCOUNT_STYLESHEET } from './account-layout';
import { ACCOUNT_PAGE_SPECS, type AccountPageSpec } from './account-page-specs';
import { donePage, formPage, stoppedPage } from './account-views';

export interface AccountPagesDeps {
  /** What each page does once its form is posted. */
  actions: AccountActions;
  /** Where a finished page leads (APP_URL): configuration only, never taken from a request. */
  appUrl: string | null;
}

/** The paths whose POST is a URL-encoded form (the body guard's `formPaths`). */
export const ACCOUNT_FORM_PATHS = ACCOUNT_PAGE_SPECS.map(({ page }) => `${ACCOUNT_PATH}/${page}`);

/**
 * The panel's CSP and framing rule. `securityHeaders` already gives every response
 * `Referrer-Policy: no-referrer` (the token in the address never reaches another site, the
 * application's included) and `Cache-Control: no-store` (the page holds the token); nothing here
 * replaces them.
 */
const pageHeaders = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  c.header('Content-Security-Policy', PANEL_CONTENT_SECURITY_POLICY);
  c.header('X-Frame-Options', 'DENY');
});

/** The first value of a form field, or '' when it was not sent. */
const field = (c: Context<AppEnv>, name: string) => c.get('formBody').get(name) ?? '';

/**
 * The pages the mailed links open, under `/account/`. A GET only shows the page: mail scanners and
 * link previews follow links, so nothing is consumed until the form is posted. A link whose token
 * cannot be one (absent, mangled) says so at once, with 400 and no form.
 */
export function accountPagesRoutes({ actions, appUrl }: AccountPagesDeps) {
  const invalidLink = (c: Context<AppEnv>, spec: AccountPageSpec) =>
    c.html(
      stoppedPage(
        spec.title,
        'This link is invalid, has already been used, or has expired.',
        'Ask for a new link where you asked for this one.',
        appUrl,
      ),
      400,
    );

  const app = new Hono<AppEnv>()
    .use(`${ACCOUNT_PATH}/*`, pageHeaders)
    .get(`${ACCOUNT_PATH}/${ACCOUNT_STYLESHEET}`, pageRoute, (c) =>
      c.body(ACCOUNT_CSS, 200, { 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': 'no-cache' }),
    );

  for (const spec of ACCOUNT_PAGE_SPECS) {
    const path = `${ACCOUNT_PATH}/${spec.page}`;
    app
      .get(path, pageRoute, (c) => {
        const token = c.req.query('token');
        return hasActionTokenForm(token) ? c.html(formPage(spec, token)) : invalidLink(c, spec);
      })
      .post(path, pageRoute, async (c) => {
        // The token in the form is the real defence: single use, mailed to its owner, unknown to
        // another site. The panel's same-origin check still fits, at no cost to a reader: a page
        // elsewhere cannot submit a link someone was sent (their own invitation, say) in a
        // visitor's browser, and a mail scanner that submits forms (it sends neither header)
        // consumes nothing. Browsers send Sec-Fetch-Site, which holds behind any proxy; older
        // ones an Origin, which holds when TRUSTED_PROXIES names the proxy.
        if (!isSameOrigin(c)) {
          return c.html(
            stoppedPage(
              spec.title,
              'This form was sent from another site, so nothing was done.',
              'Open the link from your email again.',
              appUrl,
            ),
            403,
          );
        }
        const token = field(c, 'token');
        if (!hasActionTokenForm(token)) return invalidLink(c, spec);
        const password = field(c, 'password');
        if (spec.choosesPassword && password !== field(c, 'confirmation')) {
          return c.html(formPage(spec, token, { confirmation: 'The two passwords are not the same.' }), 422);
        }
        try {
          await spec.act(actions, token, password, requestContext(c));
        } catch (error) {
          if (error instanceof InvalidActionTokenError) return invalidLink(c, spec);
          if (error instanceof ValidationError && spec.choosesPassword) {
            return c.html(formPage(spec, token, { password: sentence(error) }), 422);
          }
          if (error instanceof EmailTakenError) {
            return c.html(stoppedPage(spec.title, spec.emailTaken.text, spec.emailTaken.next, appUrl), 409);
          }
          throw error;
        }
        return c.html(donePage(spec, appUrl));
      });
  }
  return app;
}

/**
 * The issues of a refused password as sentences beside its field ("The password must be at least
 * 8 bytes long."), whether or not a use case's detail names the attribute first.
 */
const sentence = (error: ValidationError) =>
  (error.issues.length === 0 ? [error.message] : error.issues.map(({ detail }) => detail))
    .map((detail) => `The password ${detail.replace(/^password\s+/i, '')}.`)
    .join(' ');
