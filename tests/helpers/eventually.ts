/**
 * Waiting for what the service finishes after it answered (views written, renditions made, a
 * schedule or a purge run, an index built or repaired): one polling loop for every test.
 */

const pause = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/**
 * Reads again, every `everyMs`, until `done` holds of what it read or `withinMs` has passed, and
 * gives what it read last. The test asserts on that value, so a deadline that passes fails in the
 * test's own `expect`, showing what was seen last.
 */
export async function eventually<T>(
  read: () => Promise<T> | T,
  done: (value: T) => boolean,
  { withinMs, everyMs = 250 }: { withinMs: number; everyMs?: number },
): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() >= deadline) return value;
    await pause(everyMs);
  }
}

/** Waits until `check` holds, asking every 100 ms; fails naming `what` after `withinMs`. Returns the milliseconds it took. */
export async function waitUntil(check: () => Promise<boolean>, withinMs: number, what: string): Promise<number> {
  const started = Date.now();
  if (!(await eventually(check, (held) => held, { withinMs, everyMs: 100 }))) throw new Error(`${what}: not seen within ${withinMs} ms`);
  return Date.now() - started;
}
