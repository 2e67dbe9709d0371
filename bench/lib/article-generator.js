// @ts-check
'use strict';

const { createRandom, weightedPicker } = require('./prng');
const { AUTHORS, CATEGORIES, FUNCTION_WORDS, TAGS, buildVocabulary } = require('./vocabulary');
const { content: pluginContent, slugText, tags: pluginTags } = require('./plugin');

// Five years of publishing, fixed rather than relative to today so a seed is reproducible.
const FIRST_DAY = Date.UTC(2021, 0, 1);
const LAST_DAY = Date.UTC(2026, 0, 1);
const DRAFT_SHARE = 0.05;
const STUDIO_NAME = 'Studio';
const DOCUMENT_ID_LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const DOCUMENT_ID_CHARACTERS = `${DOCUMENT_ID_LETTERS}0123456789`;

const capitalize = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * The plugin's slug for a title (utils/slug-text.ts).
 * @param {string} title
 * @returns {string}
 */
const slugOf = (title) => slugText.slugFromTitle(title);

/**
 * Deterministic article data: the same seed gives the same articles in the same order. Word
 * frequencies follow a Zipf curve so that searches hit anything from a handful to most articles.
 */
function createArticleGenerator(seed = 20260101) {
  const random = createRandom(seed);
  const { summarize } = pluginContent();
  const { words, real } = buildVocabulary(random);
  const vocabularyWord = (() => {
    const pick = weightedPicker(
      words.map((_, rank) => 1 / (rank + 8)),
      random,
    );
    return () => words[pick()];
  })();
  const realWords = words.filter((word) => real.has(word));
  const tagPick = weightedPicker(
    TAGS.map((_, rank) => 1 / (rank + 4)),
    random,
  );
  const categoryPick = weightedPicker(
    CATEGORIES.map((category) => category.weight),
    random,
  );
  const takenSlugs = new Set();
  const takenDocumentIds = new Set();

  const documentId = () => {
    for (;;) {
      let id = DOCUMENT_ID_LETTERS[random.int(0, 25)];
      for (let i = 1; i < 24; i += 1) id += DOCUMENT_ID_CHARACTERS[random.int(0, 35)];
      if (!takenDocumentIds.has(id)) {
        takenDocumentIds.add(id);
        return id;
      }
    }
  };

  const phrase = (count) => {
    const parts = [];
    for (let i = 0; i < count; i += 1) parts.push(random.chance(0.35) ? random.pick(FUNCTION_WORDS) : vocabularyWord());
    return parts;
  };

  const sentence = ({ emphasis }) => {
    const parts = phrase(random.int(7, 18));
    if (parts.length > 9 && random.chance(0.4)) parts[random.int(3, parts.length - 3)] += ',';
    if (emphasis && random.chance(0.12)) {
      const at = random.int(1, parts.length - 2);
      parts[at] = `**${parts[at]} ${parts[at + 1].replace(/,$/, '')}**`;
      parts.splice(at + 1, 1);
    }
    return `${capitalize(parts.join(' '))}.`;
  };

  const paragraph = (sentences, emphasis = true) => Array.from({ length: sentences }, () => sentence({ emphasis })).join(' ');
  const heading = () => `## ${capitalize(phrase(random.int(2, 5)).join(' '))}`;
  const list = () => Array.from({ length: random.int(3, 5) }, () => `- ${capitalize(phrase(random.int(3, 7)).join(' '))}`).join('\n');

  /** Markdown of about 3 KB: an intro, two or three sections, one list. */
  const content = () => {
    const target = random.int(2400, 3800);
    const intro = paragraph(random.int(3, 4), false);
    const blocks = [intro, heading(), paragraph(random.int(2, 4)), list(), heading()];
    let length = blocks.reduce((sum, block) => sum + block.length + 2, 0);
    while (length < target) {
      const block = random.chance(0.15) ? heading() : paragraph(random.int(2, 5));
      blocks.push(block);
      length += block.length + 2;
    }
    return { markdown: blocks.join('\n\n'), intro };
  };

  /**
   * The plugin's default summary (utils/content.ts `summarize`), taken of the intro alone: it is the
   * same as the whole content's whenever the intro is longer than the summary, and renders far less.
   * @param {string} intro
   */
  const summaryOf = (intro) => summarize(intro);

  const title = () => {
    const count = random.int(3, 7);
    const parts = [];
    for (let i = 0; i < count; i += 1)
      parts.push(i > 0 && i < count - 1 && random.chance(0.25) ? random.pick(FUNCTION_WORDS) : random.pick(realWords));
    return capitalize(parts.join(' '));
  };

  /** Like the plugin: the title's slug, or its first free -2, -3, ... */
  const uniqueSlug = (base) => {
    for (let attempt = 1; ; attempt += 1) {
      const slug = slugText.withSuffix(base, attempt);
      if (!takenSlugs.has(slug) && !slugText.RESERVED_SLUGS.has(slug)) {
        takenSlugs.add(slug);
        return slug;
      }
    }
  };

  const tags = () => {
    const chosen = new Set();
    const count = random.int(1, 6);
    while (chosen.size < count) chosen.add(TAGS[tagPick()]);
    return pluginTags.formatTags([...chosen]);
  };

  /** Article number `index` of `total`, in creation order (creation dates grow with the index). */
  const article = (index, total) => {
    const span = LAST_DAY - FIRST_DAY;
    const createdAt = FIRST_DAY + Math.floor(((index + random.next()) * span) / total);
    const isDraft = random.chance(DRAFT_SHARE);
    const publishedAt = isDraft ? null : createdAt + random.int(5 * 60_000, 48 * 3_600_000);
    const editedLater = random.chance(0.2) ? random.int(3_600_000, 60 * 86_400_000) : 0;
    const updatedAt = Math.min((publishedAt ?? createdAt + random.int(60_000, 3_600_000)) + editedLater, LAST_DAY + 86_400_000);
    const articleTitle = title();
    const slug = uniqueSlug(slugOf(articleTitle));
    const { markdown, intro } = content();
    const summary = summaryOf(intro);
    return {
      documentId: documentId(),
      title: articleTitle,
      slug,
      summary,
      content: markdown,
      tags: tags(),
      coverImageUrl: `https://images.studio.example/articles/${slug}.jpg`,
      author: random.chance(0.8) ? random.pick(AUTHORS) : STUDIO_NAME,
      metaTitle: articleTitle,
      metaDescription: summary,
      metaKeywords: null,
      // Stored with the content, as the plugin's writes store it (a row without one is counted by the next start).
      readingTime: pluginContent().readingTimeMinutes(markdown),
      categoryIndex: categoryPick(),
      createdAt,
      updatedAt,
      publishedAt,
    };
  };

  return { article, vocabulary: words, realWords };
}

module.exports = { createArticleGenerator, slugOf };
