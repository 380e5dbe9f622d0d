#!/usr/bin/env python3
"""Histories from other tools (docs/history.md): docs/examples/convert_history.py turns the Jepsen
and the Porcupine example into contend histories that `contend check` reads with the verdicts the
docs give, and turns them back into what they were.

    convert_history_test.py CONTEND_BINARY SOURCE_DIR WORK_DIR
"""

import json
import os
import shutil
import subprocess
import sys

contend, source, work = sys.argv[1:4]
examples = os.path.join(source, "docs", "examples")
sys.path.insert(0, examples)
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import convert_history as ch  # noqa: E402

shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
failures = []


def expect(condition, what, detail=""):
    if not condition:
        failures.append(what + ("\n" + detail if detail else ""))


def run(*args):
    r = subprocess.run(list(args), capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def convert(direction, src, dst):
    code, out, err = run(sys.executable, os.path.join(examples, "convert_history.py"), direction,
                         src, "-o", dst)
    expect(code == 0, "convert_history.py %s %s exited %d" % (direction, src, code), err)
    with open(dst, encoding="utf-8") as f:
        return f.read().splitlines()


# ---- Jepsen: a clean history with a nemesis, a crash (info) and an :error key
jepsen = os.path.join(examples, "histories", "jepsen-queue.edn")
converted = os.path.join(work, "jepsen.jsonl")
lines = convert("jepsen", jepsen, converted)
events = [json.loads(line) for line in lines]
expect(len(events) == 14, "the nemesis's two events are dropped: %d events" % len(events))
expect(all("index" not in e for e in events), "no index: the Jepsen one is no longer dense")
code, out, err = run(contend, "check", converted, "--model", "fifo", "--checker", "all")
expect(code == 0, "contend check of the converted Jepsen history exits %d, not 0" % code,
       out + err)
expect("verdict: linearizable" in out, "the Jepsen history is linearizable", out)
expect(err.count("warning") == 1 and 'ignored unknown key "error"' in err,
       "one warning naming the ignored key", err)
code, out, err = run(contend, "check", converted, "--model", "fifo", "--strict")
expect(code == 2 and 'line 4: unknown field "error"' in err,
       "--strict rejects the unknown key naming its line (exit %d)" % code, err)

back = convert("to-jepsen", converted, os.path.join(work, "jepsen-back.edn"))


def jepsen_ops(text_lines):
    ops = []
    for line in text_lines:
        op = {str(k): v for k, v in ch.read_edn(line).items()}
        if not isinstance(op["process"], int):
            continue
        op.pop("index")
        op["time"] = op["time"] // 1000 * 1000  # contend keeps microseconds
        ops.append(op)
    return ops


with open(jepsen, encoding="utf-8") as f:
    original = jepsen_ops(f.read().splitlines())
expect(jepsen_ops(back) == original, "Jepsen -> contend -> Jepsen gives the history back",
       "\n".join(back))

# ---- Porcupine: clients 0, 3, 7 (not dense), an operation that never returned, a FIFO bug
porcupine = os.path.join(examples, "histories", "porcupine-queue.jsonl")
converted = os.path.join(work, "porcupine.jsonl")
lines = convert("porcupine", porcupine, converted)
events = [json.loads(line) for line in lines]
expect(sorted({e["process"] for e in events}) == [0, 3, 7], "process ids are the client ids")
expect(len(events) == 11, "five operations that returned and one that did not: 11 events")
code, out, err = run(contend, "check", converted, "--model", "fifo", "--checker", "all")
expect(code == 1, "contend check of the Porcupine log exits %d, not 1" % code, out + err)
expect("order_inversion" in out, "the Porcupine log shows an order inversion", out)
expect(err == "", "nothing to warn about", err)
back = convert("to-porcupine", converted, os.path.join(work, "porcupine-back.jsonl"))
with open(porcupine, encoding="utf-8") as f:
    original = [json.loads(line) for line in f.read().splitlines()]
expect([json.loads(line) for line in back] == original,
       "Porcupine -> contend -> Porcupine gives the log back", "\n".join(back))

# ---- a Jepsen drain becomes one dequeue per item and one that found the queue empty
drain = os.path.join(work, "drain.edn")
with open(drain, "w", encoding="utf-8") as f:
    f.write("{:type :invoke, :f :enqueue, :value 1, :process 0, :time 1000}\n"
            "{:type :ok, :f :enqueue, :value 1, :process 0, :time 2000}\n"
            "{:type :invoke, :f :enqueue, :value 2, :process 0, :time 3000}\n"
            "{:type :ok, :f :enqueue, :value 2, :process 0, :time 4000}\n"
            "{:type :invoke, :f :drain, :value nil, :process 1, :time 5000}\n"
            "{:type :ok, :f :drain, :value [1 2], :process 1, :time 9000}\n")
events = [json.loads(line) for line in convert("jepsen", drain, drain + ".jsonl")]
dequeues = [e for e in events if e["f"] == "dequeue" and e["type"] == "ok"]
expect([e["value"] for e in dequeues] == ["1", "2", None], "drain [1 2] -> dequeues 1, 2, empty")
expect(len({e["process"] for e in dequeues}) == 3, "each by a fresh process")
code, out, err = run(contend, "check", drain + ".jsonl", "--model", "fifo", "--drained")
expect(code == 0, "the drained history is linearizable (exit %d)" % code, out + err)

# ---- bad input: a message and exit code 2, never a traceback
bad = os.path.join(work, "bad.edn")
with open(bad, "w", encoding="utf-8") as f:
    f.write("{:type :invoke, :f :enqueue, :value 1, :process 0, :time 1000}\n{:type :ok, :f\n")
code, out, err = run(sys.executable, os.path.join(examples, "convert_history.py"), "jepsen", bad)
expect(code == 2 and "line 2" in err and "Traceback" not in err,
       "malformed EDN: exit 2 naming the line (exit %d)" % code, err)

shutil.rmtree(work, ignore_errors=True)
for failure in failures:
    print("FAILED: " + failure)
print("%d failure(s)" % len(failures))
sys.exit(1 if failures else 0)
