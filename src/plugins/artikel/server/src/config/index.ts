export interface ArtikelConfig {
  /** The author of an article that names none (environment variable STUDIO_NAME). */
  studioName: string;
  /** Posts per minute allowed to one API token and to one client address; 0 turns the limit off (ARTIKEL_RATE_LIMIT). */
  postsPerMinute: number;
}

const DEFAULT_POSTS_PER_MINUTE = 60;

function postsPerMinuteFromEnv(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return DEFAULT_POSTS_PER_MINUTE;
  return /^\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
}

export default {
  default: (): ArtikelConfig => ({
    studioName: process.env.STUDIO_NAME?.trim() || 'Studio',
    postsPerMinute: postsPerMinuteFromEnv(process.env.ARTIKEL_RATE_LIMIT),
  }),
  validator(config: ArtikelConfig) {
    if (typeof config.studioName !== 'string' || config.studioName.trim() === '') {
      throw new Error('artikel: studioName must be a non-empty string');
    }
    if (!Number.isSafeInteger(config.postsPerMinute) || config.postsPerMinute < 0) {
      throw new Error('artikel: ARTIKEL_RATE_LIMIT must be a whole number of posts per minute (0 turns the limit off)');
    }
  },
};
