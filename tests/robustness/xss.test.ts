import { reportFigure, unsafeContentFindings, unsafeHtmlFindings } from '../helpers/robustness';
import { startStrapi, type TestApp } from '../helpers/strapi';

const HTML_VECTORS = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=https://evil.example/x.js></SCRIPT>',
  '<img src=x onerror=alert(1)>',
  `<IMG SRC="javascript:alert('XSS');">`,
  '<img src=JaVaScRiPt:alert(1)>',
  '<svg onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>',
  '<a href="jav&#x09;ascript:alert(1)">x</a>',
  '<a href=" javascript:alert(1)">x</a>',
  '<a href="javascript&colon;alert(1)">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '<p style="width: expression(alert(1))">x</p>',
  '<style>body{background:url("javascript:alert(1)")}</style>',
  '<body onload=alert(1)>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
  '<form action="javascript:alert(1)"><button>x</button></form>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<<script>script>alert(1)//<</script>/script>',
  '<details open ontoggle=alert(1)>',
  '<input autofocus onfocus=alert(1)>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  '<IMG """><SCRIPT>alert("XSS")</SCRIPT>">',
  '<!--<img src="--><img src=x onerror=alert(1)//">',
  '<a href="https://ok.example" onclick="alert(1)">x</a>',
];

const MARKDOWN_VECTORS = [
  '[x](javascript:alert(1))',
  '[x](JAVASCRIPT:alert(1))',
  '![x](javascript:alert(1))',
  '[x](&#106;avascript:alert(1))',
  '[x](java&#x09;script:alert(1))',
  '[x](data:text/html;base64,PHNjcmlwdD4=)',
  '![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)',
  '[x][ref]\n\n[ref]: javascript:alert(1)',
  '<javascript:alert(1)>',
  '[x](  <javascript:alert(1)>  )',
  '[x](vbscript:msgbox(1))',
  '[x](javascript:alert(document.cookie) "title")',
];

// Each vector as an HTML document, and inside Markdown prose (HTML vectors too: Markdown allows raw HTML).
const CASES: Array<{ form: 'HTML' | 'Markdown'; vector: string; content: string }> = [
  ...HTML_VECTORS.map((vector) => ({ form: 'HTML' as const, vector, content: `<p>Before the vector.</p>${vector}<p>After it.</p>` })),
  ...[...HTML_VECTORS, ...MARKDOWN_VECTORS].map((vector) => ({
    form: 'Markdown' as const,
    vector,
    content: `Some **bold** prose.\n\n${vector}\n\n- a list item`,
  })),
];

let app: TestApp;

beforeAll(async () => {
  app = await startStrapi({ token: 'full-access' });
});

afterAll(async () => {
  reportFigure('XSS vectors', `${HTML_VECTORS.length} HTML + ${MARKDOWN_VECTORS.length} Markdown, posted in ${CASES.length} articles`);
  await app.stop();
});

describe('XSS vectors posted to POST /api/artikel', () => {
  it('keeps a benign document intact, so the checks below can tell safe from unsafe', () => {
    expect(unsafeHtmlFindings('<p><a href="https://x.example">a</a><img src="https://x.example/a.jpg" alt="a"></p>')).toEqual([]);
    expect(unsafeContentFindings('[x](javascript:alert(1))')).not.toEqual([]);
    expect(unsafeHtmlFindings('<a href="&#106;avascript:alert(1)">x</a>')).not.toEqual([]);
  });

  it.each(CASES.map((testCase, index) => [index + 1, testCase.form, testCase.vector, testCase] as const))(
    'leaves nothing runnable in content or content_html (#%i, %s: %s)',
    async (index, _form, _vector, testCase) => {
      const created = await app
        .api()
        .post('/api/artikel')
        .set(app.auth())
        .send({ title: `XSS case ${index}`, category: 'Security', content: testCase.content })
        .expect(201);
      const read = await app.api().get(`/api/artikel/${created.body.data.slug}`).expect(200);
      for (const article of [created.body.data, read.body.data]) {
        expect(unsafeContentFindings(article.content)).toEqual([]);
        expect(unsafeHtmlFindings(article.content_html)).toEqual([]);
        expect(unsafeHtmlFindings(article.summary)).toEqual([]);
      }
    },
  );
});
