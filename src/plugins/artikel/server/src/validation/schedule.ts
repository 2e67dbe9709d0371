import { fieldError, textValue, validationError } from './validate';

/**
 * An instant as ISO-8601 with a time zone: a date, a time to the minute or finer, and `Z` or an
 * offset. Without a zone an instant means a different moment on each server (and each client), so
 * it is refused rather than guessed. Anchored, no nested repetition: linear in the input.
 */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/i;

export const PUBLISH_AT_FORMAT = 'publish_at must be an ISO-8601 date and time with a time zone, e.g. 2030-05-04T08:00:00+07:00';

/** `publish_at` of POST and PATCH: when a scheduled article goes live. Must be ahead of now when it is sent. */
export const publishAtRule = () =>
  textValue()
    .test('iso-instant', PUBLISH_AT_FORMAT, (value) => value === undefined || (ISO_INSTANT.test(value) && !Number.isNaN(Date.parse(value))))
    .test(
      'in-the-future',
      'publish_at must be in the future; to publish now, send status "published"',
      (value) => value === undefined || !ISO_INSTANT.test(value) || Date.parse(value) > Date.now(),
    );

/** The statuses a write may ask for: live, off every public read, or live at `publish_at`. */
export const WRITE_STATUSES = ['published', 'draft', 'scheduled'] as const;
export type WriteStatus = (typeof WRITE_STATUSES)[number];

export const STATUS_MESSAGE = 'status must be "published", "draft" or "scheduled"';

/**
 * A schedule needs its time, and a time means a schedule: status "scheduled" without publish_at,
 * or publish_at with another status, is a 400. On PATCH (`aloneMoves`) publish_at alone moves the
 * article's schedule.
 */
export function checkSchedulePairing(input: { status?: WriteStatus; publish_at?: string }, { aloneMoves }: { aloneMoves: boolean }): void {
  if (input.status === 'scheduled' && input.publish_at === undefined) {
    throw validationError([fieldError('publish_at', 'publish_at is required with status "scheduled"')]);
  }
  if (input.publish_at === undefined || input.status === 'scheduled' || (aloneMoves && input.status === undefined)) return;
  const message = aloneMoves
    ? 'publish_at is taken only with status "scheduled" (or alone, to move a schedule)'
    : 'publish_at is taken only with status "scheduled"';
  throw validationError([fieldError('publish_at', message)]);
}
