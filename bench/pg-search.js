'use strict';

// node bench/pg-search.js [--articles N]: the search on PostgreSQL alone, without HTTP. Fills a
// throwaway cluster with the benchmark's generated articles, builds the plugin's search rows
// (title, content and tags lower-cased, with a pg_trgm GIN index) and times, per word, the indexed
// lookup against the LIKE scan over the articles that it replaces, counting the same articles.
// Needs `npm run build` (it uses the plugin's own search text) and root or the postgres user.
const fs = require('node:fs');
const path = require('node:path');
const { Client } = require('pg');
const cliProgress = require('cli-progress');
const { createArticleGenerator } = require('./lib/article-generator');
const { startCluster, stopCluster } = require('./lib/pg-cluster');

const ROOT = path.resolve(__dirname, '..');
const WORDS = 25;
const BATCH = 500;

function searchTextFunction() {
  const compiled = path.join(ROOT, 'dist', 'src', 'plugins', 'artikel', 'server', 'src', 'utils', 'search-words.js');
  if (!fs.existsSync(compiled)) throw new Error('Run `npm run build` first: the benchmark uses the plugin\'s compiled search text.');
  return require(compiled).searchText;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

async function timedCount(client, sql, values) {
  const start = process.hrtime.bigint();
  const { rows } = await client.query(sql, values);
  return { count: Number(rows[0].count), ms: Number(process.hrtime.bigint() - start) / 1e6 };
}

const escapeLike = (word) => word.replace(/[\\%_]/g, (character) => `\\${character}`);

async function main() {
  const articlesFlag = process.argv.indexOf('--articles');
  const total = articlesFlag === -1 ? 100_000 : Number(process.argv[articlesFlag + 1]);
  if (!Number.isSafeInteger(total) || total < 1) throw new Error('--articles takes a whole number');
  const searchText = searchTextFunction();

  const { dir: clusterDir, env } = startCluster();
  const client = new Client({ host: env.DATABASE_HOST, port: Number(env.DATABASE_PORT), user: env.DATABASE_USERNAME, password: env.DATABASE_PASSWORD, database: env.DATABASE_NAME });
  try {
    await client.connect();
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    await client.query('CREATE TABLE articles (id serial PRIMARY KEY, document_id varchar(255), title text, content text, tags text, published_at timestamptz)');
    await client.query('CREATE TABLE artikel_search_docs (document_id varchar(255) PRIMARY KEY, body text NOT NULL)');

    const generator = createArticleGenerator();
    const bar = new cliProgress.SingleBar({ format: 'seeding {bar} {value}/{total} articles' }, cliProgress.Presets.shades_classic);
    bar.start(total, 0);
    for (let done = 0; done < total; done += BATCH) {
      const batch = Array.from({ length: Math.min(BATCH, total - done) }, (_, offset) => generator.article(done + offset, total));
      const articleValues = [];
      const docValues = [];
      const articleRows = batch.map((article, index) => {
        articleValues.push(article.documentId, article.title, article.content, article.tags, article.publishedAt === null ? null : new Date(article.publishedAt));
        return `($${index * 5 + 1}, $${index * 5 + 2}, $${index * 5 + 3}, $${index * 5 + 4}, $${index * 5 + 5})`;
      });
      await client.query(`INSERT INTO articles (document_id, title, content, tags, published_at) VALUES ${articleRows.join(', ')}`, articleValues);
      const published = batch.filter((article) => article.publishedAt !== null);
      const docRows = published.map((article, index) => {
        docValues.push(article.documentId, searchText(article));
        return `($${index * 2 + 1}, $${index * 2 + 2})`;
      });
      if (docRows.length > 0) await client.query(`INSERT INTO artikel_search_docs (document_id, body) VALUES ${docRows.join(', ')}`, docValues);
      bar.update(done + batch.length);
    }
    bar.stop();
    const indexStart = Date.now();
    await client.query('CREATE INDEX artikel_search_docs_body_trgm ON artikel_search_docs USING gin (body gin_trgm_ops)');
    const indexSeconds = (Date.now() - indexStart) / 1000;
    await client.query('ANALYZE');

    const words = generator.realWords.filter((word) => word.length >= 4).slice(0, WORDS);
    const scan = 'SELECT count(*) FROM articles WHERE published_at IS NOT NULL AND (LOWER(title) LIKE $1 OR LOWER(content) LIKE $1 OR LOWER(tags) LIKE $1)';
    const indexed = "SELECT count(*) FROM articles a WHERE a.published_at IS NOT NULL AND a.document_id IN (SELECT document_id FROM artikel_search_docs WHERE body LIKE $1 ESCAPE '\\')";
    const pattern = (word) => [`%${escapeLike(word.toLowerCase())}%`];
    // An untimed pass brings the pages into the cache, as in the SQLite figure.
    for (const word of words) {
      await client.query(scan, pattern(word));
      await client.query(indexed, pattern(word));
    }
    const perWord = [];
    for (const word of words) {
      const like = await timedCount(client, scan, pattern(word));
      const trigram = await timedCount(client, indexed, pattern(word));
      perWord.push({ word, likeMs: like.ms, trigramMs: trigram.ms, likeCount: like.count, trigramCount: trigram.count });
    }
    const likeMedianMs = median(perWord.map((row) => row.likeMs));
    const trigramMedianMs = median(perWord.map((row) => row.trigramMs));
    const result = {
      articles: total,
      postgres: (await client.query('SHOW server_version')).rows[0].server_version,
      trigramIndexBuildSeconds: indexSeconds,
      words: perWord.length,
      likeMedianMs,
      trigramMedianMs,
      ratio: likeMedianMs / trigramMedianMs,
      countMismatches: perWord.filter((row) => row.likeCount !== row.trigramCount).map((row) => `${row.word}: LIKE ${row.likeCount}, trigram ${row.trigramCount}`),
      perWord,
    };
    fs.mkdirSync(path.join(__dirname, 'results'), { recursive: true });
    fs.writeFileSync(path.join(__dirname, 'results', `pg-search-${total}.json`), `${JSON.stringify(result, null, 2)}\n`);
    console.log(
      `PostgreSQL ${result.postgres}, ${total} articles: LIKE scan median ${likeMedianMs.toFixed(1)} ms, pg_trgm median ${trigramMedianMs.toFixed(2)} ms, ` +
        `${result.ratio.toFixed(1)}x faster over ${perWord.length} words; index built in ${indexSeconds.toFixed(0)} s; count mismatches: ${result.countMismatches.length}`,
    );
  } finally {
    await client.end().catch(() => undefined);
    stopCluster(clusterDir);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
