import type { Core } from '@strapi/strapi';
import { isSqlite } from './database-dialect';

/**
 * The longest the statements of one turn of the event loop may run before the next statement waits
 * for the loop: the contract's "a few milliseconds" for any request, writes of long texts included.
 */
const TURN_BUDGET_MS = 10;

/** When the event loop last turned, as far as a statement has looked (see watchTurn). */
let turnStartedAt = performance.now();
let turnWatched = false;

/** Notes when the loop next turns: the first setImmediate after the current work runs then. */
function watchTurn(): void {
  if (turnWatched) return;
  turnWatched = true;
  setImmediate(() => {
    turnWatched = false;
    turnStartedAt = performance.now();
  });
}

/** Waits for the event loop when this turn's statements have run past the budget. */
async function yieldWhenHeld(): Promise<void> {
  watchTurn();
  if (performance.now() - turnStartedAt < TURN_BUDGET_MS) return;
  await new Promise<void>((resolve) => setImmediate(resolve));
}

type RunQuery = (this: unknown, connection: unknown, query: unknown) => Promise<unknown>;
/**
 * Marks knex's client class as set, on the class itself: knex outlives this module where a process
 * loads the app more than once (a Strapi destroyed and created again, the test workers), and a
 * second wrapper would wait for the loop twice.
 */
const YIELDING = Symbol.for('artikel.statements-yield');

/**
 * better-sqlite3 runs each statement synchronously and knex only wraps it in a promise that is
 * already settled, so the statements of a write (a Document Service create and publish, its
 * indexes, its revision, its read-back: about 80) run in one turn of the event loop: 90 ms for an
 * article of 300 KB (its trigram index alone 11 ms), during which no other request is answered.
 * Each statement's answer now waits for the loop once the turn has run past TURN_BUDGET_MS, so a
 * turn ends within about one statement of the budget. Set on knex's better-sqlite3 client class,
 * which every connection and transaction of the app's knex instances runs its statements through
 * (a transaction's client is made from that class, not from the instance).
 */
export function letStatementsYield(strapi: Core.Strapi): void {
  if (!isSqlite(strapi)) return;
  const client = Object.getPrototypeOf(strapi.db.connection.client) as { _query?: RunQuery; [YIELDING]?: true };
  if (client[YIELDING] === true || typeof client._query !== 'function') return;
  const runQuery = client._query;
  client._query = async function (this: unknown, connection: unknown, query: unknown) {
    const answered = await runQuery.call(this, connection, query);
    await yieldWhenHeld();
    return answered;
  };
  client[YIELDING] = true;
}
