import { inMemoryRepositories } from '@uas/domain/testing';
import { createAccountApi, type AccountApi } from '../account-api/account-api.ts';

interface Env {
  /** The HMAC key of the JWTs; a random one (tokens die with the isolate) when unset. */
  TOKEN_SECRET?: string;
}

// In-memory repositories live as long as the isolate; a deployed Worker would implement the
// domain's repository ports over KV, D1 or a Durable Object instead.
let api: Promise<AccountApi> | undefined;

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    api ??= createAccountApi(inMemoryRepositories(), env.TOKEN_SECRET ?? crypto.randomUUID());
    return (await api)(request, request.headers.get('CF-Connecting-IP') ?? 'local');
  },
};
