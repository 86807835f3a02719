/** SIGINT or SIGTERM stops the system once (its processes drain), then the launcher exits 0. */
export function stopOnSignals(system: { stop(): Promise<void> }): void {
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    await system.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
}
