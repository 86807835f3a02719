import { Worker } from 'node:worker_threads';

/**
 * WAL checkpoints on a thread of their own. SQLite runs a checkpoint (copying the WAL's pages back into
 * the database file, with its fsyncs) inside the commit that crosses wal_autocheckpoint (1000 pages), on
 * the thread that commits: the services' one main thread. A second connection per database file, on this
 * thread, checkpoints PASSIVE every INTERVAL_MS instead (it never waits for readers or writers), so the WAL
 * stays below the automatic threshold and the commits find nothing left to copy. The automatic
 * checkpoint stays on as the backstop should this thread fall behind or stop.
 *
 * One thread serves every file of the process. Its code is plain JavaScript evaluated in the worker, so it
 * runs alike under tsx, jest and the esbuild bundle (a worker does not inherit a loader).
 */
const INTERVAL_MS = 100;
/** How long a release waits for the thread to close its connection (it finishes a checkpoint in progress first). */
const CLOSE_WAIT_MS = 2_000;

const THREAD_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const open = new Map();
const checkpointAll = () => {
  for (const db of open.values()) {
    try { db.pragma('wal_checkpoint(PASSIVE)'); } catch { /* busy or gone: the next round or the automatic checkpoint does it */ }
  }
};
const timer = setInterval(checkpointAll, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message.open !== undefined) {
    try { open.set(message.open, new Database(message.open, { fileMustExist: true, timeout: 1000 })); } catch { /* left to the automatic checkpoint */ }
  } else if (message.close !== undefined) {
    open.get(message.close)?.close();
    open.delete(message.close);
    Atomics.store(message.closed, 0, 1);
    Atomics.notify(message.closed, 0);
  } else if (message.stop) {
    clearInterval(timer);
    for (const db of open.values()) db.close();
    parentPort.close();
  }
});
`;

let thread: Worker | null = null;
const registrations = new Map<string, number>();

/** Checkpoints `file` (a WAL-mode database) in the background until the returned function is called. */
export function checkpointInBackground(file: string): () => void {
  if (!thread) {
    thread = new Worker(THREAD_CODE, {
      eval: true,
      name: 'vaultline-wal-checkpointer',
      workerData: { driver: require.resolve('better-sqlite3'), intervalMs: INTERVAL_MS },
    });
    thread.unref();
  }
  const count = registrations.get(file) ?? 0;
  registrations.set(file, count + 1);
  if (count === 0) thread.postMessage({ open: file });
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (registrations.get(file) ?? 1) - 1;
    if (left > 0) return void registrations.set(file, left);
    registrations.delete(file);
    // The owner closes its connection right after this: ours must be closed first, so that the owner's
    // is the last one, which checkpoints and removes the -wal and -shm files as it did without this thread.
    const closed = new Int32Array(new SharedArrayBuffer(4));
    thread?.postMessage({ close: file, closed });
    Atomics.wait(closed, 0, 0, CLOSE_WAIT_MS);
    if (registrations.size === 0) {
      thread?.postMessage({ stop: true });
      thread = null;
    }
  };
}
