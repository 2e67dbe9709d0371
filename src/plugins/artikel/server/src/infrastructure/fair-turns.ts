/**
 * Turns at a scarce resource (the threads that read searches on SQLite, the connections that run
 * them on PostgreSQL), shared fairly between clients: each client's work waits in a line of its
 * own, and a free slot goes to the waiting client served longest ago, one piece of work at a time,
 * so a client that sends many searches waits behind its own and never makes another wait behind
 * them. A client with `perClient` pieces already waiting is refused at once (the caller answers 429).
 */
export class FairTurns {
  private running = 0;

  private ticks = 0;

  /** Each client's waiting work. */
  private readonly lines = new Map<string, Array<() => void>>();

  /** Per client with work waiting or running: when it was last served, and how much of its work runs. */
  private readonly clients = new Map<string, { servedAt: number; running: number }>();

  constructor(
    private readonly slots: number,
    private readonly perClient: number,
  ) {}

  /** How many pieces of work wait, in all. */
  get waiting(): number {
    let count = 0;
    for (const line of this.lines.values()) count += line.length;
    return count;
  }

  /** Runs `work` in the client's turn; null when the client already has `perClient` pieces waiting. */
  run<T>(client: string, work: () => Promise<T>): Promise<T> | null {
    if (this.running < this.slots && this.lines.size === 0) return this.start(client, work);
    const line = this.lines.get(client) ?? [];
    if (line.length >= this.perClient) return null;
    if (!this.clients.has(client)) this.clients.set(client, { servedAt: 0, running: 0 });
    const queued = new Promise<T>((resolve, reject) => {
      line.push(() => {
        this.start(client, work).then(resolve, reject);
      });
    });
    this.lines.set(client, line);
    this.next();
    return queued;
  }

  private start<T>(client: string, work: () => Promise<T>): Promise<T> {
    this.running += 1;
    this.ticks += 1;
    const state = this.clients.get(client) ?? { servedAt: 0, running: 0 };
    state.servedAt = this.ticks;
    state.running += 1;
    this.clients.set(client, state);
    return work().finally(() => {
      this.running -= 1;
      state.running -= 1;
      if (state.running === 0 && !this.lines.has(client)) this.clients.delete(client);
      this.next();
    });
  }

  /** Gives a free slot to the waiting client served longest ago. */
  private next(): void {
    while (this.running < this.slots && this.lines.size > 0) {
      let chosen: string | null = null;
      let oldest = Number.POSITIVE_INFINITY;
      for (const client of this.lines.keys()) {
        const servedAt = this.clients.get(client)?.servedAt ?? 0;
        if (servedAt < oldest) {
          oldest = servedAt;
          chosen = client;
        }
      }
      if (chosen === null) return;
      const line = this.lines.get(chosen) ?? [];
      const begin = line.shift();
      if (line.length === 0) this.lines.delete(chosen);
      begin?.();
    }
  }
}
