export interface ArtikelConfig {
  /** The author of an article that names none (environment variable STUDIO_NAME). */
  studioName: string;
}

export default {
  default: (): ArtikelConfig => ({
    studioName: process.env.STUDIO_NAME?.trim() || 'Studio',
  }),
  validator(config: ArtikelConfig) {
    if (typeof config.studioName !== 'string' || config.studioName.trim() === '') {
      throw new Error('artikel: studioName must be a non-empty string');
    }
  },
};
