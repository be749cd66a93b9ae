import { type AdminSession, type paths, unwrap } from '@uas/client';

type Ok<P extends keyof paths, M extends 'get'> =
  NonNullable<paths[P][M]> extends {
    responses: { 200: { content: { 'application/json': infer Body } } };
  }
    ? Body
    : never;

/** A page of the pending invitations, oldest first. */
export type InvitationPage = Ok<'/v1/admin/invitations', 'get'>;
export type InvitationResource = InvitationPage['data'][number];

/** What an admin fills in to invite someone. */
export type InvitationInput = { email: string; name?: string };

/** The admin API's invitations, each call carried by the admin's session. */
export class InvitationsApi {
  constructor(private readonly session: AdminSession) {}

  async list(page: number, signal?: AbortSignal): Promise<InvitationPage> {
    const query = { 'page[number]': page };
    return (await unwrap(this.session.api.GET('/v1/admin/invitations', { params: { query }, signal }))).data;
  }

  async invite(attributes: InvitationInput): Promise<InvitationResource> {
    const body = { data: { type: 'invitations' as const, attributes } };
    return (await unwrap(this.session.api.POST('/v1/admin/invitations', { body }))).data.data;
  }

  async resend(id: string): Promise<InvitationResource> {
    const call = this.session.api.POST('/v1/admin/invitations/{id}/resend', { params: { path: { id } } });
    return (await unwrap(call)).data.data;
  }

  async revoke(id: string): Promise<void> {
    await unwrap(this.session.api.DELETE('/v1/admin/invitations/{id}', { params: { path: { id } } }));
  }
}
