import type { StrapiApp } from '@strapi/strapi/admin';
import { ViewsPanel } from './components/ViewsPanel';

export default {
  register(app: StrapiApp) {
    app.registerPlugin({ id: 'artikel', name: 'Artikel' });
  },
  bootstrap(app: StrapiApp) {
    // Views are counted by the public API and kept outside the Article, so the edit view shows
    // them in a side panel instead of an editable field.
    const contentManager = app.getPlugin('content-manager') as unknown as {
      apis: { addEditViewSidePanel: (panels: unknown[]) => void };
    };
    contentManager.apis.addEditViewSidePanel([ViewsPanel]);
  },
};
