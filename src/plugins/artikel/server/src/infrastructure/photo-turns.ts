import { FairTurns } from './fair-turns';

/** Photos one uploader (an editor, a token) may have waiting for their turn before a 429. */
const WAITING_PER_UPLOADER = 20;

let turns: { slots: number; line: FairTurns } | null = null;

/**
 * The turns at decoding photos, per instance: an upload's sizes, metadata and placeholder, and a
 * photo's AVIF and WebP renditions, each take one, so at most `slots` photos are decoded at once
 * (a 24-megapixel photo takes 150–250 MB while it is: six dropped together took the service from
 * 300 to 850 MB). Shared fairly between uploaders (see FairTurns); the renditions are one more.
 * Null when the uploader already has WAITING_PER_UPLOADER photos waiting.
 */
export function inPhotoTurn<T>(slots: number, uploader: string, work: () => Promise<T>): Promise<T> | null {
  if (turns === null || turns.slots !== slots) turns = { slots, line: new FairTurns(slots, WAITING_PER_UPLOADER) };
  return turns.line.run(uploader, work);
}
