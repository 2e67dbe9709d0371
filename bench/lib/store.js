// @ts-check
'use strict';

// Where the benchmark's data lives: a seeded SQLite file, or a database on a throwaway PostgreSQL
// cluster. What the rest of bench/ needs to know about the difference is here: the environment a
// Strapi gets to reach it, and the few reads the run itself makes (sampled slugs, the search index).

const path = require('node:path');
const { tableExists } = require('./raw-queries');

const STORES = ['sqlite', 'postgres'];

// The settings config/database.ts reads for either client; every one not set for the chosen store
// is removed from a server's environment, so a developer's shell cannot point a server elsewhere
// (DATABASE_URL, for one, would take precedence over the host and port on PostgreSQL).
const DATABASE_SETTINGS = [
  'DATABASE_CLIENT',
  'DATABASE_FILENAME',
  'DATABASE_URL',
  'DATABASE_HOST',
  'DATABASE_PORT',
  'DATABASE_NAME',
  'DATABASE_USERNAME',
  'DATABASE_PASSWORD',
  'DATABASE_SSL',
  'DATABASE_SCHEMA',
];

const sqliteStore = (file) => ({ kind: 'sqlite', file: path.resolve(file) });

/** A PostgreSQL store from the DATABASE_* variables scripts/postgres-cluster.sh prints. */
function postgresStore(env) {
  const missing = ['DATABASE_HOST', 'DATABASE_PORT', 'DATABASE_NAME', 'DATABASE_USERNAME', 'DATABASE_PASSWORD'].filter(
    (name) => !env[name],
  );
  if (missing.length > 0) throw new Error(`PostgreSQL needs ${missing.join(', ')} (as printed by scripts/postgres-cluster.sh start DIR)`);
  return {
    kind: 'postgres',
    connection: {
      host: env.DATABASE_HOST,
      port: Number(env.DATABASE_PORT),
      database: env.DATABASE_NAME,
      user: env.DATABASE_USERNAME,
      password: env.DATABASE_PASSWORD,
    },
  };
}

/** The variables config/database.ts reads to reach this store. */
function databaseEnv(store) {
  if (store.kind === 'sqlite') return { DATABASE_CLIENT: 'sqlite', DATABASE_FILENAME: store.file };
  const { host, port, database, user, password } = store.connection;
  return {
    DATABASE_CLIENT: 'postgres',
    DATABASE_HOST: host,
    DATABASE_PORT: String(port),
    DATABASE_NAME: database,
    DATABASE_USERNAME: user,
    DATABASE_PASSWORD: password,
    DATABASE_SSL: 'false',
  };
}

/** `env` with every database setting replaced by the store's. */
function withDatabaseEnv(env, store) {
  const result = { ...env };
  for (const name of DATABASE_SETTINGS) delete result[name];
  return { ...result, ...databaseEnv(store) };
}

function describeStore(store) {
  return store.kind === 'sqlite'
    ? `SQLite ${store.file}`
    : `PostgreSQL ${store.connection.host}:${store.connection.port}/${store.connection.database}`;
}

