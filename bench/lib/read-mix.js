// @ts-check
'use strict';

// The seven public reads in the proportions a studio's site sees them: most requests open one
// article (from a link, a feed, a search engine); list pages, the start page's latest articles and
// the category menu come next; filters and searches are the rarer ones.
const READ_WEIGHTS = { slug: 50, list: 14, latest: 10, categories: 6, kategori: 8, tag: 6, q: 6 };

/**
 * One long rotation of request paths of `server` (a key of each endpoint's paths), each endpoint
 * appearing as often as its weight says, interleaved so every stretch of the rotation has the mix,
 * and each endpoint's own paths (slugs, words, ...) rotating in turn.
 */
function readMixPaths(plan, server, length = 10_000) {
  const endpoints = plan.filter((endpoint) => READ_WEIGHTS[endpoint.key] !== undefined);
  const totalWeight = endpoints.reduce((sum, endpoint) => sum + READ_WEIGHTS[endpoint.key], 0);
  const taken = new Map(endpoints.map((endpoint) => [endpoint.key, 0]));
  const paths = [];
  for (let i = 0; i < length; i += 1) {
    // The endpoint furthest behind its share so far: a smooth weighted round-robin.
    let chosen = endpoints[0];
    let deficit = -Infinity;
    for (const endpoint of endpoints) {
      const behind = ((i + 1) * READ_WEIGHTS[endpoint.key]) / totalWeight - taken.get(endpoint.key);
      if (behind > deficit) {
        deficit = behind;
        chosen = endpoint;
      }
    }
    const own = chosen.paths[server];
    paths.push(own[taken.get(chosen.key) % own.length]);
    taken.set(chosen.key, taken.get(chosen.key) + 1);
  }
  return paths;
}

module.exports = { READ_WEIGHTS, readMixPaths };
