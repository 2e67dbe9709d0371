import { AsyncResource } from 'node:async_hooks';

// Bound when the plugin's code loads (Strapi's start, outside any request): work run through it
// finds the async context of that moment, not its caller's.
const inStartContext = AsyncResource.bind(<T>(work: () => T): T => work());

/**
 * Runs work a request starts but does not wait for (a background loop, a timer) outside that
 * request's async context. Everything started in a context inherits it, so a loop started by an
 * upload would otherwise keep recording the objects it stores into that upload's scope (which
 * deletes them if the upload fails, and waits for them before answering), and would find the
 * request's memo, write origin and transaction for as long as it runs.
 */
export function detached<T>(work: () => T): T {
  return inStartContext(work);
}
