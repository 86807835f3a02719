export { createApp } from './app';
export * from './config';
