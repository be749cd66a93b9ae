// The user-account service this app signs its users in with (its PUBLIC_URL), and the slug and
// name of the identity provider an admin added there. This page's origin must be listed in the
// service's REDIRECT_ALLOW_LIST (where the service sends the browser back) and CORS_ORIGINS (so
// this page may call the API).
window.SIGN_IN_CONFIG = {
  serviceUrl: 'http://localhost:3000/',
  provider: 'github',
  providerName: 'GitHub',
};
