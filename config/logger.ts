import { formats, winston } from '@strapi/logger';

// LOG_LEVEL lets tests and benchmarks keep the per-request http lines out of their output.
const level = process.env.LOG_LEVEL ?? 'http';

export default {
  transports: [
    new winston.transports.Console({
      level,
      format: formats.prettyPrint({ timestamps: 'YYYY-MM-DD HH:mm:ss.SSS' }),
    }),
  ],
};
