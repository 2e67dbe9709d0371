// @ts-check
'use strict';

/** The middle value (the mean of the middle two of an even number); NaN for none. */
function median(values) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The item of middle value (the lower middle of an even number): a whole run or round, not a mean of two. */
function middleOf(items, valueOf) {
  return [...items].sort((a, b) => valueOf(a) - valueOf(b))[Math.floor((items.length - 1) / 2)];
}

module.exports = { median, middleOf };
