export * from './postgres-test-database';
export * from './query-test-database';
export * from './sqlite-test-database';
export * from './audit-tampering';
export { startTestPgBouncer, type TestPgBouncer } from '../../../../scripts/pgbouncer';
