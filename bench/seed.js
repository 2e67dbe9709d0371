// @ts-check
'use strict';

// Fast benchmark data: Strapi creates its own schema and the categories once, then the articles go
// straight into Strapi's tables, thousands per transaction: with better-sqlite3 into a file under
// bench/.data/, or with pg into the PostgreSQL database the DATABASE_* variables name (--store
// postgres; bench/run.js starts a throwaway cluster for that). Going through the Document Service
// would take minutes per 10,000 articles.
//
//   node bench/seed.js [--articles 10000] [--force]
//   eval "$(bash scripts/postgres-cluster.sh start DIR)" && node bench/seed.js --store postgres [--articles 10000]

const fs = require('node:fs');
const path = require('node:path');
const cliProgress = require('cli-progress');
const { parseArgs } = require('./lib/args');
const { createArticleGenerator } = require('./lib/article-generator');
const { checkLayout, prepareInserts } = require('./lib/seed-layout');
const postgresSeed = require('./lib/seed-postgres');
const { APP_DIR, DATA_DIR, serverEnv } = require('./lib/server-env');
const { STORES, describeStore, postgresStore, sqliteStore } = require('./lib/store');
const { CATEGORIES } = require('./lib/vocabulary');

// Bump when the generated data changes, so an older seeded file is not mistaken for the new one.
const SEED_FORMAT = 3;
const ARTICLES_PER_TRANSACTION = 1000;

function seededFiles(articles) {
  const base = path.join(DATA_DIR, `articles-${articles}-v${SEED_FORMAT}`);
  return { database: `${base}.db`, info: `${base}.json` };
}

/** The info file is written last, so its presence means the database is complete. */
function readSeedInfo(articles) {
  const files = seededFiles(articles);
  if (!fs.existsSync(files.database) || !fs.existsSync(files.info)) return null;
  return { ...JSON.parse(fs.readFileSync(files.info, 'utf8')), database: files.database };
}

function removeDatabase(file) {
  for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(`${file}${suffix}`, { force: true });
}

/** Boots the built app once on an empty store, so every table and index is Strapi's own. */
async function createSchema(store) {
  const distDir = path.join(APP_DIR, 'dist');
  if (!fs.existsSync(path.join(distDir, 'src', 'plugins', 'artikel', 'server', 'src', 'index.js'))) {
    throw new Error('No build in dist/: run `npm run build` first (bench/run.js does unless --skip-build).');
  }
  Object.assign(process.env, serverEnv({ store }));
  const { createStrapi } = require('@strapi/strapi');
  const strapi = await createStrapi({ appDir: APP_DIR, distDir }).load();
  try {
    // Categories through the Document Service: few, and then exactly as Strapi writes them.
    for (const category of CATEGORIES) {
      await strapi.documents('api::category.category').create({ data: { name: category.name, slug: category.slug } });
    }
  } finally {
    await strapi.destroy();
  }
}

