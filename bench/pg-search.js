// @ts-check
'use strict';

// node bench/pg-search.js [--articles N]: the search on PostgreSQL alone, without HTTP. Fills a
// throwaway cluster with the benchmark's generated articles and times, per word, the LIKE scan over
// the articles against the plugin's word index as it was until 2026-11-29 (each published article's
// distinct lower-cased words in a GIN-indexed array, found through a pg_trgm index over the
// dictionary of all words; the plugin still counts through that array, and keeps the words as a
// tsvector too, which a page's newest-first walk tests faster: see docs/design.md) and, for
// comparison, a pg_trgm index over each article's whole lower-cased text, which must re-read every
// candidate's text. All three must count the same articles. The words are the ones bench/run.js
// times on SQLite. Needs `npm run build` (it uses the plugin's own word splitting) and root or the
// postgres user.
const fs = require('node:fs');
const path = require('node:path');
const { Client } = require('pg');
const cliProgress = require('cli-progress');
const { createArticleGenerator } = require('./lib/article-generator');
const { searchWordSample, SEARCH_SQL_WORDS } = require('./lib/endpoints');
const { startCluster, stopCluster } = require('./lib/pg-cluster');
const { median } = require('./lib/median');
const { searchWords } = require('./lib/plugin');

const BATCH = 500;

