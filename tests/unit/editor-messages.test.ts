import { errors } from '@strapi/utils';
import { inEditorLanguage } from '../../src/plugins/artikel/server/src/presenters/editor-messages';
import { validateArticleFields, validateCategoryFields } from '../../src/plugins/artikel/server/src/validation/field-rules';

/** The refusal the rules give these fields, as thrown. */
async function refusalOf(validate: (data: Record<string, unknown>) => Promise<void>, data: Record<string, unknown>): Promise<unknown> {
  try {
    await validate(data);
  } catch (error) {
    return error;
  }
  throw new Error('the rules took the data');
}

const messagesOf = (error: unknown) =>
  ((error as errors.ValidationError).details as { errors: Array<{ path: string[]; message: string }> }).errors.map(
    (fieldError) => `${fieldError.path.join('.')}: ${fieldError.message}`,
  );

// Every rule of the article's fields broken at once: a message the table does not know would stay English.
const EVERY_RULE_BROKEN = {
  title: 'x'.repeat(256),
  slug: 'feed',
  summary: 'x'.repeat(1001),
  author: 'x'.repeat(256),
  meta_title: 'x'.repeat(301),
  meta_description: 'x'.repeat(501),
  meta_keywords: 'x'.repeat(501),
  tags: Array.from({ length: 21 }, (_, n) => `tag${n}`).join(', '),
  cover_image_url: 'http://studio.example/a.jpg',
};

describe("the rules' refusals in the editors' languages", () => {
  it('says every article field rule in Indonesian and German with the field labels, none left in English', async () => {
    const refusal = await refusalOf(validateArticleFields, EVERY_RULE_BROKEN);
    const english = messagesOf(refusal);
    expect(english).toHaveLength(9);
    for (const language of ['id', 'de'] as const) {
      const translated = messagesOf(inEditorLanguage(refusal, 'article', language));
      expect(translated).toHaveLength(english.length);
      translated.forEach((message, index) => expect(message).not.toBe(english[index]));
    }
    expect(messagesOf(inEditorLanguage(refusal, 'article', 'id'))).toContain(
      'slug: Slug URL "feed" sudah dipakai oleh alamat layanan; pilih slug lain',
    );
    expect(messagesOf(inEditorLanguage(refusal, 'article', 'de'))).toContain('tags: Schlagwörter: höchstens 20 Tags');
  });

  it('names a long tag, an empty slug and a category name by their labels', async () => {
    const tag = await refusalOf(validateArticleFields, { tags: 'x'.repeat(51), slug: '---' });
    expect(messagesOf(inEditorLanguage(tag, 'article', 'id'))).toEqual([
      'slug: Slug URL harus memuat setidaknya satu huruf atau angka',
      'tags: Tag: setiap tag paling banyak 50 karakter',
    ]);
    const category = await refusalOf(validateCategoryFields, { name: 'x'.repeat(101) });
    expect(messagesOf(inEditorLanguage(category, 'category', 'id'))).toEqual(['name: Nama paling banyak 100 karakter']);
  });

  it('leaves English, and any other error, as it is', async () => {
    const refusal = await refusalOf(validateArticleFields, { title: 'x'.repeat(256) });
    expect(inEditorLanguage(refusal, 'article', 'en')).toBe(refusal);
    expect(inEditorLanguage(refusal, 'article', null)).toBe(refusal);
    const other = new errors.NotFoundError('gone');
    expect(inEditorLanguage(other, 'article', 'id')).toBe(other);
  });
});
