import type { ConflictPolicy, ImportReport } from '@uas/client';
import type { UsersApi } from '../api/users-api';
import { h } from '../ui/dom';
import { field } from '../ui/field';
import { FormErrors } from '../ui/form-errors';
import { openModal } from '../ui/modal';

/** Rejections listed in the dialog; the rest are counted. */
const SHOWN_REJECTIONS = 50;

export interface ImportDialogOptions {
  users: UsersApi;
  /** Called after an import that wrote something, so the list can show it. */
  onImported: () => void;
}

/** Chooses an NDJSON file, sends it (or checks it, in a dry run) and shows the report. */
export async function openImportDialog({ users, onImported }: ImportDialogOptions): Promise<void> {
  const fields = {
    file: field(
      'File',
      h('input', { type: 'file', name: 'file', accept: '.ndjson,.jsonl,application/x-ndjson', required: true }),
      'NDJSON: one user per line, as the export writes it, with password, password_hash or neither (no password until one is set).',
    ),
    onConflict: field(
      'When the email exists',
      h(
        'select',
        { name: 'onConflict' },
        h('option', { value: 'skip' }, 'Skip the record'),
        h('option', { value: 'update' }, 'Update the user'),
        h('option', { value: 'fail' }, 'Stop the import'),
      ),
    ),
    dryRun: field(
      'Dry run: check only, write nothing',
      h('input', { type: 'checkbox', name: 'dryRun', checked: true }),
    ),
  };
  const errors = new FormErrors(fields);
  const report = h('div', { class: 'import-report', role: 'status' });
  const close = h('button', { type: 'button', class: 'button' }, 'Close');
  const submit = h('button', { type: 'submit', class: 'button primary' }, 'Import');
  const form = h(
    'form',
    { class: 'user-form', novalidate: true },
    errors.element,
    h('div', { class: 'form-grid' }, ...Object.values(fields).map((f) => f.element)),
    report,
    h('div', { class: 'dialog-actions' }, close, submit),
  );
  const modal = openModal('Import users', form);
  close.addEventListener('click', () => modal.close());
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void send();
  });

  async function send(): Promise<void> {
    if (submit.disabled) return;
    errors.clear();
    const file = fields.file.control.files?.[0];
    if (!file) {
      errors.showProblems({ file: 'Choose a file to import.' });
      return;
    }
    const dryRun = fields.dryRun.control.checked;
    submit.disabled = true;
    submit.textContent = dryRun ? 'Checking…' : 'Importing…';
    form.setAttribute('aria-busy', 'true');
    try {
      const result = await users.importFile(file, fields.onConflict.control.value as ConflictPolicy, dryRun);
      showReport(result);
      if (!dryRun && result.created + result.updated > 0) onImported();
    } catch (error) {
      errors.showError(error);
    } finally {
      submit.disabled = false;
      submit.textContent = 'Import';
      form.removeAttribute('aria-busy');
    }
  }

  function showReport(result: ImportReport): void {
    const verb = result.dry_run ? 'would be' : 'were';
    const lines = result.rejections
      .slice(0, SHOWN_REJECTIONS)
      .map(({ line, reason }) => h('li', {}, `Line ${line}: ${reason}`));
    const more = result.rejected - lines.length;
    report.replaceChildren(
      h('h3', {}, result.dry_run ? 'Dry run: nothing was written' : 'Import finished'),
      h(
        'p',
        { class: 'import-counts' },
        `${result.created} ${verb} created, ${result.updated} updated, ${result.skipped} skipped, ${result.rejected} rejected.`,
      ),
      ...(result.created_without_password
        ? [
            h(
              'p',
              {},
              `${result.created_without_password} of them without a password: none can log in until an admin sets one.`,
            ),
          ]
        : []),
      ...(result.failure
        ? [h('p', { class: 'form-error' }, `Stopped at line ${result.failure.line}: ${result.failure.reason}.`)]
        : []),
      ...(lines.length ? [h('ul', { class: 'rejections' }, ...lines)] : []),
      ...(more > 0 ? [h('p', { class: 'muted' }, `…and ${more} more.`)] : []),
    );
  }

  await modal.closed;
}
