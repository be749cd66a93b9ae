import { describe, expect, it } from '../testing/test-api.ts';
import { SequentialIds } from '../testing/fake-ports.ts';
import { isUuid } from './id-generator.ts';

describe('isUuid', () => {
  it.each(['f47ac10b-58cc-4372-a567-0e02b2c3d479', '01890a5d-ac96-774b-bcce-b302099a8057', new SequentialIds().next()])(
    'accepts the lowercase UUID %s',
    (id) => {
      expect(isUuid(id)).toBe(true);
    },
  );

  it.each([
    ['upper case', 'F47AC10B-58CC-4372-A567-0E02B2C3D479'],
    ['no dashes', 'f47ac10b58cc4372a5670e02b2c3d479'],
    ['the nil UUID', '00000000-0000-0000-0000-000000000000'],
    ['a wrong variant', 'f47ac10b-58cc-4372-c567-0e02b2c3d479'],
    ['surrounding text', ' f47ac10b-58cc-4372-a567-0e02b2c3d479'],
    ['a number', '42'],
    ['an empty string', ''],
  ])('rejects %s', (_case, id) => {
    expect(isUuid(id)).toBe(false);
  });
});
