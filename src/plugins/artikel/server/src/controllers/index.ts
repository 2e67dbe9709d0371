import adminViews from './admin-views';
import artikel from './artikel';

export default { 'admin-views': adminViews, artikel };
