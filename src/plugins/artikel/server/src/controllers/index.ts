import adminTrash from './admin-trash';
import adminViews from './admin-views';
import artikel from './artikel';

export default { 'admin-trash': adminTrash, 'admin-views': adminViews, artikel };
