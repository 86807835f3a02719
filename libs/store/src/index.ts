export * from './store.port';
export * from './open-store';
export { MemoryDocumentStore } from './memory/memory-store';
export { SqliteDocumentStore } from './sqlite/sqlite-store';
export { InvalidQueryError } from './where';
export { moveOutOfSystemScope } from './system-scope-migration';
export { assignMissingModes, relocateRecordedModes } from './mode-migration';
export { preparePrivateDatabaseFile } from './sqlite/private-database-file';
export { checkpointInBackground } from './sqlite/wal-checkpointer';
