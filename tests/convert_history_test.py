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
    if code != 0:
        return []
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

# ---- division keeps every order: an enqueue that returned before a dequeue was called stays
# before it, though both land on one microsecond (a logical clock; ns apart in Jepsen). Before,
# they read as concurrent and the empty answer passed.
logical = os.path.join(work, "logical.jsonl")
with open(logical, "w", encoding="utf-8") as f:
    f.write('{"ClientId": 0, "Input": {"Op": "enqueue", "Value": "a"}, "Call": 1, "Return": 2}\n'
            '{"ClientId": 1, "Input": {"Op": "dequeue"}, "Call": 3, "Output": null, "Return": 4}\n')
close = os.path.join(work, "close.edn")
with open(close, "w", encoding="utf-8") as f:
    f.write("{:type :invoke, :f :enqueue, :value 1, :process 0, :time 1000100}\n"
            "{:type :ok, :f :enqueue, :value 1, :process 0, :time 1000200}\n"
            "{:type :invoke, :f :dequeue, :value nil, :process 1, :time 1000300}\n"
            "{:type :ok, :f :dequeue, :value nil, :process 1, :time 1000400}\n")
for direction, src in (("porcupine", logical), ("jepsen", close)):
    code, out, err = run(sys.executable, os.path.join(examples, "convert_history.py"), direction,
                         src, "-o", src + ".out")
    expect(code == 0 and "2 time(s) moved forward, by 1 microsecond(s)" in err,
           "%s: the dequeue's times move one microsecond on, and it says so" % direction, err)
    with open(src + ".out", encoding="utf-8") as f:
        times = [json.loads(line)["time"] for line in f.read().splitlines()]
    expect(times == [times[0], times[0], times[0] + 1, times[0] + 1],
           "%s: the enqueue at one time, the dequeue at the next: %s" % (direction, times))
    code, out, err = run(contend, "check", src + ".out", "--model", "fifo")
    expect(code == 1 and "violation" in out,
           "%s: the empty answer after the enqueue is a violation (exit %d)" % (direction, code),
           out + err)

# ---- a history printed whole: one vector of records, with a comment and a discarded form,
# converts to what the same history written one map per line does
with open(jepsen, encoding="utf-8") as f:
    per_line = f.read().splitlines()
whole = os.path.join(work, "whole.edn")
with open(whole, "w", encoding="utf-8") as f:
    f.write("; printed by (prn (:history test))\n[" + "\n ".join(
        "#jepsen.history.Op" + line for line in per_line) +
        "\n #_{:type :ok, :f :enqueue, :value 9, :process 5, :time 1}]\n")
expect(convert("jepsen", whole, whole + ".jsonl") == convert("jepsen", jepsen, converted),
       "a vector of #jepsen.history.Op records converts as the per-line history does")

# ---- bad input: a message naming the line and the field, exit code 2, never a traceback
OP = "{:type :invoke, :f :enqueue, :value 1, :process 0, :time 1000}\n"
PORCUPINE = '{"ClientId": 0, "Input": {"Op": "enqueue", "Value": "a"}, "Call": 1, "Return": 9}\n'
EVENT = '{"type": "invoke", "process": 0, "time": 1, "f": "enqueue", "value": "a"}\n'
PUSH = '"push", "value": {"value": "a", "priority": 1}'


def porcupine_with(old, new_):
    return PORCUPINE.replace(old, new_)


def event_with(old, new_):
    return EVENT.replace(old, new_)


malformed = [  # direction, input, what the message says after the file's name
    ("jepsen", OP + "{:type :ok, :f\n", "line 2: unclosed {"),
    ("jepsen", OP + "]\n", "line 2: ] closes nothing"),
    ("jepsen", OP.replace(":time 1000", ':time "1000"'),
     'line 1: :time must be a whole number, got "1000"'),
    ("jepsen", OP.replace(":time 1000", ":time 1.5"),
     "line 1: :time must be a whole number, got 1.5"),
    ("jepsen", OP.replace(":invoke", ":bogus"),
     "line 1: :type must be one of :invoke, :ok, :fail, :info, got :bogus"),
    ("jepsen", OP.replace(":process 0", ":process 99999999999999999999"),
     "line 1: :process 99999999999999999999 does not fit in 64 bits"),
    ("jepsen", OP.replace(":value 1", ":value {:a 1}"),
     "line 1: a queue item must be an integer or a string, got {:a 1}"),
    ("jepsen", OP + "{:type :ok, :f :drain, :value 7, :process 1, :time 2000}\n",
     "line 2: a drain's :ok :value is the items it took (a vector), got 7"),
    ("jepsen", "{[1] 2, :type :ok}\n", "line 1: a map key that is a collection"),
    ("jepsen", OP + '"an op"\n',
     'line 2: expected an EDN map (one operation event), got "an op"'),
    ("porcupine", porcupine_with('"Return": 9', '"Return": "x"'),
     'line 1: Return must be a whole number, got "x"'),
    ("porcupine", porcupine_with('"ClientId": 0', '"ClientId": true'),
     "line 1: ClientId must be a whole number, got true"),
    ("porcupine", porcupine_with('"Value": "a"', '"Priority": 1'),
     "line 1: a queue item must be an integer or a string, got null"),
    ("porcupine", porcupine_with('"enqueue", "Value": "a"',
                                 '"push", "Value": "a", "Priority": 1.5'),
     "line 1: Priority must be a whole number, got 1.5"),
    ("porcupine", porcupine_with('"Op": "enqueue", "Value": "a"}',
                                 '"Op": "pop_min"}, "Output": {"Value": "a", "Priority": [1]}'),
     "line 1: Priority must be a whole number, got [1]"),
    ("to-jepsen", EVENT + event_with('"process": 0, ', ""), 'line 2: no "process"'),
    ("to-jepsen", "[1, 2]\n", "line 1: expected a JSON object (one history event), got [1, 2]"),
    ("to-jepsen", event_with('"a"', '{"a": 1}'), 'line 1: a FIFO item is a string, got {"a": 1}'),
    ("to-jepsen", event_with('"enqueue", "value": "a"', PUSH),
     "line 1: push is not a FIFO operation"),
    ("to-porcupine", event_with('"time": 1', '"time": "x"'),
     'line 1: "time" must be a whole number, got "x"'),
    ("to-porcupine", event_with('"enqueue", "value": "a"', '"push", "value": {"value": "a"}'),
     'line 1: a priority-queue item is {"value": string, "priority": integer}, got '
     '{"value": "a"}'),
    ("to-porcupine", event_with('"invoke"', '"ok"'), "line 1: a completion without an invocation"),
]
bad = os.path.join(work, "bad.txt")
for direction, text, message in malformed:
    with open(bad, "w", encoding="utf-8") as f:
        f.write(text)
    code, out, err = run(sys.executable, os.path.join(examples, "convert_history.py"), direction,
                         bad)
    expect(code == 2 and "bad.txt: " + message in err and "Traceback" not in err and out == "",
           "%s of %r: exit 2 saying %r (exit %d)" % (direction, text, message, code), err)
with open(bad, "wb") as f:
    f.write(b"\xff\xfe")
code, out, err = run(sys.executable, os.path.join(examples, "convert_history.py"), "jepsen", bad)
expect(code == 2 and "can't decode byte 0xff" in err and "Traceback" not in err,
       "a file that is not UTF-8: exit 2 (exit %d)" % code, err)

shutil.rmtree(work, ignore_errors=True)
for failure in failures:
    print("FAILED: " + failure)
print("%d failure(s)" % len(failures))
sys.exit(1 if failures else 0)
