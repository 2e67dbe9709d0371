import type { Core } from '@strapi/strapi';
import { oncePerStrapi } from '../infrastructure/once-per-strapi';
import { articleCommands } from './article-commands';
import { draftReads } from './draft-reads';
import { trashCommands } from './trash-commands';

export { adminActor, apiTokenActor, SCHEDULER, SCRIPT, type Actor } from './actor';

/** Every write of the plugin, and the reads of drafts, each given who asks (see docs/ARCHITECTURE.md). */
export const commands = oncePerStrapi((strapi: Core.Strapi) => ({
  articles: articleCommands(strapi),
  trash: trashCommands(strapi),
  drafts: draftReads(strapi),
}));
