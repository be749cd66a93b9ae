import { ADMIN_PERMISSIONS, ADMIN_ROLES, type AdminPermission } from '@uas/domain';
import { describe, expect, it } from 'vitest';
import { permissionsOf } from '../../src/state/permissions';

const PERMISSIONS = Object.keys(ADMIN_PERMISSIONS) as AdminPermission[];

describe('permissionsOf', () => {
  it.each(ADMIN_ROLES)("offers %s exactly what the domain's matrix grants it", (role) => {
    const can = permissionsOf(role);
    for (const permission of PERMISSIONS)
      expect(can(permission), permission).toBe((ADMIN_PERMISSIONS[permission] as readonly string[]).includes(role));
  });

  it('offers an auditor reading and no writing, and only owners the admins', () => {
    const auditor = permissionsOf('auditor');
    expect(auditor('audit.read')).toBe(true);
    expect(auditor('users.write')).toBe(false);
    expect(auditor('users.ban')).toBe(false);
    expect(permissionsOf('admin')('admins.manage')).toBe(false);
    expect(permissionsOf('owner')('admins.manage')).toBe(true);
  });

  it('offers nothing to a role it does not know, or to none', () => {
    for (const role of ['superuser', '', null, 'Owner'])
      for (const permission of PERMISSIONS) expect(permissionsOf(role)(permission)).toBe(false);
  });
});
