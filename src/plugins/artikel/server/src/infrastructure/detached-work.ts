import { AsyncResource } from 'node:async_hooks';

/**
 * Runs work a request starts but does not wait for (a background loop, a timer) outside that
 * request's async context: in the context of the moment this module loaded (Strapi's start,
 * outside any request), to which it is bound. Everything started in a context inherits it, so a
 * loop started by an upload would otherwise keep recording the objects it stores into that
 * upload's scope (which deletes them if the upload fails, and waits for them before answering),
 * and would find the request's memo, write origin and transaction for as long as it runs.
 */
export const detached: <T>(work: () => T) => T = AsyncResource.bind(<T>(work: () => T): T => work());
