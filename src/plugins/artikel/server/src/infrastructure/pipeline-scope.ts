import { AsyncLocalStorage } from 'node:async_hooks';

const scope = new AsyncLocalStorage<true>();

/** Runs a write of the pipeline so that database lifecycles it fires can tell it is one (see register.ts). */
export function inPipeline<T>(work: () => Promise<T>): Promise<T> {
  return scope.run(true, work);
}

/** Whether the current database write runs inside this plugin's document middleware pipeline. */
export function insidePipeline(): boolean {
  return scope.getStore() === true;
}
