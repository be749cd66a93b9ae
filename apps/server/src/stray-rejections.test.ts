import { describe, expect, it } from 'vitest';
import type { Logger } from '@uas/domain';
import { strayRejectionListener } from './stray-rejections';

describe('a rejected promise nothing awaited', () => {
  const logged: string[] = [];
  const log = (msg: string, fields?: Record<string, unknown>) => void logged.push(`${msg} ${JSON.stringify(fields)}`);
  const logger: Logger = { debug: log, info: log, warn: log, error: log };
  const listener = strayRejectionListener(logger);

  it('is logged and survived when a connection failed (the database or the pooler away)', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6432'), { code: 'ECONNREFUSED' });
    expect(() => listener(refused)).not.toThrow();
    expect(() =>
      listener(Object.assign(new Error('write CONNECTION_CLOSED'), { code: 'CONNECTION_CLOSED' })),
    ).not.toThrow();
    expect(logged[0]).toContain('"code":"ECONNREFUSED"');
  });

  it('is thrown again, ending the process, when it is anything else', () => {
    const fault = new TypeError("Cannot read properties of undefined (reading 'id')");
    expect(() => listener(fault)).toThrow(fault);
    const statement = Object.assign(new Error('duplicate key'), { code: '23505' });
    expect(() => listener(statement)).toThrow(statement);
  });
});
