import { describe, expect, it } from '../testing/test-api.ts';
import { MAIL_KINDS } from '../mail/mail-message.ts';
import { ADMIN_ROLES, permissionToOpen, roleAllows } from './admin-roles.ts';

describe('permissionToOpen()', () => {
  it("opens an administrator's invitation for owners only", () => {
    expect(ADMIN_ROLES.filter((role) => roleAllows(role, permissionToOpen('admin_invitation')))).toEqual(['owner']);
  });

  it('opens no other message for a role that may not change users and their invitations outright', () => {
    for (const kind of MAIL_KINDS) {
      for (const role of ADMIN_ROLES) {
        if (!roleAllows(role, permissionToOpen(kind))) continue;
        expect([kind, role, roleAllows(role, 'users.write') && roleAllows(role, 'invitations.write')]).toEqual([
          kind,
          role,
          true,
        ]);
      }
    }
  });
});
