#!/usr/bin/env python3
"""Convert queue histories from other tools to contend's JSON lines, and back.

    convert_history.py jepsen    history.edn   > history.jsonl   # a Jepsen queue history
    convert_history.py porcupine ops.jsonl     > history.jsonl   # a Porcupine-style operation log
    convert_history.py to-jepsen    history.jsonl > history.edn  # and back (round trips)
    convert_history.py to-porcupine history.jsonl > ops.jsonl

then `contend check history.jsonl --model fifo`. Python 3 standard library only. See
docs/history.md, "Histories from other tools", for what each conversion keeps and why.

Jepsen: one EDN map per line, as jepsen.history writes history.edn:
    {:type :invoke, :f :enqueue, :value 3, :process 0, :time 1200000, :index 0}
  - times are nanoseconds; contend's are microseconds (divided by --time-divisor, 1000);
  - events of processes that are not integers (:nemesis) are dropped, and with them `index`
    (the rest are no longer dense; contend takes line order as the order);
  - :enqueue and :dequeue map to enqueue/dequeue; items become strings ("3");
  - a :drain that returned items [a b ...] becomes one dequeue per item plus one that found the
    queue empty, each by a fresh process over the drain's whole interval: the order among them
    is given up, which can hide a violation but never invent one. A drain without an :ok is
    dropped with a warning (the items it took would read as lost);
  - other keys (:error, ...) are kept as JSON keys, which `contend check` ignores with a warning.
Porcupine: one JSON object per line, as Go's encoding/json writes porcupine.Operation:
    {"ClientId": 1, "Input": {"Op": "enqueue", "Value": "a"}, "Call": 100, "Output": null,
     "Return": 250}
  - Op is a contend operation name (enqueue, dequeue, push, pop_min, ...); Input carries
    "Priority" for a push, Output is the item a remove returned ({"Value", "Priority"} for a
    priority queue) or null when it found the queue empty;
  - an operation whose Return is null or missing never returned: its completion is `info`, and
    the client's later operations continue under a fresh process id (contend's and Jepsen's rule);
  - each operation becomes an invocation at Call and an ok completion at Return, in time order.
"""

import argparse
import json
import re
import sys

FIFO = ("enqueue", "dequeue")
INSERTS = ("enqueue", "push")


class ConvertError(Exception):
    pass


# ---- a small EDN reader: maps, vectors, lists, sets, keywords, numbers, strings, nil/true/false


class Keyword(str):
    """An EDN keyword, without its colon."""


_TOKEN = re.compile(r'\s*(?:,\s*)*(#\{|[{}\[\]()]|"(?:[^"\\]|\\.)*"|[^\s,{}\[\]()"]+)')


def read_edn(text):
    tokens = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            if text[pos:].strip(" \t\r\n,") == "":
                break
            raise ConvertError("unreadable EDN near %r" % text[pos:pos + 20])
        tokens.append(m.group(1))
        pos = m.end()
    value, rest = _edn_value(tokens, 0)
    if rest != len(tokens):
        raise ConvertError("more than one EDN value on a line")
    return value


def _edn_value(tokens, i):
    if i >= len(tokens):
        raise ConvertError("unexpected end of EDN")
    t = tokens[i]
    closing = {"{": "}", "[": "]", "(": ")", "#{": "}"}
    if t in closing:
        items = []
        i += 1
        while i < len(tokens) and tokens[i] != closing[t]:
            v, i = _edn_value(tokens, i)
            items.append(v)
        if i >= len(tokens):
            raise ConvertError("unclosed %s" % t)
        if t == "{":
            if len(items) % 2:
                raise ConvertError("a map with an odd number of forms")
            return dict(zip(items[0::2], items[1::2])), i + 1
        return items, i + 1
    if t.startswith('"'):
        return json.loads(t), i + 1
    if t.startswith(":"):
        return Keyword(t[1:]), i + 1
    if t == "nil":
        return None, i + 1
    if t in ("true", "false"):
        return t == "true", i + 1
    if re.fullmatch(r"[-+]?\d+N?", t):
        return int(t.rstrip("N")), i + 1
    if re.fullmatch(r"[-+]?\d+\.\d*(e[-+]?\d+)?M?|[-+]?\d+e[-+]?\d+", t):
        return float(t.rstrip("M")), i + 1
    return Keyword(t), i + 1  # a symbol; kept as its name


