import { type AdminSession, type paths, unwrap } from '@uas/client';
import type { AdminRole } from '../state/permissions';

type Ok<P extends keyof paths, M extends 'get'> =
  NonNullable<paths[P][M]> extends {
    responses: { 200: { content: { 'application/json': infer Body } } };
  }
    ? Body
    : never;

/** An administrator, as `/v1/admin/me` and `/v1/admin/admins` show them (never a password hash). */
export type AdminResource = Ok<'/v1/admin/me', 'get'>['data'];
/** A pending invitation of an administrator (never its link). */
export type AdminInvitationResource = Ok<'/v1/admin/admins/invitations', 'get'>['data'][number];

/** What an owner fills in to invite an administrator. */
export type AdminInvitationInput = { email: string; name?: string; role: AdminRole };

/** The admin API's administrators: the signed-in one, and (owners only) all of them. */
export class AdminsApi {
  constructor(private readonly session: AdminSession) {}

  /** The signed-in admin, role included: read again on every screen, as a role change applies at once. */
  async me(signal?: AbortSignal): Promise<AdminResource> {
    return (await unwrap(this.session.api.GET('/v1/admin/me', { signal }))).data.data;
  }

  async list(signal?: AbortSignal): Promise<AdminResource[]> {
    return (await unwrap(this.session.api.GET('/v1/admin/admins', { signal }))).data.data;
  }

  /** The invitations not yet accepted, withdrawn or expired, oldest first. */
  async pendingInvitations(signal?: AbortSignal): Promise<AdminInvitationResource[]> {
    return (await unwrap(this.session.api.GET('/v1/admin/admins/invitations', { signal }))).data.data;
  }

  /** The invitation's link stops working. */
  async withdraw(id: string): Promise<void> {
    await unwrap(this.session.api.DELETE('/v1/admin/admins/invitations/{id}', { params: { path: { id } } }));
  }

  /** Mails the invitee a link to set their password and join with `role`. */
  async invite(attributes: AdminInvitationInput): Promise<void> {
    const body = { data: { type: 'admins' as const, attributes } };
    await unwrap(this.session.api.POST('/v1/admin/admins', { body }));
  }

  async changeRole(id: string, role: AdminRole): Promise<AdminResource> {
    const body = { data: { type: 'admins' as const, id, attributes: { role } } };
    return (await unwrap(this.session.api.PATCH('/v1/admin/admins/{id}', { params: { path: { id } }, body }))).data
      .data;
  }

  /** Removes the admin and ends their sessions. */
  async remove(id: string): Promise<void> {
    await unwrap(this.session.api.DELETE('/v1/admin/admins/{id}', { params: { path: { id } } }));
  }
}
