export { createApp, type NotifierApp } from './app';
export * from './config';
