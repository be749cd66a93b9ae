import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  requestContext,
  type InteractionSignIn,
  type OpenIdInteraction,
  type OpenIdInteractions,
} from '@uas/adapters-http';
import { NotFoundError, type OAuthClientRepository } from '@uas/domain';
import type { Context } from 'hono';
import type Provider from 'oidc-provider';
import type { Interaction, InteractionResults } from 'oidc-provider';
import type { GrantWriter } from './grant-writer';
import type { OpenIdEngine } from './openid-engine';
import { ACR_VALUES } from './openid-configuration';

/** The raw Node request and response under the Hono context (@hono/node-server's bindings). */
interface NodeBindings {
  incoming: IncomingMessage;
  outgoing: ServerResponse;
}

/**
 * The engine's interactions as the `/account/authorize/…` pages drive them. The engine finds the
 * interaction by its cookie (set on this browser when the authorization began, signed with the
 * key ring's keys), and the page's uid must name that same interaction.
 */
export class EngineInteractions implements OpenIdInteractions {
  constructor(
    private readonly engine: OpenIdEngine,
    private readonly clients: OAuthClientRepository,
    private readonly grants: GrantWriter,
  ) {}

  async details(c: Context, uid: string): Promise<OpenIdInteraction | null> {
    const found = await this.find(c, uid);
    if (!found) return null;
    const { interaction } = found;
    const client = await this.clients.get(String(interaction.params['client_id']));
    if (!client) return null;
    const loginHint = interaction.params['login_hint'];
    return {
      uid: interaction.uid,
      prompt: interaction.prompt.name === 'login' ? 'login' : 'consent',
      client: { id: client.id, name: client.name },
      scopes: missing(interaction, 'missingOIDCScope'),
      accountId: interaction.session?.accountId ?? null,
      loginHint: typeof loginHint === 'string' ? loginHint : null,
    };
  }

  async signedIn(c: Context, uid: string, signIn: InteractionSignIn): Promise<string> {
    const amr = [...signIn.amr];
    const acr = amr.includes('mfa') || amr.includes('hwk') ? ACR_VALUES.multiFactor : ACR_VALUES.singleFactor;
    return this.finish(c, uid, { login: { accountId: signIn.accountId, amr, acr } });
  }

  async consented(c: Context, uid: string): Promise<string> {
    const { provider, interaction } = await this.open(c, uid);
    const accountId = interaction.session?.accountId;
    if (interaction.prompt.name !== 'consent' || !accountId) throw new NotFoundError('authorization');
    const clientId = String(interaction.params['client_id']);
    const existing = interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined;
    const grant = await this.grants.extend(
      provider,
      existing,
      { accountId, clientId },
      missing(interaction, 'missingOIDCScope'),
      missing(interaction, 'missingOIDCClaims'),
      requestContext(c),
    );
    return this.finish(c, uid, { consent: { grantId: grant.jti } });
  }

  declined(c: Context, uid: string): Promise<string> {
    return this.finish(c, uid, {
      error: 'access_denied',
      error_description: 'The user did not let the application in.',
    });
  }

  /**
   * Records the result; answers the engine's URL that carries the authorization on. The same
   * form posted twice at once (a double click) may find the interaction finished by the other
   * between the two reads: that one is gone, as if it had been found gone.
   */
  private async finish(c: Context, uid: string, result: InteractionResults): Promise<string> {
    const { provider } = await this.open(c, uid);
    const { incoming, outgoing } = c.env as NodeBindings;
    try {
      return await provider.interactionResult(incoming, outgoing, result, { mergeWithLastSubmission: true });
    } catch (error) {
      if (isSessionNotFound(error)) throw new NotFoundError('authorization');
      throw error;
    }
  }

  private async open(c: Context, uid: string): Promise<{ provider: Provider; interaction: Interaction }> {
    const found = await this.find(c, uid);
    if (!found) throw new NotFoundError('authorization');
    return found;
  }

  private async find(c: Context, uid: string): Promise<{ provider: Provider; interaction: Interaction } | null> {
    const provider = await this.engine.provider();
    const { incoming, outgoing } = c.env as NodeBindings;
    try {
      const interaction = await provider.interactionDetails(incoming, outgoing);
      return interaction.uid === uid ? { provider, interaction } : null;
    } catch (error) {
      // No interaction cookie, or its interaction expired or finished: none of this browser's.
      if (isSessionNotFound(error)) return null;
      throw error;
    }
  }
}

/** The engine's error for an interaction (or its cookie) that is not there, or no longer. */
const isSessionNotFound = (error: unknown) => (error as { name?: string })?.name === 'SessionNotFound';

/** What the consent prompt found missing: the scopes (or claims) not granted yet. */
function missing(interaction: Interaction, detail: 'missingOIDCScope' | 'missingOIDCClaims'): string[] {
  const value = interaction.prompt.details[detail];
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];
}
