export * from './scopes';
export * from './internal-token';
export * from './api-key';
