export * from './postgres-test-database';
export * from './query-test-database';
export * from './sqlite-test-database';
export * from './audit-tampering';
export { startTestPgBouncer, type TestPgBouncer } from '../../../../scripts/pgbouncer';
export { startTcpRelay, type TcpRelay } from '../../../../scripts/tcp-relay';
