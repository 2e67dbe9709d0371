/** Strapi hands datetimes back as Date, ISO string or epoch milliseconds depending on the driver. */
export function toIsoString(value: unknown): string | null {
  const ms = toEpochMs(value);
  return ms === null ? null : new Date(ms).toISOString();
}

/** A date as the database gives it (a Date, an ISO string, or milliseconds as a number or digits), in milliseconds since 1970; null when it is none. */
export function toEpochMs(value: unknown): number | null {
  if (value === null || value === undefined || value === '') return null;
  const date =
    value instanceof Date ? value : new Date(typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : (value as string | number));
  const ms = date.getTime();
  return Number.isNaN(ms) ? null : ms;
}
