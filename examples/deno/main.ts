// deno run --allow-net --allow-env examples/deno/main.ts
import { inMemoryRepositories } from '@uas/domain/testing';
import { createAccountApi } from '../account-api/account-api.ts';

const api = await createAccountApi(inMemoryRepositories(), Deno.env.get('TOKEN_SECRET') ?? crypto.randomUUID());

Deno.serve(
  {
    hostname: '127.0.0.1',
    port: Number(Deno.env.get('PORT') ?? 8000),
    onListen: ({ hostname, port }) => console.log(`listening on http://${hostname}:${port}`),
  },
  (request, info) => api(request, info.remoteAddr.hostname),
);
