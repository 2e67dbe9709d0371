import adminRevisions from './admin-revisions';
import adminTrash from './admin-trash';
import adminViews from './admin-views';
import articles from './articles';
import publishing from './publishing';
import reference from './reference';
import revisions from './revisions';

export default {
  'admin-revisions': adminRevisions,
  'admin-trash': adminTrash,
  'admin-views': adminViews,
  // Its actions are the API tokens' permissions (plugin::artikel.artikel.create, .update, .delete): the name stays.
  artikel: articles,
  publishing,
  reference,
  revisions,
};
