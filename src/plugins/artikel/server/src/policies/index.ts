import editorMay from './editor-may';

export default { 'editor-may': editorMay };
