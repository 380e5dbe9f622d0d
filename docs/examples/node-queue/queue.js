// FoundationDB's Queue recipe (the seed's Python, line for line) written against the real
// Node.js binding. Keys are (index, random suffix) tuples under the subspace ('Q',):
// - enqueue reads the last index with a SNAPSHOT reverse read (no conflict with other enqueues)
//   and writes queue[last + 1][20 random bytes];
// - dequeue reads the first item with a normal read (it conflicts with a rival dequeue) and
//   clears it.
// `randomBytes` is the caller's: the driver draws it from its seed so that runs reproduce.
'use strict';
const fdb = require('foundationdb');

const prefix = fdb.tuple.pack(['Q']);

// last_index: the index of the last item, or 0 when the queue is empty.
async function lastIndex(tn) {
  const last = await tn.snapshot().getRangeAllStartsWith(prefix, { limit: 1, reverse: true });
  return last.length === 0 ? 0 : fdb.tuple.unpack(last[0][0])[1];
}

// first_item: the first [key, value], or null.
async function firstItem(tn) {
  const first = await tn.getRangeAllStartsWith(prefix, { limit: 1 });
  return first.length === 0 ? null : first[0];
}

async function enqueue(tn, value, randomBytes) {
  const index = (await lastIndex(tn)) + 1;
  tn.set(fdb.tuple.pack(['Q', index, randomBytes(20)]), value);
}

async function dequeue(tn) {
  const item = await firstItem(tn);
  if (item === null) return null;
  tn.clear(item[0]);
  return item[1];
}

module.exports = { enqueue, dequeue, prefix };
