// Many concurrent clients run the seed Queue recipe (queue.js) through FoundationDB's Node.js
// binding and record what they did as a contend history (docs/history.md): one JSON line per
// invocation and completion. Run it on contend's libfdb_c and judge the history:
//   LD_LIBRARY_PATH=<contend>/lib node driver.js --clients 8 --ops 20 --seed 1 --out h.jsonl
//   contend check h.jsonl --model fifo --drained
// Each client's operations, values and random key suffixes come from --seed (a small PRNG, no
// Math.random), and nothing waits on a timer inside a transaction, so with contend's
// deterministic mode (CONTEND_FDB_CONFIG with deterministic = true) a run reproduces.
// After the clients, one more process dequeues until the queue is empty (hence --drained).
'use strict';
const fs = require('fs');
const fdb = require('foundationdb');
const queue = require('./queue');

function args() {
  const out = { clients: 8, ops: 20, seed: 1, out: 'history.jsonl' };
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i].replace(/^--/, '');
    if (!(name in out) || i + 1 >= argv.length) {
      console.error(`driver.js: unknown or incomplete option ${argv[i]}` +
                    ' (--clients N --ops N --seed N --out FILE)');
      process.exit(2);
    }
    out[name] = name === 'out' ? argv[i + 1] : Number(argv[i + 1]);
    if (name !== 'out' && !(Number.isInteger(out[name]) && out[name] >= 0)) {
      console.error(`driver.js: --${name} wants a non-negative integer, not ${argv[i + 1]}`);
      process.exit(2);
    }
  }
  return out;
}

// mulberry32: a small seeded generator, one per client.
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const started = process.hrtime.bigint();
const events = [];
function record(type, process, f, value) {
  const time = Number((process_time() - started) / 1000n);
  events.push({ type, process, time, f, value });
}
function process_time() { return process.hrtime.bigint(); }

async function client(db, id, ops, seed) {
  const random = generator(seed * 1000003 + id);
  const randomBytes = n => Buffer.from(Array.from({ length: n }, () => Math.floor(random() * 256)));
  for (let i = 0; i < ops; ++i) {
    if (random() < 0.5) {
      const value = `c${id}-${i}`;
      record('invoke', id, 'enqueue', value);
      await db.doTransaction(tn => queue.enqueue(tn, value, randomBytes));
      record('ok', id, 'enqueue', value);
    } else {
      record('invoke', id, 'dequeue', null);
      const value = await db.doTransaction(tn => queue.dequeue(tn));
      record('ok', id, 'dequeue', value === null ? null : value.toString());
    }
  }
}

async function main() {
  const o = args();
  fdb.setAPIVersion(630);
  const db = fdb.open();
  await db.doTransaction(tn => tn.clearRangeStartsWith(queue.prefix));
  const clients = [];
  for (let id = 0; id < o.clients; ++id) clients.push(client(db, id, o.ops, o.seed));
  await Promise.all(clients);
  // Drain, as one more process: the history then ends with the queue empty.
  const drainer = o.clients;
  for (;;) {
    record('invoke', drainer, 'dequeue', null);
    const value = await db.doTransaction(tn => queue.dequeue(tn));
    record('ok', drainer, 'dequeue', value === null ? null : value.toString());
    if (value === null) break;
  }
  fs.writeFileSync(o.out, events.map(e => JSON.stringify(e)).join('\n') + '\n');
  console.log(`driver.js: ${events.length / 2} operations by ${o.clients} clients and a drainer` +
              ` -> ${o.out}`);
  db.close();
  fdb.stopNetworkSync();
}

main().catch(e => {
  console.error('driver.js:', e);
  process.exit(1);
});
