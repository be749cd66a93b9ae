import type { UpstreamAccount } from '../identities/oauth-attempt.ts';
import { pkceChallenge } from '../identities/pkce.ts';
import type { UpstreamClient, UpstreamProviders } from '../identities/upstream-providers.ts';
import { IdentityProviderError } from '../shared/errors.ts';

/** What the provider was asked at its authorization URL. */
interface Authorization {
  client: UpstreamClient;
  state: string;
  nonce: string;
  codeChallenge: string;
}

/**
 * Identity providers in memory, strict as a real one: a callback's code is the one a consent gave
 * for that state, redeemed once by the client it was made for, with the nonce and the PKCE
 * verifier of its authorization. A test plays the user at the provider with consent().
 */
export class FakeUpstreamProviders implements UpstreamProviders {
  private readonly authorizations = new Map<string, Authorization>();
  private readonly grants = new Map<string, { authorization: Authorization; account: UpstreamAccount }>();
  private codes = 0;
  /** Set, the provider cannot be reached (its discovery failed): the reason it is refused with. */
  unreachable: string | null = null;

  async authorizationUrl(
    client: UpstreamClient,
    request: { state: string; nonce: string; codeChallenge: string },
  ): Promise<string> {
    if (this.unreachable !== null) throw new IdentityProviderError(this.unreachable);
    this.authorizations.set(request.state, { client, ...request });
    const query = new URLSearchParams({
      client_id: client.provider.clientId,
      redirect_uri: client.redirectUri,
      state: request.state,
      code_challenge: request.codeChallenge,
    });
    return `https://${client.provider.slug}.provider.example/authorize?${query}`;
  }

  /** The user at the provider signs in as `account` for the authorization of `state`: the callback's parameters. */
  consent(state: string, account: UpstreamAccount): Record<string, string> {
    const authorization = this.authorizations.get(state);
    if (!authorization) throw new Error('no authorization was asked with this state');
    this.codes += 1;
    const code = `provider-code-${this.codes}`;
    this.grants.set(code, { authorization, account });
    return { state, code };
  }

  /** The state the provider was last sent to, as it comes back in the callback. */
  lastState(): string {
    const states = [...this.authorizations.keys()];
    const state = states.at(-1);
    if (state === undefined) throw new Error('no authorization was asked');
    return state;
  }

  async complete(
    client: UpstreamClient,
    callback: { params: Readonly<Record<string, string>>; state: string; nonce: string; codeVerifier: string },
  ): Promise<UpstreamAccount> {
    // A refusal at the provider comes back as `error` (RFC 6749 §4.1.2.1), as a real client reads it.
    if (callback.params.error !== undefined) throw new IdentityProviderError('authorization answered an error');
    const grant = this.grants.get(callback.params.code ?? '');
    this.grants.delete(callback.params.code ?? '');
    const authorization = grant?.authorization;
    if (
      !grant ||
      authorization?.client.provider.id !== client.provider.id ||
      authorization.state !== callback.state ||
      authorization.nonce !== callback.nonce ||
      authorization.codeChallenge !== pkceChallenge(callback.codeVerifier)
    ) {
      throw new IdentityProviderError('the provider refused the code');
    }
    return grant.account;
  }

  async check(): Promise<void> {}
}
