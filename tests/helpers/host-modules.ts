/**
 * Node's own `require` and the worker's own `process`, past Jest's sandbox, as
 * tests/helpers/host-environment.js hands them to each test file: what `hostRequire` loads is
 * loaded once per Jest worker (see that file for why, and for what each file still gets fresh).
 * A file tagged `@timing` gets Jest's own `require` and `process` (see that file for why).
 */
interface Host {
  require: NodeJS.Require;
  process: NodeJS.Process;
}

const host: Host = (globalThis as typeof globalThis & { artikelHost?: Host }).artikelHost ?? { require, process };

export const hostRequire = host.require;

type Listener = (...args: unknown[]) => void;

/**
 * Runs `work` (a Strapi's `destroy()`, which ends with `process.removeAllListeners()`), then puts
 * back the worker process's listeners that were there before `since` was taken: Jest's worker
 * receives its next test file through one of them.
 */
export async function keepingWorkerListeners(since: Map<string | symbol, Listener[]>, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } finally {
    for (const [event, listeners] of since) {
      const present = new Set(host.process.rawListeners(event));
      for (const listener of listeners) if (!present.has(listener)) host.process.on(event, listener);
    }
  }
}

/** The worker process's listeners now, for `keepingWorkerListeners`. */
export function workerListeners(): Map<string | symbol, Listener[]> {
  return new Map(host.process.eventNames().map((event) => [event, host.process.rawListeners(event) as Listener[]]));
}
