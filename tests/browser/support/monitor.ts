import type { BrowserContext, ConsoleMessage, Page } from 'playwright-core';

/** A 4xx the admin panel causes by itself in every session, with the reason it is harmless. */
export interface AllowedResponse {
  method: string;
  path: RegExp;
  status: number;
  reason: string;
}

/**
 * The admin's own probing requests. Nothing else may answer 4xx, and nothing may answer 5xx.
 * Each entry is matched on method, path (without the origin) and the exact status.
 */
export const ALLOWED_RESPONSES: AllowedResponse[] = [
  {
    method: 'GET',
    path: /^\/admin\/ai-feature-config$/,
    status: 404,
    reason: 'the admin asks whether Strapi AI is configured; that route exists only with a Strapi Cloud/AI licence',
  },
  {
    method: 'GET',
    path: /^\/i18n\/ai-localization-jobs\/collection-types\/[^/]+\/[^/]+$/,
    status: 404,
    reason: 'the edit view asks i18n for AI translation jobs of the document; none exist (AI localisation is not enabled)',
  },
];

export interface Problem {
  kind: 'response' | 'network' | 'console' | 'pageerror';
  text: string;
}

interface CdpRequest {
  requestId: string;
  request: { method: string; url: string };
}
interface CdpResponse {
  requestId: string;
  response: { url: string; status: number };
}
interface CdpFailure {
  requestId: string;
  errorText: string;
  canceled?: boolean;
  blockedReason?: string;
}

/**
 * Watches one page for failed requests, page errors and console errors. Requests to other (https)
 * origins are blocked, so the suite behaves the same with and without a network; their console
 * messages are expected. Responses are read through the Chrome DevTools Protocol because
 * Playwright's own `response` event does not see the browser's favicon request.
 */
export class PageMonitor {
  private problems: Problem[] = [];
  private readonly methods = new Map<string, string>();
  private readonly urls = new Map<string, string>();
  /** Responses the current step expects on top of ALLOWED_RESPONSES. */
  private stepAllowed: AllowedResponse[] = [];
  readonly blockedExternal = new Set<string>();
  readonly allowedSeen = new Map<string, number>();

  constructor(private readonly origin: string) {}

  async attach(context: BrowserContext, page: Page): Promise<void> {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    // Blocked by DevTools rather than by Playwright's routing: routing stops Chromium from asking
    // for /favicon.ico, one of the requests this suite must see. The service itself is plain http.
    await cdp.send('Network.setBlockedURLs', { urls: ['https://*'] });
    cdp.on('Network.requestWillBeSent', (event: CdpRequest) => {
      this.methods.set(event.requestId, event.request.method);
      this.urls.set(event.requestId, event.request.url);
    });
    cdp.on('Network.responseReceived', (event: CdpResponse) => {
      this.onResponse(this.methods.get(event.requestId) ?? 'GET', event.response.url, event.response.status);
    });
    cdp.on('Network.loadingFailed', (event: CdpFailure) => {
      const url = this.urls.get(event.requestId) ?? '(unknown URL)';
      if (event.blockedReason === 'inspector' && !url.startsWith(this.origin)) {
        this.blockedExternal.add(url);
        return;
      }
      if (event.canceled) return; // navigations cancel requests in flight
      this.problems.push({ kind: 'network', text: `${this.methods.get(event.requestId) ?? 'GET'} ${url} failed: ${event.errorText}` });
    });
    page.on('pageerror', (error) => this.problems.push({ kind: 'pageerror', text: error.stack ?? error.message }));
    page.on('console', (message) => this.onConsole(message));
  }

  /** Lets the current step expect some 4xx answers (cleared by `takeProblems`). */
  expect(allowed: AllowedResponse[]): void {
    this.stepAllowed = allowed;
  }

  /** Console errors the current step expects (cleared by `takeProblems`). */
  private stepConsole: RegExp[] = [];

  expectConsole(messages: RegExp[]): void {
    this.stepConsole = messages;
  }

  /** Everything unexpected since the last call. */
  takeProblems(): Problem[] {
    const problems = this.problems;
    this.problems = [];
    this.stepAllowed = [];
    this.stepConsole = [];
    return problems;
  }

  private allowedFor(method: string, url: string, status: number): AllowedResponse | undefined {
    if (!url.startsWith(this.origin)) return undefined;
    const pathAndQuery = url.slice(this.origin.length);
    return [...ALLOWED_RESPONSES, ...this.stepAllowed].find(
      (entry) => entry.method === method && entry.status === status && entry.path.test(pathAndQuery),
    );
  }

  private onResponse(method: string, url: string, status: number): void {
    if (status < 400) return;
    const allowed = status < 500 ? this.allowedFor(method, url, status) : undefined;
    if (allowed) {
      const key = `${allowed.method} ${allowed.path.source} ${allowed.status}`;
      this.allowedSeen.set(key, (this.allowedSeen.get(key) ?? 0) + 1);
      return;
    }
    this.problems.push({ kind: 'response', text: `${method} ${url} answered ${status}` });
  }

  private onConsole(message: ConsoleMessage): void {
    if (message.type() !== 'error') return;
    const text = message.text();
    const url = message.location().url;
    if (text.startsWith('Failed to load resource:')) {
      // The response (or the blocked request) is judged by the network watch above, once.
      if (url.startsWith(this.origin) || text.includes('net::ERR_BLOCKED_BY_CLIENT')) return;
    }
    if (this.stepConsole.some((expected) => expected.test(text))) return;
    this.problems.push({ kind: 'console', text: `${text}${url ? ` (at ${url})` : ''}` });
  }
}
