import type { ArticleSnapshot, TextChange } from '../domain/article-revisions';
import type { RevisionEntry } from '../repositories/revisions';
import type { RevisionDetail } from '../services/revisions';
import type { RevisionEntryRecord, RevisionRecord, TextChangeRecord } from '../../../shared/admin-api';
import { parseTags } from '../utils/tags';

/** A revision in a list, as the API and the MCP tools show it (snake_case, like every record). */
export function revisionEntryRecord(entry: RevisionEntry): RevisionEntryRecord {
  return {
    number: entry.number,
    action: entry.action,
    created_at: entry.createdAt,
    actor: entry.actor,
    restored_from: entry.restoredFrom,
    changed: entry.changed,
  };
}

/** The article as a revision kept it, in the shape of the API's records (tags as a list). */
function articleOfSnapshot(snapshot: ArticleSnapshot) {
  const { fields } = snapshot;
  return {
    title: fields.title ?? '',
    slug: fields.slug ?? '',
    summary: fields.summary ?? '',
    content: fields.content ?? '',
    category: snapshot.category,
    tags: parseTags(fields.tags ?? ''),
    cover_image_url: fields.cover_image_url,
    author: fields.author ?? '',
    meta_title: fields.meta_title ?? '',
    meta_description: fields.meta_description ?? '',
    meta_keywords: fields.meta_keywords,
    status: snapshot.status,
    publish_at: snapshot.publish_at,
  };
}

const textChangeRecord = (change: TextChange): TextChangeRecord => ({ field: change.field, parts: change.parts });

/** One revision: the article as it kept it, and what it changed in the title, summary and content word by word. */
export function revisionRecord(detail: RevisionDetail): RevisionRecord & { article: ReturnType<typeof articleOfSnapshot> } {
  return {
    ...revisionEntryRecord(detail),
    article: articleOfSnapshot(detail.snapshot),
    compared_with: detail.comparedWith,
    text_changes: detail.textChanges.map(textChangeRecord),
  };
}
