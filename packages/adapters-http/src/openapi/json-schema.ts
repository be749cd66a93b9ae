import { type ConversionConfig, toJsonSchema, toJsonSchemaDefs } from '@valibot/to-json-schema';
import type { GenericSchema } from 'valibot';
import { errorDocumentSchema, errorObjectSchema } from '../errors/json-api-errors';
import { sessionDocumentSchema } from '../presenters/session.presenter';
import { auditEventListDocumentSchema, auditEventResourceSchema } from '../presenters/audit-event.presenter';
import { pageLinksSchema } from '../presenters/page-links';
import { userListDocumentSchema } from '../presenters/user-list.presenter';
import {
  adminUserDocumentSchema,
  adminUserResourceSchema,
  userDocumentSchema,
  userResourceSchema,
} from '../presenters/user.presenter';
import { loginDocument, refreshTokenBodySchema } from '../schemas/session.schemas';
import { mfaChallengeDocumentSchema, passkeyChallengeDocumentSchema } from '../presenters/sign-in-challenge.presenter';
import { passkeyBodySchema, secondStepBodySchema } from '../schemas/sign-in.schemas';
import { banBodySchema, createUserDocument, selfUpdateDocument, updateUserDocument } from '../schemas/user.schemas';

export type JsonSchema = Record<string, unknown>;

/** The schemas the document names in components, so generated clients get a type for each. */
const COMPONENTS: Record<string, GenericSchema> = {
  UserResource: userResourceSchema,
  UserDocument: userDocumentSchema,
  AdminUserResource: adminUserResourceSchema,
  AdminUserDocument: adminUserDocumentSchema,
  PageLinks: pageLinksSchema,
  UserListDocument: userListDocumentSchema,
  AuditEventResource: auditEventResourceSchema,
  AuditEventListDocument: auditEventListDocumentSchema,
  SessionDocument: sessionDocumentSchema,
  MfaChallengeDocument: mfaChallengeDocumentSchema,
  PasskeyChallengeDocument: passkeyChallengeDocumentSchema,
  SecondStepBody: secondStepBodySchema,
  PasskeyBody: passkeyBodySchema,
  ErrorObject: errorObjectSchema,
  ErrorDocument: errorDocumentSchema,
  LoginDocument: loginDocument,
  RefreshTokenBody: refreshTokenBodySchema,
  CreateUserDocument: createUserDocument,
  UpdateUserDocument: updateUserDocument,
  SelfUpdateDocument: selfUpdateDocument,
  BanBody: banBodySchema,
};

const CONVERSION: ConversionConfig = {
  target: 'draft-2020-12',
  // The wire schemas pipe a JSON-object check into an object schema: describe the latter.
  typeMode: 'output',
  // The domain's rules (checks) have no JSON Schema form; their words are in the descriptions.
  ignoreActions: ['check', 'raw_check'],
  // Every custom schema on the wire is a JSON-object check (valibot's object schemas accept arrays).
  overrideSchema: ({ valibotSchema }) =>
    valibotSchema.type === 'custom' ? { type: 'object', additionalProperties: true } : undefined,
  overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
};

function bare({ $schema: _, $defs: __, ...schema }: Record<string, unknown>): JsonSchema {
  return schema;
}

/** The JSON Schema (2020-12, as OpenAPI 3.1 uses) of a wire schema, naming components by reference. */
export const jsonSchemaOf = (schema: GenericSchema): JsonSchema =>
  bare(toJsonSchema(schema, { ...CONVERSION, definitions: COMPONENTS }) as Record<string, unknown>);

export const componentSchemas = (): Record<string, JsonSchema> =>
  Object.fromEntries(
    Object.entries(toJsonSchemaDefs(COMPONENTS, CONVERSION)).map(([name, schema]) => [
      name,
      bare(schema as Record<string, unknown>),
    ]),
  );
