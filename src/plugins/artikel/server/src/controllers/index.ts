import adminRevisions from './admin-revisions';
import adminViews from './admin-views';
import artikel from './artikel';

export default { 'admin-revisions': adminRevisions, 'admin-views': adminViews, artikel };
