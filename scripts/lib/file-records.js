'use strict';

// What the commands read of a Media Library file record (plugin::upload.file).

/** The record's formats as an object (a database may hand JSON back as text), null when it has none. */
function formatsOf(record) {
  const formats = typeof record.formats === 'string' ? JSON.parse(record.formats) : record.formats;
  return formats !== null && typeof formats === 'object' && !Array.isArray(formats) ? formats : null;
}

module.exports = { formatsOf };