function progressBar(total) {
  const bar = new cliProgress.SingleBar(
    {
      format: 'Seeding  |{bar}| {value}/{total} articles | {duration_formatted} elapsed, ~{eta_formatted} left',
      noTTYOutput: true,
      notTTYSchedule: 3000,
      etaBuffer: 20,
      stream: process.stdout,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0);
  return bar;
}

async function insertArticles(databaseFile, total) {
  const Database = require('better-sqlite3');
  const db = new Database(databaseFile);
  try {
    checkLayout(db);
    // The file is a temporary one until it is complete, so durability during the load is useless.
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -262144');
    const categories = CATEGORIES.map(
      (category) =>
        /** @type {{ id: number, locale: string } | undefined} */ (
          db.prepare('SELECT id, locale FROM categories WHERE slug = ?').get(category.slug)
        ),
    );
    if (categories.some((row) => row === undefined)) throw new Error('The categories created through Strapi are missing');
    const existing = /** @type {{ n: number }} */ (db.prepare('SELECT count(*) AS n FROM articles').get()).n;
    if (existing !== 0) throw new Error(`Expected an empty articles table, found ${existing} rows`);

    const generator = createArticleGenerator();
    const insert = prepareInserts(db);
    let published = 0;
    const insertBatch = db.transaction((from, to) => {
      for (let index = from; index < to; index += 1) {
        const article = generator.article(index, total);
        const category = /** @type {{ id: number, locale: string }} */ (categories[article.categoryIndex]);
        insert(article, category.id, category.locale);
        if (article.publishedAt !== null) published += 1;
      }
    });

    const bar = progressBar(total);
    for (let from = 0; from < total; from += ARTICLES_PER_TRANSACTION) {
      const to = Math.min(total, from + ARTICLES_PER_TRANSACTION);
      insertBatch(from, to);
      bar.update(to);
      // Lets the bar redraw; the inserts themselves are synchronous.
      await new Promise((resolve) => setImmediate(resolve));
    }
    bar.stop();

    process.stdout.write('Analyzing ...\n');
    // Only the tables filled here: statistics taken while the plugin's index tables are still empty
    // mislead SQLite's planner when the app fills them (the search index build took 5 times longer).
    db.exec('ANALYZE articles; ANALYZE articles_category_lnk');
    // The app runs in WAL mode; setting it now saves the first server start a journal switch.
    db.pragma('journal_mode = WAL');
    return {
      published,
      drafts: total - published,
      rows: /** @type {{ n: number }} */ (db.prepare('SELECT count(*) AS n FROM articles').get()).n,
    };
  } finally {
    db.close();
  }
}

async function seed({ articles, force = false }) {
  const files = seededFiles(articles);
  if (!force) {
    const info = readSeedInfo(articles);
    if (info) return { ...info, reused: true };
  }
  fs.mkdirSync(DATA_DIR, { recursive: true });
  const partial = `${files.database}.partial`;
  removeDatabase(partial);
  removeDatabase(files.database);
  fs.rmSync(files.info, { force: true });

  const started = Date.now();
  process.stdout.write(`Creating the Strapi schema in ${path.relative(process.cwd(), files.database)} ...\n`);
  await createSchema(sqliteStore(partial));
  const schemaSeconds = (Date.now() - started) / 1000;
  const counts = await insertArticles(partial, articles);
  fs.renameSync(partial, files.database);
  const info = {
    seedFormat: SEED_FORMAT,
    articles,
    ...counts,
    categories: CATEGORIES.length,
    schemaSeconds,
    seconds: (Date.now() - started) / 1000,
    bytes: fs.statSync(files.database).size,
    createdAt: new Date().toISOString(),
  };
  fs.writeFileSync(files.info, `${JSON.stringify(info, null, 2)}\n`);
  return { ...info, database: files.database, reused: false };
}

/**
 * The same articles into an empty PostgreSQL database. Never reused: the cluster is a throwaway
 * one, started for one run.
 */
async function seedPostgres({ articles, store }) {
  const started = Date.now();
  process.stdout.write(`Creating the Strapi schema in ${describeStore(store)} ...\n`);
  await createSchema(store);
  const schemaSeconds = (Date.now() - started) / 1000;
  const bar = progressBar(articles);
  const counts = await postgresSeed.insertArticles(store, articles, (done) => bar.update(done));
  bar.stop();
  return {
    seedFormat: SEED_FORMAT,
    articles,
    ...counts,
    categories: CATEGORIES.length,
    schemaSeconds,
    seconds: (Date.now() - started) / 1000,
    createdAt: new Date().toISOString(),
    store: 'postgres',
    reused: false,
  };
}

async function main() {
  const args = parseArgs(process.argv.slice(2), { articles: 10000, force: false, store: 'sqlite' });
  if (!STORES.includes(args.store)) throw new Error(`--store takes ${STORES.join(' or ')}`);
  const info =
    args.store === 'postgres'
      ? await seedPostgres({ articles: args.articles, store: postgresStore(process.env) })
      : await seed({ articles: args.articles, force: args.force });
  const size = `${(info.bytes / 1024 / 1024).toFixed(0)} MB`;
  process.stdout.write(
    info.reused
      ? `Reusing ${info.database} (${info.articles} articles, ${size}); --force seeds again.\n`
      : `Seeded ${info.articles} articles (${info.published} published, ${info.drafts} drafts, ${info.rows} rows) in ${info.seconds.toFixed(1)} s ` +
          `(schema and categories through Strapi ${info.schemaSeconds.toFixed(1)} s), ${size}.\n`,
  );
  // The process sends the result to bench/run.js when it started this one.
  if (process.send) process.send({ type: 'seeded', info });
}

if (require.main === module) {
  main().then(
    () => process.exit(0),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}

module.exports = { seed, seedPostgres, seededFiles, readSeedInfo, SEED_FORMAT };
