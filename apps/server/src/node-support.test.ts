import { describe, expect, it } from 'vitest';
import { unsupportedNodeWarning } from './node-support';

describe('unsupportedNodeWarning', () => {
  it('says nothing on the LTS lines the engine supports', () => {
    expect(unsupportedNodeWarning({ lts: 'Jod' }, 'v22.12.0')).toBeNull();
    expect(unsupportedNodeWarning({ lts: 'Krypton' }, 'v24.21.0')).toBeNull();
  });

  it("explains the engine's warning on Node.js 20 (past its end of life) and on releases that are not LTS", () => {
    expect(unsupportedNodeWarning({ lts: 'Iron' }, 'v20.19.0')).toMatch(
      /v20\.19\.0.*Node\.js 24 LTS.*end of life on 2026-04-30/,
    );
    expect(unsupportedNodeWarning({}, 'v25.1.0')).toMatch(
      /v25\.1\.0 is not a Node\.js the OpenID provider engine supports/,
    );
  });
});
