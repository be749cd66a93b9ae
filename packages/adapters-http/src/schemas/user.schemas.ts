import {
  adminOnlyAttributes,
  BAN_REASON_MAX_LENGTH,
  CLAIMS_MAX_BYTES,
  EMAIL_MAX_LENGTH,
  NAME_MAX_LENGTH,
  PASSWORD_MAX_BYTES,
  PASSWORD_MIN_BYTES,
  isJsonObject,
  userAttributeIssues,
  type BanInput,
  type JsonObject,
  type NewUser,
  type SelfPatch,
  type UserPatch,
} from '@uas/domain';
import * as v from 'valibot';
import {
  assertResourceIdentity,
  closedObject,
  identifiedResourceDocument,
  jsonObject,
  numeric,
  resourceDocument,
  text,
} from './json-api.schemas';
import { parseWith } from './validation';

/** The domain's rule for one attribute, so each rule keeps its single home in the domain. */
function problemOf(attribute: keyof UserPatch, value: unknown): string | undefined {
  return userAttributeIssues({ [attribute]: value } as UserPatch)[0]?.detail;
}

const obeysDomainRule = <T>(attribute: keyof UserPatch) =>
  v.check(
    (value: T) => problemOf(attribute, value) === undefined,
    (issue: v.CheckIssue<T>) => problemOf(attribute, issue.input) ?? `${attribute} is invalid`,
  );

/** Each user attribute as the wire carries it, then the domain's rule for it. */
export const userAttributes = {
  name: v.pipe(text(), obeysDomainRule<string>('name'), v.metadata({ maxLength: NAME_MAX_LENGTH })),
  email: v.pipe(
    text(),
    obeysDomainRule<string>('email'),
    v.metadata({ format: 'email', maxLength: EMAIL_MAX_LENGTH }),
    v.description('Trimmed and stored lower-cased; unique whatever the case.'),
  ),
  password: v.pipe(
    text(),
    obeysDomainRule<string>('password'),
    v.description(`${PASSWORD_MIN_BYTES} to ${PASSWORD_MAX_BYTES} bytes of UTF-8, never truncated.`),
  ),
  metadata: v.pipe(
    jsonObject(),
    obeysDomainRule('metadata'),
    v.description(`A JSON object of at most ${CLAIMS_MAX_BYTES} bytes; replaces the whole previous one.`),
  ),
  app: v.pipe(
    jsonObject(),
    obeysDomainRule('app'),
    v.description(`A JSON object of at most ${CLAIMS_MAX_BYTES} bytes; replaces the whole previous one.`),
  ),
  active: v.pipe(numeric(), obeysDomainRule<number>('active'), v.metadata({ enum: [0, 1] })),
  email_verified: v.pipe(
    v.union([v.boolean(), v.pipe(v.string(), v.metadata({ format: 'date-time' }))]),
    obeysDomainRule<boolean | string>('emailVerified'),
    v.description(
      '`true`: verified (now, or since it was); `false`: not verified; or the time it was verified (ISO 8601 UTC).',
    ),
  ),
};

const { password, active, email_verified } = userAttributes;
/** The attributes an invitation shares with a user. */
export const { name, email, metadata, app } = userAttributes;

/** POST /v1/admin/users: email and password required; defaults are the domain's business. */
export const createUserDocument = resourceDocument(
  closedObject(
    {
      name: v.optional(name),
      email,
      password,
      metadata: v.optional(metadata),
      app: v.optional(app),
      active: v.optional(active),
      email_verified: v.optional(email_verified),
    },
    'attribute',
  ),
);

/** PATCH /v1/admin/users/:id: no defaults, so an absent attribute stays absent (and keeps its value). */
export const updateUserDocument = identifiedResourceDocument(
  closedObject(
    {
      name: v.optional(name),
      email: v.optional(email),
      password: v.optional(password),
      metadata: v.optional(metadata),
      app: v.optional(app),
      active: v.optional(active),
      email_verified: v.optional(email_verified),
    },
    'attribute',
  ),
);

/** PATCH /v1/users/me: what a user may change; admin-only attributes never reach this schema. */
export const selfUpdateDocument = identifiedResourceDocument(
  closedObject(
    {
      name: v.optional(name),
      metadata: v.optional(metadata),
      password: v.optional(password),
      current_password: v.optional(text()),
    },
    'attribute',
  ),
);

function attributesOf(body: unknown): JsonObject | undefined {
  const data = isJsonObject(body) ? body.data : undefined;
  const attributes = isJsonObject(data) ? data.attributes : undefined;
  return isJsonObject(attributes) ? attributes : undefined;
}

/**
 * The attributes of a self-service PATCH. Admin-only attributes (`email`, `app`, `active`) are
 * handed to the domain as they are and alone: SelfService refuses them with 403 before anything
 * else, and that refusal must win over any other problem in the request.
 */
export function parseSelfUpdate(body: unknown): SelfPatch & Record<string, unknown> {
  const attributes = attributesOf(body);
  const adminOnly = attributes ? adminOnlyAttributes(attributes) : [];
  if (attributes && adminOnly.length > 0) {
    return Object.fromEntries(adminOnly.map((attribute) => [attribute, attributes[attribute]]));
  }
  return parseWith(selfUpdateDocument, body).data.attributes;
}

// The wire's `email_verified` is the domain's `emailVerified`; absent stays absent (undefined).

export function parseCreateUser(body: unknown): NewUser {
  assertResourceIdentity(body);
  const { email_verified, ...attributes } = parseWith(createUserDocument, body).data.attributes;
  return { ...attributes, emailVerified: email_verified };
}

export function parseUpdateUser(body: unknown, pathId: string): UserPatch {
  assertResourceIdentity(body, pathId);
  const { email_verified, ...attributes } = parseWith(updateUserDocument, body).data.attributes;
  return { ...attributes, emailVerified: email_verified };
}

/**
 * `{ "reason": "…", "until": "<ISO 8601 UTC>" | null }`: POST /v1/admin/users/{id}/ban. An absent
 * `until` is null (a ban without end). The domain checks the reason and that the end is to come.
 */
export const banBodySchema = closedObject(
  {
    reason: v.pipe(
      text(),
      v.description('Why the user is banned (shown to admins, recorded in the audit trail).'),
      v.metadata({ minLength: 1, maxLength: BAN_REASON_MAX_LENGTH }),
    ),
    until: v.pipe(
      v.optional(v.nullable(text()), null),
      v.description('When the ban ends, an ISO 8601 UTC time to come; null or absent: no end.'),
    ),
  },
  'member',
);
export const parseBan = (body: unknown): BanInput => parseWith(banBodySchema, body);
