import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { API_TYPES_TARGETS, apiTypesSource } from '../tools/api-types-source';

describe('the generated API types', () => {
  it.each(API_TYPES_TARGETS.map((target) => [target.file.pathname.split('/packages/')[1], target] as const))(
    '%s is what openapi-typescript makes of the document the service serves now',
    async (_, target) => {
      const committed = await readFile(target.file, 'utf8');
      expect(committed === (await apiTypesSource(target)), 'run `pnpm --filter @uas/app-client generate`').toBe(true);
    },
  );
});
