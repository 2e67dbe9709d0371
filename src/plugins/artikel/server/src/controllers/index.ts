import adminRevisions from './admin-revisions';
import adminTrash from './admin-trash';
import adminViews from './admin-views';
import artikel from './artikel';

export default { 'admin-revisions': adminRevisions, 'admin-trash': adminTrash, 'admin-views': adminViews, artikel };
