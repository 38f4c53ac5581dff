/**
 * One compression pass or history edit per session at a time, in this process
 * (across processes the compression save re-checks the history under the row lock).
 * Built once by the composition root and shared by compression and editing.
 */
export class SessionLocks {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(sessionId: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(sessionId) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    const tail = next.catch(() => undefined);
    this.tails.set(sessionId, tail);
    void tail.then(() => {
      if (this.tails.get(sessionId) === tail) this.tails.delete(sessionId);
    });
    return next;
  }

  /** Resolves once no pass is running or queued for the session. */
  async idle(sessionId: string): Promise<void> {
    for (let tail = this.tails.get(sessionId); tail; tail = this.tails.get(sessionId)) await tail;
  }
}
