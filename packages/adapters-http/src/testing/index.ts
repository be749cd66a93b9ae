export * from './recording-logger';
export * from './requests';
export * from './secrets';
export * from './test-app';
export * from './identity-providers';
export * from './openid-grants';
export * from './in-memory-openid-interactions';
