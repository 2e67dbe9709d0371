import {
  plainText,
  readingTimeMinutes,
  wordCount,
  renderContentHtml,
  sanitizeStoredContent,
  summarize,
} from '../../src/plugins/artikel/server/src/utils/content';

describe('content helpers', () => {
  it('renders plain text as paragraphs', () => {
    expect(renderContentHtml('First paragraph.\n\nSecond one.')).toBe('<p>First paragraph.</p>\n<p>Second one.</p>');
  });

  it('sanitizes an HTML document without rendering it as Markdown', () => {
    const html = renderContentHtml('<p>Hi <img src="x.jpg" onerror="alert(1)"></p>\n    <p>indented</p>');
    expect(html).toBe('<p>Hi <img src="x.jpg" /></p>\n    <p>indented</p>');
  });

  it('removes scripts, handlers and javascript: links from stored HTML but keeps structure', () => {
    const stored = sanitizeStoredContent(
      '<h2>Title</h2><script>x()</script><a href="javascript:alert(1)">a</a><figure><img src="https://x/y.jpg" alt="y"><figcaption>c</figcaption></figure>',
    );
    expect(stored).toBe('<h2>Title</h2><a>a</a><figure><img src="https://x/y.jpg" alt="y" /><figcaption>c</figcaption></figure>');
  });

  it('stores Markdown without HTML exactly as written', () => {
    const markdown = '> a quote\n\n* item & more';
    expect(sanitizeStoredContent(markdown)).toBe(markdown);
  });

  it('extracts plain text without Markdown syntax or tags', () => {
    expect(plainText('# Title\n\nSome **bold** and [a link](https://example.com) & more.')).toBe('Title. Some bold and a link & more.');
  });

  it('ends each heading, list item and paragraph as a sentence, keeping the punctuation it has', () => {
    const content = '## Plan for it\n\nAsk the couple first\n\n- umbrellas\n- a covered porch!\n\n### Why?\n\nLines<br>joined';
    expect(plainText(content)).toBe('Plan for it. Ask the couple first. umbrellas. a covered porch! Why? Lines joined.');
    expect(plainText('<h2>Light</h2><ul><li><p>soft</p></li></ul><blockquote><p>Quote: “yes.”</p></blockquote>')).toBe(
      'Light. soft. Quote: “yes.”',
    );
  });

  it('summarizes short content as a whole and long content by sentences up to about 200 characters', () => {
    expect(summarize('One. Two.')).toBe('One. Two.');
    const sentence = 'This sentence has exactly sixty characters in it, or nearly. ';
    const summary = summarize(sentence.repeat(10));
    expect(summary.length).toBeLessThanOrEqual(200);
    expect(summary.endsWith('.')).toBe(true);
    expect(summary.split('.').length - 1).toBe(3);
  });

  it('cuts a single overlong sentence at a word boundary', () => {
    const summary = summarize('word '.repeat(100));
    expect(summary.length).toBeLessThanOrEqual(201);
    expect(summary).toMatch(/word…$/);
  });

  it('counts reading time in minutes at 200 words a minute, at least 1', () => {
    expect(readingTimeMinutes('')).toBe(1);
    expect(readingTimeMinutes('word '.repeat(201))).toBe(2);
    expect(readingTimeMinutes('word '.repeat(200))).toBe(1);
    // Markup is not read: tags, Markdown syntax and link targets do not count as words.
    const marked = `## Title\n\n${'<b>word</b> [word](https://example.com/a/b/c/d) **word** - '.repeat(66)}`;
    expect(readingTimeMinutes(marked)).toBe(1);
    expect(readingTimeMinutes(`${marked} word word word`)).toBe(2);
  });

  it('counts the words the pattern of letter and digit runs finds, in any script, joined only by an apostrophe or hyphen between two of them', () => {
    // The definition of a word, as a pattern; the service counts without building the matches.
    const wordsByPattern = (text: string): number => text.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu)?.length ?? 0;
    const pieces = [
      'Straße',
      'l’été',
      "don't",
      'x-ray',
      'a--b',
      "a'-b",
      '-',
      "'",
      '’',
      ' ',
      '\n',
      '42',
      '3.5',
      'Ωμέγα',
      'дом',
      '東京',
      '写真',
      '🙂',
      '📷x',
      'e\u0301',
      '\ud83d',
      'ÄÖÜ',
      '_',
      '—',
      'foto-',
      '-foto',
      "'s",
      'k8s',
      '١٢٣',
    ];
    // A fixed pseudo-random sequence of pieces, so a failure is reproducible.
    let state = 7;
    const next = (): number => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state;
    };
    for (let text = 0; text < 500; text += 1) {
      const sample = Array.from({ length: 1 + (next() % 40) }, () => pieces[next() % pieces.length]).join('');
      expect({ sample, words: wordCount(sample) }).toEqual({ sample, words: wordsByPattern(sample) });
    }
    // Word counts themselves, at the 200-word boundary: 200 of a kind read in one minute, 201 in two.
    for (const word of ['Straße', 'l’été-ci', 'дом', '東京', '📷x', 'k8s']) {
      expect(readingTimeMinutes(`${word} `.repeat(200))).toBe(1);
      expect(readingTimeMinutes(`${word} `.repeat(201))).toBe(2);
    }
  });
});
