import { writtenScopeFromText, writtenScopeToText, type WrittenScope } from '../../src/plugins/artikel/server/src/utils/written-scope';

describe('a written scope sent to other instances', () => {
  it('comes back as it was sent, tags with spaces and commas included', () => {
    const scopes: WrittenScope[] = [
      'everything',
      'published',
      { documentId: 'abc123', tagKeys: ['black and white', 'a,b', 'ü'], categoryId: 7 },
      { documentId: 'def456', tagKeys: [], categoryId: null },
    ];
    for (const scope of scopes) expect(writtenScopeFromText(writtenScopeToText(scope))).toEqual(scope);
  });

  it('counts anything it does not recognize as "everything written", so no instance keeps a stale read', () => {
    for (const text of ['', '*', 'abc123', '{"documentId":5}', '{"documentId":"x","tagKeys":[1],"categoryId":null}', '{"documentId":"x","tagKeys":[]}', 'null', '[]']) {
      expect(writtenScopeFromText(text)).toBe('everything');
    }
  });
});
