import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PERMISSIONS, ADMIN_ROLES, type AdminRole } from '@uas/domain';
import { bearer } from '@uas/adapters-http/testing';
import { sessionOf, type Session } from '../support/admin-api';
import { type DocumentedOperation, type OpenApiDocument, operationsOf } from '../support/openapi-requests';
import { insertAdmin } from '../support/second-admin';
import { BACKENDS, startTestApplication, type TestApplication } from '../support/test-application';
import { AdminClient } from '../support/admin-client';

/** Every operation that takes an admin's access token, as the served document lists them. */
const adminOperations = (document: OpenApiDocument) =>
  operationsOf(document).filter(
    ({ template, operation }) =>
      template.startsWith('/v1/admin/') && (operation.security ?? []).some((requirement) => 'bearer' in requirement),
  );

/** docs/API.md's matrix (section 2.6): each permission's row, the operations it names and the roles it ticks. */
function documentedMatrix() {
  const api = readFileSync(new URL('../../../../docs/API.md', import.meta.url), 'utf8');
  const section = api.slice(api.indexOf('### 2.6 Administrator roles'), api.indexOf('\n## 3.'));
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const [permission = '', operations = '', ...ticks] = line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim());
      return {
        permission: permission.replaceAll('`', ''),
        operations: [...operations.matchAll(/`((?:GET|POST|PATCH|PUT|DELETE) \/v1\/[^`]+)`/g)].map(
          (match) => match[1]!,
        ),
        roles: ADMIN_ROLES.filter((_, i) => ticks[i] === '✓'),
      };
    });
}

const name = ({ method, template, operation }: DocumentedOperation) =>
  `${operation.operationId} (${method} ${template})`;

/**
 * The least-privilege promise, generated from GET /v1/openapi.json: every admin operation names
 * its roles (`x-roles`), and a token of each role gets 403 `forbidden` exactly where the list
 * leaves that role out. A route added without a rule fails here; nothing is listed by hand.
 */
describe.each(BACKENDS)('admin roles × operations, from the served document, on %s', (backend) => {
  let t: TestApplication;
  let client: AdminClient;
  let document: OpenApiDocument;
  const admins = new Map<AdminRole, { email: string; password: string }>();
  const sessions = new Map<AdminRole, Session>();

  beforeAll(async () => {
    t = await startTestApplication(backend);
    client = new AdminClient(t);
    for (const role of ADMIN_ROLES) admins.set(role, await insertAdmin(t, role));
    document = (await (await t.app.request('/v1/openapi.json')).json()) as OpenApiDocument;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  /** The role's session, logging in again after an operation ended it. */
  async function sessionOfRole(role: AdminRole): Promise<Session> {
    const cached = sessions.get(role);
    if (cached) return cached;
    const { email, password } = admins.get(role)!;
    const session = await sessionOf(await client.login(email, password));
    sessions.set(role, session);
    return session;
  }

  /**
   * The operation called with dummy inputs: fresh UUIDs in the path (the admin's own id where the
   * path names the caller, as logout does), the smallest body of the type the document asks for.
   */
  async function call({ method, template, operation }: DocumentedOperation, role: AdminRole): Promise<Response> {
    const session = await sessionOfRole(role);
    const path = template.replace(/\{(\w+)\}/g, () =>
      operation.operationId === 'adminLogout' ? session.id : randomUUID(),
    );
    const [mediaType] = Object.keys(operation.requestBody?.content ?? {});
    const response = await t.app.request(path, {
      method,
      headers: { ...bearer(session.accessToken), ...(mediaType === undefined ? {} : { 'Content-Type': mediaType }) },
      ...(mediaType === undefined ? {} : { body: mediaType.includes('json') ? '{}' : '' }),
    });
    if (response.status === 204 && operation.operationId === 'adminLogout') sessions.delete(role);
    return response;
  }

  it('names the roles allowed (x-roles) on every admin operation that takes a token: deny by default', () => {
    const operations = adminOperations(document);
    expect(operations.length).toBeGreaterThan(20);
    const withoutRoles = operations.filter(({ operation }) => !Array.isArray(operation['x-roles'])).map(name);
    expect(withoutRoles, 'put these routes on adminAccess(deps.adminAccess, <permission>)').toEqual([]);
    const unknownRoles = operations.filter(({ operation }) =>
      operation['x-roles']!.some((role) => !(ADMIN_ROLES as readonly string[]).includes(role)),
    );
    expect(unknownRoles.map(name)).toEqual([]);
  });

  it("docs/API.md's matrix gives every permission the domain's roles, and every operation it names those roles as x-roles", () => {
    const rows = documentedMatrix();
    expect(Object.fromEntries(rows.map(({ permission, roles }) => [permission, roles]))).toEqual(ADMIN_PERMISSIONS);
    const served = new Map(
      adminOperations(document).map(({ method, template, operation }) => [`${method} ${template}`, operation]),
    );
    const disagreeing = rows.flatMap(({ operations, roles }) =>
      operations.filter((operation) => served.get(operation)?.['x-roles']?.join() !== roles.join()),
    );
    expect(rows.flatMap(({ operations }) => operations)).not.toEqual([]);
    expect(disagreeing, 'named in docs/API.md with other roles than x-roles, or not served').toEqual([]);
  });

  it('answers 403 forbidden exactly where x-roles leaves the role out, for every operation and role', async () => {
    const operations = adminOperations(document);
    const mismatches: string[] = [];
    let forbidden = 0;
    for (const operation of operations) {
      for (const role of ADMIN_ROLES) {
        const response = await call(operation, role);
        const body = await response.text();
        const refused = response.status === 403 && JSON.parse(body).errors?.[0]?.code === 'forbidden';
        const allowed = operation.operation['x-roles']!.includes(role);
        if (refused) forbidden += 1;
        // Let in means past the door: neither refused by role nor by token (dummy inputs may fail later).
        if (refused === allowed || (allowed && response.status === 401) || response.status >= 500) {
          mismatches.push(`${role} on ${name(operation)}: ${response.status} ${body.slice(0, 200)}`);
        }
      }
    }
    console.info(
      `role × operation matrix (${backend}): ${operations.length} operations × ${ADMIN_ROLES.length} roles = ${operations.length * ADMIN_ROLES.length} calls, ${forbidden} refused as forbidden`,
    );
    expect(mismatches).toEqual([]);
    client.expectCleanLogs();
  }, 120_000);
});
