import { writeFile } from 'node:fs/promises';
import { API_TYPES_FILE, apiTypesSource } from './api-types-source';

await writeFile(API_TYPES_FILE, await apiTypesSource());
process.stdout.write(`Wrote ${API_TYPES_FILE.pathname}\n`);
