import { writtenScopeFromText, writtenScopeToText, type WrittenScope } from '../../src/plugins/artikel/server/src/domain/written-scope';

describe('a written scope sent to other instances', () => {
  it('comes back as it was sent, tags with spaces and commas included', () => {
    const scopes: WrittenScope[] = [
      'everything',
      'published',
      {
        documentId: 'abc123',
        tagKeys: ['black and white', 'a,b', 'ü'],
        categoryId: 7,
        previous: { tagKeys: ['fog'], categoryId: 3 },
        published: { at: 1_790_000_000_123, createdAt: 1_780_000_000_000 },
        pushedOut: ['ghi789'],
      },
      { documentId: 'def456', tagKeys: [], categoryId: null, previous: { tagKeys: [], categoryId: null }, published: null, pushedOut: [] },
    ];
    for (const scope of scopes) expect(writtenScopeFromText(writtenScopeToText(scope))).toEqual(scope);
  });

  it("leaves out the article's searchable texts, which only the writing instance knows", () => {
    const scope: WrittenScope = {
      documentId: 'abc',
      tagKeys: [],
      categoryId: null,
      previous: { tagKeys: [], categoryId: null },
      published: null,
      pushedOut: [],
      texts: ['a long text'],
    };
    expect(writtenScopeFromText(writtenScopeToText(scope))).toEqual({ ...scope, texts: undefined });
    expect(writtenScopeToText(scope)).not.toContain('a long text');
  });

  it('counts anything it does not recognize as "everything written", so no instance keeps a stale read', () => {
    const place = '"tagKeys":[],"categoryId":null';
    const texts = [
      '',
      '*',
      'abc123',
      '{"documentId":5}',
      '{"documentId":"x","tagKeys":[1],"categoryId":null}',
      '{"documentId":"x","tagKeys":[]}',
      // The form of an earlier version of the service, without where the article stood before.
      `{"documentId":"x",${place}}`,
      `{"documentId":"x",${place},"previous":{${place}},"published":{"at":"soon","createdAt":1},"pushedOut":[]}`,
      `{"documentId":"x",${place},"previous":{${place}},"published":null,"pushedOut":[7]}`,
      'null',
      '[]',
    ];
    for (const text of texts) {
      expect(writtenScopeFromText(text)).toBe('everything');
    }
  });
});
