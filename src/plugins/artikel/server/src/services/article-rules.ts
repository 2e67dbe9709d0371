import type { Core } from '@strapi/strapi';
import { ARTICLE_UID } from '../constants';
import { articleEntity } from '../repositories/article-details';
import { isBlank } from '../utils/blank';
import { truncateAtWord } from '../utils/content';
import { slugFromTitle } from '../utils/slug-text';
import { FIELD_LIMITS } from '../utils/field-limits';
import { formatTags, parseTags } from '../utils/tags';
import { validateArticleFields } from '../validation/field-rules';
import { fieldError, validationError } from '../validation/validate';
import { getConfig, getService } from '../infrastructure/get-service';
import { TextWorkFailure, textWork } from '../infrastructure/text-work';
import type { TextWorkKind, TextWorkResult } from '../infrastructure/text-thread';

/** The data of an article write, as the Document Service receives it. */
export type ArticleData = Record<string, unknown>;

/** Defaults derived from another field of the article: they follow it while nobody typed them. */
type DerivedField = 'summary' | 'meta_title' | 'meta_description';

/** Which defaults of an article were generated; kept on the article, hidden from the admin. */
const GENERATED_FIELDS = 'generated_fields';

/**
 * The text work on an article's content, off the event loop for a long one (see text-work.ts). A
 * failure (a content whose markup takes the work past its deadline) is the content's 400, as any
 * other content the rules refuse; a full queue stays the 429 it is.
 */
async function contentWork<K extends TextWorkKind>(kind: K, content: string): Promise<TextWorkResult<K>> {
  try {
    return await textWork(kind, content);
  } catch (error) {
    if (!(error instanceof TextWorkFailure)) throw error;
    const why = error.reason === 'deadline' ? 'in time' : 'as written';
    throw validationError([fieldError('content', `content could not be processed ${why}: simplify its markup (deeply nested elements)`)]);
  }
}

/** Each derived default from the article's current fields, in dependency order (the summary first). */
const DERIVED_DEFAULTS: Array<{ field: DerivedField; from: (value: (field: string) => string) => string | Promise<string> }> = [
  { field: 'summary', from: (value) => contentWork('summarize', value('content')) },
  { field: 'meta_title', from: (value) => value('title') },
  { field: 'meta_description', from: (value) => truncateAtWord(value('summary'), FIELD_LIMITS.meta_description) },
];

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The generated fields recorded on a stored article; null for one stored before they were recorded. */
function recordedGeneratedFields(stored: ArticleData): Set<string> | null {
  const recorded = stored[GENERATED_FIELDS];
  return Array.isArray(recorded) ? new Set(recorded.filter((field): field is string => typeof field === 'string')) : null;
}

const instant = (value: unknown): number | null => {
  if (value === null || value === undefined || value === '') return null;
  const time =
    value instanceof Date ? value.getTime() : typeof value === 'string' || typeof value === 'number' ? new Date(value).getTime() : NaN;
  return time;
};

/**
 * A schedule set or moved must lie in the future (a time already past would publish at once, which
 * is what publishing is for). One left as it was is not checked again: the admin sends every field
 * on each save, and a schedule may have come due a moment before.
 */
function checkSchedule(data: ArticleData, stored: ArticleData | null): void {
  if (!('publish_at' in data)) return;
  if (data.publish_at === '') data.publish_at = null;
  const wanted = instant(data.publish_at);
  if (wanted === null || wanted === instant(stored?.publish_at)) return;
  if (Number.isNaN(wanted))
    throw validationError([fieldError('publish_at', 'publish_at must be a date and time (ISO-8601 with a time zone)')]);
  if (wanted <= Date.now()) throw validationError([fieldError('publish_at', 'publish_at must be in the future; publish now instead')]);
}

/**
 * The rules every article gets, whichever way it is written (this plugin's POST, the admin's
 * Content Manager, a script): run by the document middleware before each create and update.
 */
const articleRules = ({ strapi }: { strapi: Core.Strapi }) => ({
  async apply(action: 'create' | 'update', params: { documentId?: string; data?: ArticleData }): Promise<void> {
    const data = params.data;
    if (!data) return;
    await validateArticleFields(data);
    const stored =
      action === 'update' && params.documentId ? ((await articleEntity(strapi, params.documentId, 'draft')) as ArticleData | null) : null;
    const current = (field: string): string => text(field in data ? data[field] : stored?.[field]);

    checkSchedule(data, stored);

    if (typeof data.content === 'string') data.content = await contentWork('sanitizeStoredContent', data.content);
    // Counted once here, with the content it counts: the lists and feeds that show it never read the content again.
    if (action === 'create' || 'content' in data) data.reading_time = await contentWork('readingTimeMinutes', current('content'));
    if (typeof data.tags === 'string') data.tags = formatTags(parseTags(data.tags));
    if ((action === 'create' || 'author' in data) && isBlank(data.author)) {
      data.author = getConfig(strapi, 'studioName');
    }
    data[GENERATED_FIELDS] = [...(await this.fillDerivedDefaults(data, stored, current))];

    const slugs = getService(strapi, 'slugs');
    if ((action === 'create' || 'slug' in data) && isBlank(data.slug)) {
      data.slug = await slugs.free(ARTICLE_UID, slugFromTitle(current('title')), params.documentId);
    } else if (typeof data.slug === 'string' && (action === 'create' || data.slug !== stored?.slug)) {
      data.slug = await slugs.claim(ARTICLE_UID, data.slug, params.documentId);
    }
  },

  /**
   * Fills each derived default that is blank, or was generated and is not being changed by this
   * write, from the article's current fields; one the editor typed stays. Returns the fields that
   * now hold a generated value. An article stored before this was recorded counts a field as
   * generated when it equals what its stored source generates.
   */
  async fillDerivedDefaults(data: ArticleData, stored: ArticleData | null, current: (field: string) => string): Promise<Set<string>> {
    const recorded = stored ? recordedGeneratedFields(stored) : new Set<string>();
    const storedValue = (field: string) => text(stored?.[field]);
    const generated = new Set<string>();
    for (const { field, from } of DERIVED_DEFAULTS) {
      const wasGenerated = stored !== null && (recorded?.has(field) ?? storedValue(field) === (await from(storedValue)));
      const incoming = data[field];
      const generate = !(field in data)
        ? stored === null || wasGenerated
        : isBlank(incoming) || (stored !== null && incoming === stored[field] && wasGenerated);
      if (!generate) continue;
      data[field] = await from(current);
      generated.add(field);
    }
    return generated;
  },
});

export default articleRules;
