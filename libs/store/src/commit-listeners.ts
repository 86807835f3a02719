/** Listeners woken after a commit that added outbox messages (the relay). */
export class CommitListeners {
  private readonly listeners = new Set<() => void>();

  add(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** A listener that throws must not turn a committed transaction into a failed call. */
  notify(): void {
    for (const listener of this.listeners) {
      try {
        listener();
      } catch {
        // The relay also polls; a failing wake-up only delays publication.
      }
    }
  }
}
