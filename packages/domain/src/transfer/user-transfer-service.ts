import { SYSTEM, type AuditChanges, type Initiator } from '../audit/audit-event.ts';
import { auditRecord } from '../audit/audit-records.ts';
import type { AuditTrail } from '../audit/audit-trail.ts';
import type { Clock } from '../shared/clock.ts';
import type { IdGenerator } from '../shared/id-generator.ts';
import type { PasswordHasher } from '../shared/password-hasher.ts';
import type { User } from '../users/user.ts';
import { emailSearchTerm, verifiedAt } from '../users/user.rules.ts';
import { NO_PASSWORD_HASH } from '../users/password-match.ts';
import { EmailTakenError } from '../shared/errors.ts';
import { planImport, type ConflictPolicy, type ImportEntry, type ImportPlan } from './import-plan.ts';
import { importedUsersChanges } from './imported-users.ts';
import { readTransferRecord, type ImportDraft } from './transfer-record.ts';
import type { ExportCursor, UserImportRepository } from './user-import.repository.ts';
import { NO_BAN } from '../users/user-ban.ts';

/** One record of the input, as a format reader found it: its value, or why it could not be read. */
export type ImportSource = { line: number; value: unknown } | { line: number; unreadable: string };

export interface Rejection {
  line: number;
  reason: string;
}

export interface ImportReport {
  dryRun: boolean;
  created: number;
  /** Of those created, the users without a password (records with neither password nor hash). */
  createdWithoutPassword: number;
  updated: number;
  skipped: number;
  rejected: number;
  /** The first REPORT_MAX_REJECTIONS rejections; `onRejected` hears every one. */
  rejections: Rejection[];
  /** Under `fail`, the conflict that stopped the import (nothing from its batch on was written). */
  failure: Rejection | null;
}

export interface ImportOptions {
  onConflict: ConflictPolicy;
  /** Checks everything, conflicts with stored users included, and writes nothing. */
  dryRun: boolean;
  /** Records written per transaction. */
  batchSize?: number;
  onRejected?(rejection: Rejection): void;
  /** Called after every batch with the report so far. */
  onProgress?(report: Readonly<ImportReport>): void;
  /** Who imports, as the audit event of each batch written records it; the system when not given. */
  by?: Initiator;
}

export interface ExportOptions {
  /** Only users whose email contains this term. */
  emailContains?: string;
  /** Whether the records carry password hashes, as the export's audit event records. */
  withPasswordHashes?: boolean;
  by?: Initiator;
}

/** What a batch, or an export, did, as its audit event shows it: counts and options, never users. */
const figures = (values: Record<string, number | boolean | string>): AuditChanges =>
  Object.fromEntries(Object.entries(values).map(([name, after]) => [name, { before: null, after }]));

export const DEFAULT_IMPORT_BATCH_SIZE = 1000;
/** The most records one batch writes, whatever is asked: its audit event names each user. */
export const MAX_IMPORT_BATCH_SIZE = 1000;
export const REPORT_MAX_REJECTIONS = 10_000;
export const EXPORT_PAGE_SIZE = 1000;
const BATCH_ATTEMPTS = 3;
/** Stands in for a password's hash in a dry run, which never stores one. */
const UNHASHED = '';

export interface UserTransferServiceDeps {
  imports: UserImportRepository;
  audit: AuditTrail;
  hasher: PasswordHasher;
  clock: Clock;
  ids: IdGenerator;
}

/**
 * Moves users in and out. An import reads records in order, refuses each bad one with its line
 * and reason, and writes the good ones in batches, one transaction each: an import stopped at any
 * point and run again ends as one clean run would (already written users are met as conflicts,
 * which `skip` skips and `update` finds unchanged).
 */
export class UserTransferService {
  constructor(private readonly deps: UserTransferServiceDeps) {}

