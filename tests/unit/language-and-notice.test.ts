import { copyrightNotice, unknownNoticePlaceholders } from '../../src/plugins/artikel/server/src/utils/copyright-notice';
import { canonicalLanguageTag, englishLanguageName } from '../../src/plugins/artikel/server/src/utils/language-tag';
import { LANGUAGE_EXAMPLES, openApiDocumentFor } from '../../src/plugins/artikel/server/src/presenters/openapi-document';
import openApiDocument from '../../src/plugins/artikel/server/src/openapi/openapi.json';

describe('the language setting', () => {
  it('takes a BCP 47 tag in any case and gives its canonical form', () => {
    expect(['id', 'ID', 'en-gb', 'zh-hant-tw', 'de-CH-1996', 'sr-Latn'].map(canonicalLanguageTag)).toEqual([
      'id',
      'id',
      'en-GB',
      'zh-Hant-TW',
      'de-CH-1996',
      'sr-Latn',
    ]);
  });

  it('refuses what is no language tag, and tags past 35 characters', () => {
    for (const value of ['', 'en_US', 'english1', 'x-private', 'i-klingon', 'en-', '12', `en-${'a'.repeat(33)}`, 'id"><x']) {
      expect({ value, tag: canonicalLanguageTag(value) }).toEqual({ value, tag: null });
    }
  });

  it('names the language in English for llms.txt, or gives the tag back when it knows no name', () => {
    expect(englishLanguageName('id')).toBe('Indonesian');
    expect(englishLanguageName('en-GB')).toBe('British English');
    expect(englishLanguageName('qaa')).toBe('qaa');
  });
});

describe('the copyright notice', () => {
  it('fills {year} and {studio}, inserting the studio name as written', () => {
    expect(copyrightNotice('© {year} {studio}', { year: 2026, studio: 'Lichtbild Studio' })).toBe('© 2026 Lichtbild Studio');
    expect(copyrightNotice('{studio} {studio}, {year}', { year: 1999, studio: "$& $1 $' Studio" })).toBe(
      "$& $1 $' Studio $& $1 $' Studio, 1999",
    );
    expect(copyrightNotice('All rights reserved', { year: 2026, studio: 'S' })).toBe('All rights reserved');
  });

  it('names every placeholder it does not know, once', () => {
    expect(unknownNoticePlaceholders('© {year} {studio}')).toEqual([]);
    expect(unknownNoticePlaceholders('{yaer} {Studio} {yaer} {}')).toEqual(['yaer', 'Studio', '']);
  });
});

describe('the served OpenAPI document', () => {
  it('shows the configured language in every language example, leaving the repository file as it is', () => {
    const served = openApiDocumentFor(openApiDocument, 'en-GB') as typeof openApiDocument;
    for (const path of LANGUAGE_EXAMPLES) {
      const at = (document: unknown) => path.reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], document);
      expect(at(served)).toEqual(['en-GB']);
      expect(at(openApiDocument)).toEqual(['id']);
    }
    expect(openApiDocumentFor(openApiDocument, 'en-GB')).toBe(served);
  });
});
