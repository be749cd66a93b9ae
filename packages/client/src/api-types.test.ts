import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { API_TYPES_FILE, apiTypesSource } from '../tools/api-types-source';

describe('the client types', () => {
  it('are what openapi-typescript makes of the document the service serves now', async () => {
    const committed = await readFile(API_TYPES_FILE, 'utf8');
    expect(committed === (await apiTypesSource()), 'run `pnpm --filter @uas/client generate`').toBe(true);
  });
});