  async import(
    sources: AsyncIterable<ImportSource> | Iterable<ImportSource>,
    options: ImportOptions,
  ): Promise<ImportReport> {
    const report: ImportReport = {
      dryRun: options.dryRun,
      created: 0,
      createdWithoutPassword: 0,
      updated: 0,
      skipped: 0,
      rejected: 0,
      rejections: [],
      failure: null,
    };
    const reject = (rejection: Rejection) => {
      report.rejected += 1;
      if (report.rejections.length < REPORT_MAX_REJECTIONS) report.rejections.push(rejection);
      options.onRejected?.(rejection);
    };
    // Bounded: a batch's audit event names each user it wrote (see importedUsersChanges).
    const batchSize = Math.min(options.batchSize ?? DEFAULT_IMPORT_BATCH_SIZE, MAX_IMPORT_BATCH_SIZE);
    let batch: { line: number; draft: ImportDraft }[] = [];
    const flush = async () => {
      const drafts = batch;
      batch = [];
      if (drafts.length === 0) return;
      const entries = await Promise.all(drafts.map(({ line, draft }) => this.entry(line, draft, options.dryRun)));
      const plan = await this.writeBatch(entries, options);
      if (plan.failure && !options.dryRun) {
        // Nothing of this batch was written: its records are not counted.
        report.failure = plan.failure;
        return;
      }
      const withoutPassword = new Set(entries.filter((entry) => !entry.given.password).map((entry) => entry.line));
      for (const outcome of plan.outcomes) {
        if (outcome.result === 'rejected') reject({ line: outcome.line, reason: outcome.reason });
        else report[outcome.result] += 1;
        if (outcome.result === 'created' && withoutPassword.has(outcome.line)) report.createdWithoutPassword += 1;
      }
      if (plan.failure) {
        // A dry run goes on past a conflict under `fail`, to show every one.
        reject(plan.failure);
        batch = drafts.filter(({ line }) => line > plan.failure!.line);
        return flush();
      }
      options.onProgress?.(report);
    };

    for await (const source of sources) {
      if ('unreadable' in source) {
        reject({ line: source.line, reason: source.unreadable });
        continue;
      }
      const read = readTransferRecord(source.value, this.deps.hasher);
      if ('reasons' in read) reject({ line: source.line, reason: read.reasons.join('; ') });
      else batch.push({ line: source.line, draft: read.draft });
      if (batch.length >= batchSize) await flush();
      if (report.failure) return report;
    }
    await flush();
    if (!report.failure) options.onProgress?.(report);
    return report;
  }

  /**
   * Every user (or those whose email contains a term), in (created, id) order, a page at a time.
   * The trail records the export as its first page is read: an export no one reads leaves no event.
   */
  async *export({ emailContains, withPasswordHashes = false, by = SYSTEM }: ExportOptions = {}): AsyncGenerator<User> {
    const term = emailSearchTerm(emailContains);
    const { audit, ids, clock } = this.deps;
    const options = { password_hashes: withPasswordHashes, ...(term ? { search: term } : {}) };
    await audit.append(auditRecord(ids.next(), clock.now(), by, 'users.exported', null, figures(options)));
    let after: ExportCursor | null = null;
    for (;;) {
      const page = await this.deps.imports.exportPage(after, EXPORT_PAGE_SIZE, term);
      yield* page;
      const last = page.at(-1);
      if (!last || page.length < EXPORT_PAGE_SIZE) return;
      after = { created: last.created, id: last.id };
    }
  }

  /**
   * One batch in one transaction. A user created through the API between the batch's read and its
   * write makes the write fail whole; planned again, the batch meets that user as a conflict.
   */
  private async writeBatch(entries: ImportEntry[], options: ImportOptions): Promise<ImportPlan> {
    for (let attempt = 1; ; attempt += 1) {
      const now = this.deps.clock.now();
      try {
        return await this.deps.imports.importBatch(
          entries,
          (stored) => planImport(entries, stored, options.onConflict, now),
          {
            write: !options.dryRun,
            now,
            audit: (plan) =>
              plan.inserts.length + plan.updates.length === 0
                ? null
                : auditRecord(this.deps.ids.next(), now, options.by ?? SYSTEM, 'users.imported', null, {
                    ...figures({ created: plan.inserts.length, updated: plan.updates.length }),
                    ...importedUsersChanges(plan.inserts, plan.updates),
                  }),
          },
        );
      } catch (error) {
        if (!(error instanceof EmailTakenError) || attempt >= BATCH_ATTEMPTS) throw error;
      }
    }
  }

  private async entry(line: number, draft: ImportDraft, dryRun: boolean): Promise<ImportEntry> {
    const now = this.deps.clock.now();
    const { password, passwordHash, id, created, updated, emailVerified, ...attributes } = draft;
    const hash =
      passwordHash ??
      (password === undefined ? NO_PASSWORD_HASH : dryRun ? UNHASHED : await this.deps.hasher.hash(password));
    const user: User = {
      ...attributes,
      id: id ?? this.deps.ids.next(),
      passwordHash: hash,
      created: created ?? now,
      updated: updated ?? created ?? now,
      version: 1,
      lastLogin: null,
      emailVerified: verifiedAt(null, emailVerified ?? true, now),
      ...NO_BAN,
    };
    return {
      line,
      user,
      given: {
        id: id !== undefined,
        created: created !== undefined,
        updated: updated !== undefined,
        password: password !== undefined || passwordHash !== undefined,
        emailVerified,
      },
    };
  }
}
