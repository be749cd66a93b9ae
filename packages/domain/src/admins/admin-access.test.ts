import { beforeEach, describe, expect, it } from '../testing/test-api.ts';
import { ForbiddenError, InvalidTokenError } from '../shared/errors.ts';
import type { InMemoryAdminRepository } from '../testing/in-memory-repositories.ts';
import { buildDomain, rejectionOf, type Domain } from '../testing/domain-fixture.ts';
import { ADMIN_PERMISSIONS, ADMIN_ROLES, roleAllows, type AdminPermission, type AdminRole } from './admin-roles.ts';
import type { Admin } from './admin.ts';

const PERMISSIONS = Object.keys(ADMIN_PERMISSIONS) as AdminPermission[];

describe('AdminAccess.authorize()', () => {
  let domain: Domain;
  let admin: Admin;
  let accessToken: string;
  beforeEach(async () => {
    domain = buildDomain();
    const signedIn = await domain.signedInAdmin();
    admin = signedIn.admin;
    accessToken = signedIn.grant.accessToken;
  });

  /** Gives the signed-in admin `role` in the store, as a change by another owner would. */
  const makeRole = async (role: AdminRole) => {
    admin = { ...admin, role };
    await domain.repositories.admins.update(admin);
  };

  it('lets each role through exactly the permissions the matrix gives it, and refuses the rest as forbidden', async () => {
    const outcomes: string[] = [];
    for (const role of ADMIN_ROLES) {
      await makeRole(role);
      for (const permission of PERMISSIONS) {
        const answer = await domain.adminAccess.authorize(accessToken, permission).then(
          () => 'allowed',
          (error: unknown) => (error instanceof ForbiddenError ? 'forbidden' : String(error)),
        );
        outcomes.push(`${role} ${permission} ${answer}`);
      }
    }
    const expected = ADMIN_ROLES.flatMap((role) =>
      PERMISSIONS.map(
        (permission) => `${role} ${permission} ${roleAllows(role, permission) ? 'allowed' : 'forbidden'}`,
      ),
    );
    expect(outcomes).toEqual(expected);
  });

  it('answers the identity of the token and the role as the store has it', async () => {
    await makeRole('support');
    const authorized = await domain.adminAccess.authorize(accessToken, 'users.read');
    expect(authorized).toEqual({
      identity: { kind: 'admin', subjectId: admin.id, sessionId: expect.any(String) },
      role: 'support',
    });
  });

  it('reads the role at every call: a demotion refuses the next call of the same token', async () => {
    await expect(domain.adminAccess.authorize(accessToken, 'users.write')).resolves.toBeDefined();
    await makeRole('auditor');
    const refused = await rejectionOf(domain.adminAccess.authorize(accessToken, 'users.write'), ForbiddenError);
    expect(refused.message).toMatch(/auditor/);
    await makeRole('admin');
    await expect(domain.adminAccess.authorize(accessToken, 'users.write')).resolves.toBeDefined();
  });

  it('refuses with invalid_token once the admin is gone, whatever the permission', async () => {
    (domain.repositories.admins as InMemoryAdminRepository).rows.delete(admin.id);
    for (const permission of ['self', 'users.read'] as const) {
      await expect(domain.adminAccess.authorize(accessToken, permission)).rejects.toBeInstanceOf(InvalidTokenError);
    }
  });

  it("refuses a user's token as forbidden, and a token that is no token as invalid", async () => {
    const { grant } = await domain.signedInUser();
    await expect(domain.adminAccess.authorize(grant.accessToken, 'self')).rejects.toBeInstanceOf(ForbiddenError);
    await expect(domain.adminAccess.authorize('not-a-token', 'self')).rejects.toBeInstanceOf(InvalidTokenError);
  });
});