/** Runs fn(client) on one connection to the store's PostgreSQL database, closed afterwards. */
async function withPostgres(store, fn) {
  const { Client } = require('pg');
  const client = new Client(store.connection);
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

function withSqlite(store, fn) {
  const Database = require('better-sqlite3');
  const db = new Database(store.file, { readonly: true, fileMustExist: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/**
 * Up to `limit` slugs of published articles, evenly spread over them in creation order (the order of
 * the rows' ids, which both seeders write in generator order, so both stores give the same slugs).
 */
async function publishedSlugs(store, limit) {
  if (store.kind === 'sqlite') {
    return withSqlite(store, (db) => {
      const published = db.prepare('SELECT count(*) FROM articles WHERE published_at IS NOT NULL').pluck().get();
      const step = Math.max(1, Math.floor(published / limit));
      return db
        .prepare(
          'SELECT slug FROM (SELECT slug, row_number() OVER (ORDER BY id) AS n FROM articles WHERE published_at IS NOT NULL) WHERE (n - 1) % ? = 0 LIMIT ?',
        )
        .pluck()
        .all(step, limit);
    });
  }
  return withPostgres(store, async (client) => {
    const published = Number((await client.query('SELECT count(*) AS n FROM articles WHERE published_at IS NOT NULL')).rows[0].n);
    const step = Math.max(1, Math.floor(published / limit));
    const { rows } = await client.query(
      'SELECT slug FROM (SELECT slug, row_number() OVER (ORDER BY id) AS n FROM articles WHERE published_at IS NOT NULL) AS numbered WHERE (n - 1) % $1 = 0 ORDER BY n LIMIT $2',
      [step, limit],
    );
    return rows.map((row) => row.slug);
  });
}

/**
 * Whether the plugin's search index is in the store (it creates it at its first start): the FTS5
 * table on SQLite, the word index (the GIN index of each article's words) on PostgreSQL.
 */
async function hasSearchIndex(store) {
  if (store.kind === 'sqlite') {
    return withSqlite(store, (db) => tableExists(db, 'artikel_search'));
  }
  return withPostgres(
    store,
    async (client) => (await client.query("SELECT 1 FROM pg_indexes WHERE indexname = 'artikel_search_docs_terms'")).rowCount > 0,
  );
}

/** Published articles and the plugin's search entries (0 before its first start): the index is complete when they are equal. */
async function indexCounts(store) {
  const published = 'SELECT count(*) AS n FROM articles WHERE published_at IS NOT NULL';
  const indexed = 'SELECT count(*) AS n FROM artikel_search_docs';
  if (store.kind === 'sqlite') {
    // Entries whose words the app still adds to the search vocabulary (an index from before it, a
    // start's build, which adds them at its end): their searches take the slower way until then.
    const withoutWords = 'SELECT COALESCE(sum(through_id - after_id), 0) AS n FROM artikel_search_vocabulary_backfill';
    // The parts (segments) of the word index the app has yet to merge into one after a build (see
    // SearchIndex.compact): each lookup seeks in every part, so a measurement before would time that.
    const parts = 'SELECT count(DISTINCT segid) AS n FROM artikel_search_words_idx';
    // Entries a build added to the word index that the app has yet to add to the trigram index
    // (see SearchIndex.fillTrigrams): the searches only it answers read the articles until then.
    const withoutTrigrams = 'SELECT COALESCE(sum(through_id - after_id), 0) AS n FROM artikel_search_trigram_backfill';
    return withSqlite(store, (db) => ({
      published: db.prepare(published).get().n,
      indexed: tableExists(db, 'artikel_search_docs') ? db.prepare(indexed).get().n : 0,
      withoutWords: tableExists(db, 'artikel_search_vocabulary_backfill') ? db.prepare(withoutWords).get().n : 0,
      unmergedParts: tableExists(db, 'artikel_search_words_idx') ? Math.max(0, db.prepare(parts).get().n - 1) : 0,
      withoutTrigrams: tableExists(db, 'artikel_search_trigram_backfill') ? db.prepare(withoutTrigrams).get().n : 0,
    }));
  }
  return withPostgres(store, async (client) => {
    const hasIndex = (await client.query("SELECT 1 FROM pg_tables WHERE tablename = 'artikel_search_docs'")).rowCount > 0;
    return {
      published: Number((await client.query(published)).rows[0].n),
      indexed: hasIndex ? Number((await client.query(indexed)).rows[0].n) : 0,
    };
  });
}

/**
 * Waits until the app has indexed every published article: it answers at once on a new file and
 * builds its index in the background, and a measurement during the build would time its scans.
 * @param {(counts: any) => void} [onWaiting]
 */
async function untilIndexed(store, timeoutMs, onWaiting = () => {}) {
  const started = Date.now();
  let nextNotice = started + 30000;
  for (;;) {
    const counts = await indexCounts(store);
    if (counts.indexed >= counts.published && !counts.withoutWords && !counts.unmergedParts && !counts.withoutTrigrams) {
      // PostgreSQL: the rows the seeder and the build wrote are vacuumed now, as autovacuum would
      // a minute or so later, so that the measurement times the steady state: until then an index
      // scan visits each row it finds (the rows are not yet known to be visible to all), and a
      // search at 10,000 articles took PostgreSQL 5.5 instead of 3.0 to 3.4 ms of CPU.
      if (store.kind !== 'sqlite') await withPostgres(store, (client) => client.query('VACUUM ANALYZE'));
      return;
    }
    if (Date.now() - started > timeoutMs)
      throw new Error(`the index holds ${counts.indexed} of ${counts.published} published articles after ${timeoutMs / 1000} s`);
    if (Date.now() >= nextNotice) {
      onWaiting(counts);
      nextNotice += 30000;
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

module.exports = {
  STORES,
  databaseEnv,
  describeStore,
  hasSearchIndex,
  indexCounts,
  postgresStore,
  publishedSlugs,
  sqliteStore,
  untilIndexed,
  withDatabaseEnv,
  withPostgres,
};