const wholeText = (article) => [article.title, article.content, article.tags].map((text) => (text ?? '').toLowerCase()).join('\n');

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
  const { searchTerms } = searchWords();

  const { dir: clusterDir, env } = startCluster();
  const client = new Client({
    host: env.DATABASE_HOST,
    port: Number(env.DATABASE_PORT),
    user: env.DATABASE_USERNAME,
    password: env.DATABASE_PASSWORD,
    database: env.DATABASE_NAME,
  });
  try {
    await client.connect();
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    await client.query(
      'CREATE TABLE articles (id serial PRIMARY KEY, document_id varchar(255), title text, content text, tags text, published_at timestamptz)',
    );
    await client.query('CREATE TABLE whole_texts (document_id varchar(255) PRIMARY KEY, body text NOT NULL)');
    await client.query(
      'CREATE TABLE artikel_search_docs (document_id varchar(255) PRIMARY KEY, article_id integer, terms text[] NOT NULL)',
    );
    await client.query('CREATE TABLE artikel_search_terms (term text PRIMARY KEY)');

    const generator = createArticleGenerator();
    const bar = new cliProgress.SingleBar({ format: 'seeding {bar} {value}/{total} articles' }, cliProgress.Presets.shades_classic);
    bar.start(total, 0);
    for (let done = 0; done < total; done += BATCH) {
      const batch = Array.from({ length: Math.min(BATCH, total - done) }, (_, offset) => generator.article(done + offset, total));
      const articleValues = [];
      const docValues = [];
      const articleRows = batch.map((article, index) => {
        articleValues.push(
          article.documentId,
          article.title,
          article.content,
          article.tags,
          article.publishedAt === null ? null : new Date(article.publishedAt),
        );
        return `($${index * 5 + 1}, $${index * 5 + 2}, $${index * 5 + 3}, $${index * 5 + 4}, $${index * 5 + 5})`;
      });
      await client.query(
        `INSERT INTO articles (document_id, title, content, tags, published_at) VALUES ${articleRows.join(', ')}`,
        articleValues,
      );
      const published = batch.filter((article) => article.publishedAt !== null);
      const docRows = published.map((article, index) => {
        docValues.push(article.documentId, wholeText(article));
        return `($${index * 2 + 1}, $${index * 2 + 2})`;
      });
      if (docRows.length > 0) await client.query(`INSERT INTO whole_texts (document_id, body) VALUES ${docRows.join(', ')}`, docValues);
      const termValues = [];
      const termRows = published.map((article, index) => {
        termValues.push(article.documentId, searchTerms(article));
        return `($${index * 2 + 1}, $${index * 2 + 2})`;
      });
      if (termRows.length > 0) {
        await client.query(`INSERT INTO artikel_search_docs (document_id, terms) VALUES ${termRows.join(', ')}`, termValues);
        const batchTerms = [...new Set(termValues.filter(Array.isArray).flat())];
        await client.query('INSERT INTO artikel_search_terms (term) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING', [batchTerms]);
      }
      bar.update(done + batch.length);
    }
    bar.stop();
    const timedStep = async (sql) => {
      const start = Date.now();
      await client.query(sql);
      return (Date.now() - start) / 1000;
    };
    const indexSeconds = {
      wholeTextTrigram: await timedStep('CREATE INDEX whole_texts_body_trgm ON whole_texts USING gin (body gin_trgm_ops)'),
      wordArrays: await timedStep('CREATE INDEX artikel_search_docs_terms ON artikel_search_docs USING gin (terms)'),
      dictionaryTrigram: await timedStep('CREATE INDEX artikel_search_terms_trgm ON artikel_search_terms USING gin (term gin_trgm_ops)'),
    };
    await client.query('VACUUM ANALYZE');
    const size = async (relation) => Number((await client.query('SELECT pg_total_relation_size($1) AS bytes', [relation])).rows[0].bytes);
    const sizes = {
      wholeTexts: await size('whole_texts'),
      wordIndex: (await size('artikel_search_docs')) + (await size('artikel_search_terms')),
    };
    const dictionaryWords = Number((await client.query('SELECT count(*) FROM artikel_search_terms')).rows[0].count);

    const words = searchWordSample().slice(0, SEARCH_SQL_WORDS);
    const methods = {
      like: 'SELECT count(*) FROM articles WHERE published_at IS NOT NULL AND (LOWER(title) LIKE $1 OR LOWER(content) LIKE $1 OR LOWER(tags) LIKE $1)',
      wordIndex:
        "SELECT count(*) FROM articles a WHERE a.published_at IS NOT NULL AND a.document_id IN (SELECT document_id FROM artikel_search_docs WHERE terms && ARRAY(SELECT term FROM artikel_search_terms WHERE term LIKE $1 ESCAPE '\\'))",
      wholeTextTrigram:
        "SELECT count(*) FROM articles a WHERE a.published_at IS NOT NULL AND a.document_id IN (SELECT document_id FROM whole_texts WHERE body LIKE $1 ESCAPE '\\')",
    };
    const pattern = (word) => [`%${escapeLike(word.toLowerCase())}%`];
    // An untimed pass brings the pages into the cache, as in the SQLite figure.
    for (const word of words) for (const sql of Object.values(methods)) await client.query(sql, pattern(word));
    const perWord = [];
    for (const word of words) {
      const row = { word };
      for (const [name, sql] of Object.entries(methods)) {
        const { ms, count } = await timedCount(client, sql, pattern(word));
        row[`${name}Ms`] = ms;
        row[`${name}Count`] = count;
      }
      perWord.push(row);
    }
    const medians = Object.fromEntries(Object.keys(methods).map((name) => [name, median(perWord.map((row) => row[`${name}Ms`]))]));
    const result = {
      articles: total,
      postgres: (await client.query('SHOW server_version')).rows[0].server_version,
      indexBuildSeconds: indexSeconds,
      bytes: sizes,
      dictionaryWords,
      words: perWord.length,
      medianMs: medians,
      ratio: { wordIndex: medians.like / medians.wordIndex, wholeTextTrigram: medians.like / medians.wholeTextTrigram },
      countMismatches: perWord
        .filter((row) => row.wordIndexCount !== row.likeCount || row.wholeTextTrigramCount !== row.likeCount)
        .map(
          (row) => `${row.word}: LIKE ${row.likeCount}, word index ${row.wordIndexCount}, whole-text trigram ${row.wholeTextTrigramCount}`,
        ),
      perWord,
    };
    fs.mkdirSync(path.join(__dirname, 'results'), { recursive: true });
    fs.writeFileSync(path.join(__dirname, 'results', `pg-search-${total}.json`), `${JSON.stringify(result, null, 2)}\n`);
    console.log(
      `PostgreSQL ${result.postgres}, ${total} articles, ${perWord.length} words: LIKE scan median ${medians.like.toFixed(1)} ms; ` +
        `word index median ${medians.wordIndex.toFixed(2)} ms (${result.ratio.wordIndex.toFixed(1)}x faster); ` +
        `whole-text pg_trgm median ${medians.wholeTextTrigram.toFixed(2)} ms (${result.ratio.wholeTextTrigram.toFixed(1)}x); count mismatches: ${result.countMismatches.length}`,
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