def write_edn(value):
    if value is None:
        return "nil"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Keyword):
        return ":" + value
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + " ".join(write_edn(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(write_edn(k) + " " + write_edn(v) for k, v in value.items()) + "}"
    raise ConvertError("cannot write %r as EDN" % (value,))


# Extra keys travel through contend's JSON as JSON: keywords as ":name" strings.
def edn_to_json(value):
    if isinstance(value, Keyword):
        return ":" + value
    if isinstance(value, list):
        return [edn_to_json(v) for v in value]
    if isinstance(value, dict):
        return {str(edn_to_json(k)): edn_to_json(v) for k, v in value.items()}
    return value


def json_to_edn(value):
    if isinstance(value, str) and value.startswith(":"):
        return Keyword(value[1:])
    if isinstance(value, list):
        return [json_to_edn(v) for v in value]
    if isinstance(value, dict):
        return {json_to_edn(k): json_to_edn(v) for k, v in value.items()}
    return value


def item_text(value):
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise ConvertError("a queue item must be an integer or a string, got %s" % write_edn(value))
    return str(value)


def item_edn(text):
    return int(text) if re.fullmatch(r"-?[1-9]\d*|0", text) else text


def event(type_, process, time, f, value, extra=None):
    e = {"type": type_, "process": process, "time": time, "f": f, "value": value}
    e.update(extra or {})
    return e


# ---- Jepsen -> contend


def from_jepsen(lines, divisor, warn):
    ops = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            op = read_edn(line)
        except ConvertError as e:
            raise ConvertError("line %d: %s" % (n, e))
        if not isinstance(op, dict):
            raise ConvertError("line %d: expected an EDN map" % n)
        ops.append((n, {str(k): v for k, v in op.items()}))
    processes = [op["process"] for _, op in ops
                 if isinstance(op.get("process"), int) and not isinstance(op["process"], bool)]
    fresh = max(processes, default=-1) + 1
    out = []  # events, and for each drain a list its invocations go into, at the drain's place
    drains = {}  # process -> (the drain invocation's time, its list in `out`)
    for n, op in ops:
        process = op.get("process")
        if not isinstance(process, int) or isinstance(process, bool):
            continue  # :nemesis and the like
        for key in ("type", "f", "time"):
            if key not in op:
                raise ConvertError("line %d: no :%s" % (n, key))
        type_, f = str(op["type"]), str(op["f"])
        time = op["time"] // divisor
        extra = {k: edn_to_json(v) for k, v in op.items()
                 if k not in ("type", "f", "value", "process", "time", "index")}
        value = op.get("value")
        if f == "drain":
            if type_ == "invoke":
                drains[process] = (time, [])
                out.append(drains[process][1])
            elif type_ == "ok":
                start, invocations = drains.pop(process, (time, out))
                for item in list(value or []) + [None]:
                    invocations.append(event("invoke", fresh, start, "dequeue", None))
                    out.append(event("ok", fresh, time, "dequeue",
                                     None if item is None else item_text(item)))
                    fresh += 1
            else:
                drains.pop(process, None)
                warn("line %d: a drain that completed %s is dropped; the items it took will read "
                     "as lost" % (n, type_))
            continue
        if f not in FIFO:
            raise ConvertError("line %d: :f :%s is not a queue operation (enqueue, dequeue, drain)"
                               % (n, f))
        if f == "enqueue":
            value = item_text(value)
        else:
            value = item_text(value) if type_ == "ok" and value is not None else None
        out.append(event(type_, process, time, f, value, extra))
    return [e for x in out for e in (x if isinstance(x, list) else [x])]


def to_jepsen(events, divisor):
    out = []
    for i, e in enumerate(events):
        value = e.get("value")
        if e["f"] not in FIFO:
            raise ConvertError("event %d: %s is not a FIFO operation" % (i, e["f"]))
        op = {Keyword("type"): Keyword(e["type"]), Keyword("f"): Keyword(e["f"]),
              Keyword("value"): None if value is None else item_edn(value),
              Keyword("process"): e["process"], Keyword("time"): e["time"] * divisor,
              Keyword("index"): i}
        for k, v in e.items():
            if k not in ("index", "type", "process", "time", "f", "value"):
                op[Keyword(k)] = json_to_edn(v)
        out.append(write_edn(op))
    return out


# ---- Porcupine -> contend


def porcupine_item(f, body, priority_key="Priority", value_key="Value"):
    if f in FIFO:
        return body if body is None else item_text(body)
    if body is None:
        return None
    if not isinstance(body, dict) or value_key not in body or priority_key not in body:
        raise ConvertError("a priority-queue item is {\"Value\": ..., \"Priority\": ...}")
    return {"value": item_text(body[value_key]), "priority": int(body[priority_key])}


def from_porcupine(lines, divisor):
    ops = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            op = json.loads(line)
        except ValueError as e:
            raise ConvertError("line %d: not JSON: %s" % (n, e))
        if not isinstance(op, dict) or not isinstance(op.get("Input"), dict):
            raise ConvertError("line %d: expected an object with ClientId, Input, Call, Output, "
                               "Return" % n)
        for key in ("ClientId", "Call"):
            if not isinstance(op.get(key), int):
                raise ConvertError("line %d: %s must be an integer" % (n, key))
        f = op["Input"].get("Op")
        if f not in ("enqueue", "dequeue", "push", "pop_min", "peek_min", "pop_max", "peek_max"):
            raise ConvertError("line %d: Input.Op %r is not a queue operation" % (n, f))
        ops.append((n, op, f))
    fresh = max((op["ClientId"] for _, op, _ in ops), default=-1) + 1
    process_of = {}  # client -> its current process id
    crashed = set()
    timed = []  # (time, rank, sequence, event)
    for seq, (n, op, f) in enumerate(sorted(ops, key=lambda x: (x[1]["Call"], x[0]))):
        client = op["ClientId"]
        if client in crashed:  # its last operation never returned: continue under a new id
            crashed.discard(client)
            process_of[client] = fresh
            fresh += 1
        process = process_of.setdefault(client, client)
        inp = op["Input"]
        if f in INSERTS:
            item = porcupine_item(f, {"Value": inp.get("Value"), "Priority": inp.get("Priority")}
                                  if f == "push" else inp.get("Value"))
            result = item
        else:
            item = None
            result = porcupine_item(f, op.get("Output"))
        call = op["Call"] // divisor
        timed.append((call, 1, seq, event("invoke", process, call, f, item)))
        if op.get("Return") is None:  # no completion: contend reads it as info
            crashed.add(client)
            continue
        ret = op["Return"] // divisor
        if ret < call:
            raise ConvertError("line %d: Return is before Call" % n)
        # At one time: completions of earlier calls, then invocations, then zero-length ones.
        timed.append((ret, 0 if ret > call else 2, seq, event("ok", process, ret, f, result)))
    timed.sort(key=lambda t: t[:3])
    return [t[3] for t in timed]


def to_porcupine(events, divisor):
    open_ops = {}
    ops = []
    for i, e in enumerate(events):
        if e["type"] == "invoke":
            op = {"ClientId": e["process"], "Input": {"Op": e["f"]}, "Call": e["time"] * divisor,
                  "Output": None, "Return": None}
            value = e.get("value")
            if isinstance(value, dict):
                op["Input"].update({"Value": item_edn(value["value"]),
                                    "Priority": value["priority"]})
            elif value is not None:
                op["Input"]["Value"] = value
            open_ops[e["process"]] = op
            ops.append(op)
            continue
        op = open_ops.pop(e["process"], None)
        if op is None:
            raise ConvertError("event %d: a completion without an invocation" % i)
        if e["type"] == "fail":
            ops.remove(op)  # it did not take effect; Porcupine has no failed operations
        elif e["type"] == "ok":
            op["Return"] = e["time"] * divisor
            if e["f"] not in INSERTS:
                value = e.get("value")
                op["Output"] = ({"Value": value["value"], "Priority": value["priority"]}
                                if isinstance(value, dict) else value)
    for op in ops:  # Go's field order
        if op["Return"] is None:
            del op["Return"]
    return [json.dumps(op) for op in ops]


def read_contend(lines):
    events = []
    for n, line in enumerate(lines, 1):
        if line.strip():
            try:
                events.append(json.loads(line))
            except ValueError as e:
                raise ConvertError("line %d: not JSON: %s" % (n, e))
    return events


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("direction", choices=["jepsen", "porcupine", "to-jepsen", "to-porcupine"])
    parser.add_argument("input", help="the history to convert ('-' for standard input)")
    parser.add_argument("-o", "--output", help="write here instead of standard output")
    parser.add_argument("--time-divisor", type=int, default=1000,
                        help="the input's time units per contend microsecond (default 1000: ns)")
    args = parser.parse_args(argv)
    if args.time_divisor < 1:
        parser.error("--time-divisor must be positive")

    def warn(message):
        print("convert_history: %s" % message, file=sys.stderr)

    try:
        with (sys.stdin if args.input == "-" else open(args.input, encoding="utf-8")) as f:
            lines = f.read().splitlines()
        if args.direction == "jepsen":
            out = [json.dumps(e) for e in from_jepsen(lines, args.time_divisor, warn)]
        elif args.direction == "porcupine":
            out = [json.dumps(e) for e in from_porcupine(lines, args.time_divisor)]
        elif args.direction == "to-jepsen":
            out = to_jepsen(read_contend(lines), args.time_divisor)
        else:
            out = to_porcupine(read_contend(lines), args.time_divisor)
    except (OSError, ConvertError) as e:
        print("convert_history: %s: %s" % (args.input, e), file=sys.stderr)
        return 2
    text = "".join(line + "\n" for line in out)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
