// `node examples/openid-app/server.js`: the example app on APP_URL (default http://localhost:4000),
// signing users in through the service at ISSUER with the client CLIENT_ID (and CLIENT_SECRET for a
// confidential client). See README.md beside this file for the steps.
import { createOpenIdApp } from './app.js';

const { ISSUER = 'http://localhost:3002', CLIENT_ID, CLIENT_SECRET, APP_URL = 'http://localhost:4000' } = process.env;
if (!CLIENT_ID) {
  console.error('Set CLIENT_ID (and CLIENT_SECRET for a confidential client): see examples/openid-app/README.md');
  process.exit(1);
}

const app = await createOpenIdApp({
  issuer: ISSUER,
  clientId: CLIENT_ID,
  clientSecret: CLIENT_SECRET,
  appUrl: APP_URL,
});
const { hostname, port } = new URL(APP_URL);
app.listen(Number(port) || 80, hostname, () => console.log(`Open ${APP_URL}/ and sign in`));
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => app.close());
