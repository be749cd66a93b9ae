import {
  ndjsonLine,
  readNdjson,
  toTransferRecord,
  type AdminAccess,
  type ImportReport,
  type ImportSource,
  type UserTransferService,
} from '@uas/domain';
import { Hono } from 'hono';
import * as v from 'valibot';
import type { AppEnv } from '../app-env';
import { HttpProblem, payloadTooLarge } from '../errors/http-problem';
import { adminAccess } from '../middleware/admin-access';
import { caller } from '../network/request-context';
import { describeRoute } from '../openapi/route-description';
import {
  EXPORT_QUERY_PARAMETERS,
  IMPORT_QUERY_PARAMETERS,
  parseExportQuery,
  parseImportQuery,
} from '../schemas/transfer-query.schemas';

export const IMPORT_PATH = '/v1/admin/users/import';
/** Largest import body: the CLI (`uas users import`) has no limit, for anything bigger. */
export const IMPORT_MAX_BODY_BYTES = 64 * 1024 * 1024;
export const IMPORT_MAX_RECORDS = 100_000;
const NDJSON_MEDIA_TYPE = 'application/x-ndjson';

/** The body as it streams in, stopped with 413 past the byte limit. */
async function* limitedBody(body: ReadableStream<Uint8Array> | null): AsyncGenerator<Uint8Array> {
  let read = 0;
  if (!body) return;
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    read += chunk.byteLength;
    if (read > IMPORT_MAX_BODY_BYTES) throw importTooLarge(`more than ${IMPORT_MAX_BODY_BYTES} bytes`);
    yield chunk;
  }
}

async function* limitedRecords(sources: AsyncIterable<ImportSource>): AsyncGenerator<ImportSource> {
  let count = 0;
  for await (const source of sources) {
    count += 1;
    if (count > IMPORT_MAX_RECORDS) throw importTooLarge(`more than ${IMPORT_MAX_RECORDS} records`);
    yield source;
  }
}

/** Past a limit the import stops; what it wrote stays (whole batches), and a re-run skips it. */
const importTooLarge = (what: string) =>
  new HttpProblem(
    'payload_too_large',
    [
      {
        detail: `The import sent ${what}; it stopped there. Batches written before stay, and sending the same input again skips them. Use the CLI for larger imports.`,
      },
    ],
    { Connection: 'close' },
  );

const unsupportedImportType = () =>
  new HttpProblem('unsupported_media_type', [
    {
      detail: `An import body must be sent as ${NDJSON_MEDIA_TYPE}: one user record per line.`,
    },
  ]);

const rejectionSchema = v.object({ line: v.pipe(v.number(), v.integer()), reason: v.string() });
const count = (what: string) => v.pipe(v.number(), v.integer(), v.description(what));

const importReportSchema = v.object({
  data: v.object({
    type: v.literal('user-imports'),
    attributes: v.object({
      dry_run: v.boolean(),
      created: count('Users created.'),
      created_without_password: count(
        'Of those created, the users whose record had neither password nor password_hash: no password logs them in until one is set.',
      ),
      updated: count('Users updated (on_conflict=update).'),
      skipped: count('Records skipped: email taken (on_conflict=skip), or written by an earlier run.'),
      rejected: count('Records refused.'),
      rejections: v.pipe(v.array(rejectionSchema), v.description('The first refusals, by input line.')),
      failure: v.pipe(
        v.nullable(rejectionSchema),
        v.description('Under on_conflict=fail, the conflict that stopped the import.'),
      ),
    }),
  }),
});

const reportDocument = (report: ImportReport): v.InferOutput<typeof importReportSchema> => ({
  data: {
    type: 'user-imports' as const,
    attributes: {
      dry_run: report.dryRun,
      created: report.created,
      created_without_password: report.createdWithoutPassword,
      updated: report.updated,
      skipped: report.skipped,
      rejected: report.rejected,
      rejections: report.rejections,
      failure: report.failure,
    },
  },
});

/** Moving users in and out with an admin access token: NDJSON in, NDJSON out, both streamed. */
export function adminUserTransferRoutes({
  transfer,
  adminAccess: access,
}: {
  transfer: UserTransferService;
  adminAccess: AdminAccess;
}) {
  return new Hono<AppEnv>()
    .post(
      IMPORT_PATH,
      describeRoute({
        operationId: 'importUsers',
        summary: 'Import users from NDJSON',
        description: `One user record per line, streamed; at most ${IMPORT_MAX_BODY_BYTES} bytes and ${IMPORT_MAX_RECORDS} records (the CLI has no limit). Sending the same input again skips what was written.`,
        tags: ['Admin users'],
        query: IMPORT_QUERY_PARAMETERS,
        body: {
          mediaType: NDJSON_MEDIA_TYPE,
          description: 'One JSON user record per line, as the export writes them.',
        },
        responses: { 200: { description: 'What the import did.', schema: importReportSchema } },
      }),
      adminAccess(access, 'users.import'),
      async (c) => {
        const query = parseImportQuery(c.req.url);
        if (c.req.header('content-type')?.split(';')[0]?.trim().toLowerCase() !== NDJSON_MEDIA_TYPE)
          throw unsupportedImportType();
        const declared = Number(c.req.header('content-length'));
        if (declared > IMPORT_MAX_BODY_BYTES) throw payloadTooLarge(IMPORT_MAX_BODY_BYTES);
        // Each batch written is recorded in the audit trail with its counts, in the batch's transaction.
        const report = await transfer.import(limitedRecords(readNdjson(limitedBody(c.req.raw.body))), {
          ...query,
          by: caller(c),
        });
        return c.json(reportDocument(report), 200);
      },
    )
    .get(
      '/v1/admin/users/export',
      describeRoute({
        operationId: 'exportUsers',
        summary: 'Export users as NDJSON',
        description: 'Streamed one user record per line, oldest first; what the import reads.',
        tags: ['Admin users'],
        query: EXPORT_QUERY_PARAMETERS,
        responses: {
          200: {
            description: 'One user record per line.',
            mediaType: NDJSON_MEDIA_TYPE,
            headers: ['Content-Disposition'],
          },
        },
      }),
      adminAccess(access, 'users.export'),
      async (c) => {
        const { withPasswordHashes, search } = parseExportQuery(c.req.url);
        // The trail records the export (who, with or without hashes) as its first page is read.
        const users = transfer.export({ emailContains: search, withPasswordHashes, by: caller(c) });
        const encoder = new TextEncoder();
        // Pulled a record at a time as the client reads, so memory stays flat whatever the count.
        const body = new ReadableStream<Uint8Array>({
          async pull(controller) {
            const next = await users.next();
            if (next.done) controller.close();
            else controller.enqueue(encoder.encode(ndjsonLine(toTransferRecord(next.value, withPasswordHashes))));
          },
          async cancel() {
            await users.return(undefined);
          },
        });
        const stamp = new Date().toISOString().slice(0, 10);
        return c.body(body, 200, {
          'Content-Type': NDJSON_MEDIA_TYPE,
          'Content-Disposition': `attachment; filename="users-${stamp}.ndjson"`,
          'Cache-Control': 'no-store',
        });
      },
    );
}
