import os from 'node:os';
import path from 'node:path';
import { Piscina } from 'piscina';
import { errors } from '@strapi/utils';
import { escapeHtml } from '../utils/content';
import { runTextTask, type TextTask, type TextWorkKind, type TextWorkResult } from './text-thread';

/**
 * Texts shorter than this (in UTF-16 code units) are worked on the caller's thread. Measured on
 * this 2-core machine (the compiled utils, warm): a round trip to an idle thread costs about
 * 0.1–0.2 ms, which the work on 4,000 characters of HTML or Markdown already exceeds (sanitizing
 * 0.45 ms, a summary 0.7 ms, rendering Markdown 1.2 ms, turndown 1.7 ms); below it the work stays
 * well under a millisecond, and an ordinary article (a few KB) is answered without the trip.
 * Tripled by a loaded machine, 4,000 characters still hold the loop for under 4 ms.
 */
export const INLINE_BELOW = 4_000;

/** Tasks that may wait in line for a thread; more are refused with a 429 until they catch up. */
const MAX_WAITING = 8;

/**
 * How long a task may take, from the moment it is queued. The largest allowed content (1 MB of
 * HTML) takes about a second on a loaded machine, the slowest shapes found (1 MB of nested
 * elements) under two (but turndown on 100,000 nested elements ran 88 s before it overflowed the
 * stack): past this the thread is stopped and the task fails, instead of holding a thread for
 * minutes. MAX_WAITING tasks ahead of a new one fit well inside it.
 */
const DEADLINE_MS = 30_000;

/**
 * One thread per core beyond the event loop's, at most 2: on two cores, the event loop and one text
 * thread (the long reads have their own, see long-reads.ts). Not lowered in priority: measured
 * beside a flood of cached reads on this loaded machine, nice +10 left the reads as fast as before
 * and made a 1 MB POST take 2.0–2.5 s instead of 1.0 s.
 */
const THREADS = Math.min(2, Math.max(1, os.availableParallelism() - 1));

/** The text work failed: it threw, ran past DEADLINE_MS, or its thread died (out of memory). */
export class TextWorkFailure extends Error {
  override readonly name = 'TextWorkFailure';

  constructor(
    readonly kind: TextWorkKind,
    readonly reason: 'deadline' | 'failed',
    cause: unknown,
  ) {
    super(
      reason === 'deadline' ? `${kind} took longer than ${DEADLINE_MS / 1000} s` : `${kind} failed: ${String((cause as Error)?.message)}`,
      { cause },
    );
  }
}

let pool: Piscina<TextTask, unknown> | null = null;

function threads(): Piscina<TextTask, unknown> {
  // Compiled next to this file (dist/…/infrastructure/text-thread.js), as long-reads-thread.js is.
  pool ??= new Piscina<TextTask, unknown>({
    filename: path.join(__dirname, 'text-thread.js'),
    minThreads: 1,
    maxThreads: THREADS,
    maxQueue: MAX_WAITING,
    // A thread that was not needed for a while is let go; the next long text starts one again.
    idleTimeout: 60_000,
  });
  return pool;
}

/**
 * Runs one of the text functions of utils/ (see TEXT_WORK) on a thread of the pool, so that the
 * event loop answers other requests meanwhile; a short text (under INLINE_BELOW) at once on the
 * caller's thread, where it costs less than the trip. A full queue is a 429 (retry in a second);
 * a failure of the work is a TextWorkFailure, which each caller answers in its own way.
 */
export async function textWork<K extends TextWorkKind>(kind: K, text: string): Promise<TextWorkResult<K>> {
  if (text.length < INLINE_BELOW) return runTextTask({ kind, text });
  const running = threads();
  if (running.queueSize >= MAX_WAITING) throw busy();
  try {
    return (await running.run({ kind, text }, { signal: AbortSignal.timeout(DEADLINE_MS) })) as TextWorkResult<K>;
  } catch (error) {
    // Piscina's own words for a full queue (another task may have filled it since the check above).
    if (error instanceof Error && error.message === 'Task queue is at limit') throw busy();
    throw new TextWorkFailure(kind, error instanceof Error && error.name === 'AbortError' ? 'deadline' : 'failed', error);
  }
}

/**
 * A stored content rendered (renderContentHtml), off the event loop when long. Its write rendered
 * it already (the summary is made from the rendered text), so a failure here is a content stored
 * some other way whose markup defeats the renderer: it is shown as escaped text, and the read
 * answered, rather than failed.
 */
export async function renderedContentHtml(content: string, warn: (message: string) => void): Promise<string> {
  try {
    return await textWork('renderContentHtml', content);
  } catch (error) {
    if (!(error instanceof TextWorkFailure)) throw error;
    warn(`[artikel] content shown as text: ${error.message}`);
    return `<pre>${escapeHtml(content)}</pre>`;
  }
}

const busy = (): errors.RateLimitError =>
  new errors.RateLimitError('Too many long articles are being written or converted at once; retry in a second.', {
    retryAfterSeconds: 1,
  });

/** Stops the pool's threads (when the app stops); the next long text starts them again. */
export async function closeTextWork(): Promise<void> {
  const running = pool;
  pool = null;
  await running?.destroy();
}
