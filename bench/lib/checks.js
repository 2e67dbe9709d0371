// @ts-check
'use strict';

const { httpGet } = require('./http-get');
const { PAGE_SIZE } = require('./endpoints');

const SAMPLED_PATHS = 4;

/** The part of an answer the three servers must agree on, whatever their JSON shape. */
function digest(server, endpoint, json) {
  const items = Array.isArray(json?.data) ? json.data : [];
  const idOf = (item) => (server === 'stock' ? item.documentId : item.id);
  switch (endpoint.expect.kind) {
    case 'page':
    case 'latest':
      return {
        total: endpoint.expect.kind === 'page' ? json?.meta?.pagination?.total : undefined,
        ids: items.map(idOf),
        withCategory: items.every((item) => item.category && item.category.slug),
      };
    case 'categories':
      return { names: items.map((item) => item.name) };
    case 'article': {
      const article = server === 'stock' ? items[0] : json?.data;
      return {
        count: server === 'stock' ? items.length : article ? 1 : 0,
        slug: article?.slug,
        withCategory: Boolean(article?.category?.slug),
      };
    }
    default:
      return {};
  }
}

/** Problems with one answer, judged on its own. */
function problemsOf(endpoint, path, response, answer, expectedSlug) {
  if (response.status !== 200) return [`${path} answered ${response.status}`];
  const problems = [];
  const { kind, count, nonEmpty } = endpoint.expect;
  if (kind === 'page') {
    if (typeof answer.total !== 'number') problems.push(`${path}: no pagination total`);
    else if (answer.ids.length !== Math.min(PAGE_SIZE, answer.total))
      problems.push(`${path}: ${answer.ids.length} items for a total of ${answer.total}`);
    if (nonEmpty && answer.total === 0) problems.push(`${path}: no article matched`);
  }
  if ((kind === 'latest' || kind === 'categories') && (answer.ids ?? answer.names).length !== count)
    problems.push(`${path}: ${(answer.ids ?? answer.names).length} items, expected ${count}`);
  if (kind === 'article' && (answer.count !== 1 || answer.slug !== expectedSlug))
    problems.push(`${path}: expected the article "${expectedSlug}"`);
  if ((kind === 'page' || kind === 'latest' || kind === 'article') && answer.withCategory === false)
    problems.push(`${path}: an article came without its category`);
  return problems;
}

/**
 * Asks a few of the endpoint's paths before it is measured: each must be a 200 holding what the
 * endpoint promises, so a fast error page can never pass for a result.
 */
async function checkEndpoint({ server, port, endpoint, slugs }) {
  const paths = endpoint.paths[server];
  const picks =
    paths.length <= SAMPLED_PATHS
      ? paths.map((_, i) => i)
      : Array.from({ length: SAMPLED_PATHS }, (_, i) => Math.floor((i * paths.length) / SAMPLED_PATHS));
  const answers = [];
  const problems = [];
  for (const index of picks) {
    const path = paths[index];
    try {
      const response = await httpGet(port, path);
      const answer = digest(server, endpoint, response.json);
      answers.push({ index, status: response.status, ...answer });
      problems.push(...problemsOf(endpoint, path, response, answer, endpoint.key === 'slug' ? slugs[index] : undefined));
    } catch (error) {
      problems.push(`${path}: ${/** @type {Error} */ (error).message}`);
    }
  }
  if (endpoint.expect.kind === 'page' && answers.length > 0 && answers.every((answer) => answer.total === 0))
    problems.push('every sampled request matched nothing');
  return { answers, problems };
}

/** How many sampled requests two servers both answered, and where their answers differ. */
function compareAnswers(endpoint, base, other, baseName, otherName) {
  const differences = [];
  let compared = 0;
  for (const answer of other) {
    const reference = base.find((candidate) => candidate.index === answer.index);
    if (!reference) continue;
    compared += 1;
    for (const field of ['total', 'ids', 'names', 'slug']) {
      if (reference[field] === undefined && answer[field] === undefined) continue;
      if (JSON.stringify(reference[field]) !== JSON.stringify(answer[field])) {
        differences.push(`${endpoint.key} #${answer.index}: ${field} differs between ${baseName} and ${otherName}`);
      }
    }
  }
  return { compared, differences };
}

module.exports = { checkEndpoint, compareAnswers };
