import type { StrapiApp } from '@strapi/strapi/admin';
import { Trash, TrendUp } from '@strapi/icons';
import { PLUGIN_ID } from '../../shared/plugin-id';
import { RevisionsPanel } from './components/RevisionsPanel';
import { SchedulePanel } from './components/SchedulePanel';
import { sayingWhereDeletedArticlesGo, type DocumentAction } from './components/TrashingDeleteAction';
import { ViewsPanel } from './components/ViewsPanel';
import { contentManagerMessages, translateEditViewLayout } from './utils/field-texts';
import { timesToTheMinute } from './utils/minute-times';
import { acceptEitherTimeSeparator } from './utils/time-separators';
import { getTranslation, prefixTranslations } from './utils/get-translation';

export default {
  register(app: StrapiApp) {
    app.registerPlugin({ id: PLUGIN_ID, name: PLUGIN_ID });

    // The trash (issue 36): a page of its own, for every editor who may read articles; restoring
    // and purging are checked by the server against the create and delete permissions.
    app.addMenuLink({
      to: `plugins/${PLUGIN_ID}/trash`,
      icon: Trash,
      intlLabel: { id: getTranslation('trash.menu'), defaultMessage: 'Trash' },
      Component: () => import('./pages/TrashPage'),
      permissions: [{ action: 'plugin::content-manager.explorer.read', subject: 'api::article.article' }],
    });

    // The home page's "most read" widget (issue 33), with Strapi 5's homepage widget API: the list
    // the public API sorts by views, for editors who may read articles, each row to its edit view.
    app.widgets.register({
      id: 'most-read',
      pluginId: PLUGIN_ID,
      icon: TrendUp,
      title: { id: getTranslation('mostRead.title'), defaultMessage: 'Most read' },
      component: async () => (await import('./components/MostReadWidget')).MostReadWidget,
      permissions: [{ action: 'plugin::content-manager.explorer.read', subject: 'api::article.article' }],
    });
  },
  bootstrap(app: StrapiApp) {
    // Views are counted by the public API and kept outside the Article, so the edit view shows
    // them in a side panel instead of an editable field.
    const contentManager = app.getPlugin('content-manager') as unknown as {
      apis: {
        addEditViewSidePanel: (panels: unknown[]) => void;
        addDocumentAction: (change: (actions: DocumentAction[]) => DocumentAction[]) => void;
      };
    };
    // Deleting an article moves it to the trash: its confirmation says so (see TrashingDeleteAction).
    contentManager.apis.addDocumentAction((actions) =>
      actions.map((action) => (action.type === 'delete' ? sayingWhereDeletedArticlesGo(action) : action)),
    );
    // Revisions are kept by the server on every write, so they too sit beside the form rather than in it;
    // when a draft goes live, in the editor's words and time zone, with a way to cancel it (SchedulePanel).
    contentManager.apis.addEditViewSidePanel([SchedulePanel, ViewsPanel, RevisionsPanel]);
    // Field labels and help texts in the editor's language (see utils/field-texts.ts).
    app.registerHook('Admin/CM/pages/EditView/mutate-edit-view-layout', translateEditViewLayout);
    // A publish time to the minute, not the quarter hour (see utils/minute-times.ts), typed with
    // either separator (see utils/time-separators.ts).
    app.registerHook('Admin/CM/pages/EditView/mutate-edit-view-layout', timesToTheMinute);
    acceptEitherTimeSeparator(document);
  },
  async registerTrads({ locales }: { locales: string[] }) {
    return Promise.all(
      locales.map(async (locale) => {
        try {
          const { default: strings } = (await import(`../../shared/translations/${locale}.json`)) as { default: Record<string, string> };
          return { data: { ...contentManagerMessages(strings, locale), ...prefixTranslations(strings) }, locale };
        } catch {
          // A language without a file of its own falls back to the English strings.
          return { data: {}, locale };
        }
      }),
    );
  },
};
