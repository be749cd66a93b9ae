import { writeFile } from 'node:fs/promises';
import { API_TYPES_TARGETS, apiTypesSource } from './api-types-source';

for (const target of API_TYPES_TARGETS) {
  await writeFile(target.file, await apiTypesSource(target));
  process.stdout.write(`Wrote ${target.file.pathname}\n`);
}
