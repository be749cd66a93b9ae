export * from './postgres-test-database';
export * from './sqlite-test-database';
