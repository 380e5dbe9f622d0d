#!/usr/bin/env python3
"""Convert queue histories from other tools to contend's JSON lines, and back.

    convert_history.py jepsen    history.edn   > history.jsonl   # a Jepsen queue history
    convert_history.py porcupine ops.jsonl     > history.jsonl   # a Porcupine-style operation log
    convert_history.py to-jepsen    history.jsonl > history.edn  # and back (round trips)
    convert_history.py to-porcupine history.jsonl > ops.jsonl

then `contend check history.jsonl --model fifo`. Python 3 standard library only. See
docs/history.md, "Histories from other tools", for what each conversion keeps and why.

Jepsen: one EDN map per operation event, as history.edn holds them, or the history printed whole
as one vector of them; records (#jepsen.history.Op{...}) read as maps, comments (;) and discarded
forms (#_) are skipped:
    {:type :invoke, :f :enqueue, :value 3, :process 0, :time 1200000, :index 0}
  - times are nanoseconds; contend's are microseconds (divided by --time-divisor, 1000, keeping
    every order: divide_times);
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
  - each operation becomes an invocation at Call and an ok completion at Return, in time order
    (times divided as for Jepsen, every order kept).
Back (to-jepsen, to-porcupine): times multiplied by the divisor, so a round trip gives the input
back, except times divide_times moved (their order is kept, their values are not).
Input of another shape (a :time that is not a whole number, a :type other than :invoke, :ok, :fail
or :info, a Priority that is not an integer, ...) is refused with exit status 2 and a message naming
the line and the field; nothing is written.
"""

import argparse
import json
import re
import sys

FIFO = ("enqueue", "dequeue")
OPERATIONS = FIFO + ("push", "pop_min", "peek_min", "pop_max", "peek_max")
TYPES = ("invoke", "ok", "fail", "info")
INSERTS = ("enqueue", "push")


class ConvertError(Exception):
    pass


# ---- a small EDN reader: maps, vectors, lists, sets, keywords, numbers, strings, nil/true/false,
# comments (;), discarded forms (#_) and tagged elements (#jepsen.history.Op {...} reads as the map)


class Keyword(str):
    """An EDN keyword, without its colon."""


_TOKEN = re.compile(r'(#\{|#_|[{}\[\]()]|"(?:[^"\\]|\\.)*"|#[^\s,{}\[\]()"#;]+|[^\s,{}\[\]()"#;]+)',
                    re.DOTALL)
_SPACE = re.compile(r'(?:[\s,]|;[^\n]*)*')
_CLOSING = {"{": "}", "[": "]", "(": ")", "#{": "}"}


def _edn_tokens(text):
    """The tokens of `text`, each with the line it starts on."""
    tokens = []
    pos, line = 0, 1
    while True:
        space = _SPACE.match(text, pos)
        line += text.count("\n", pos, space.end())
        pos = space.end()
        if pos >= len(text):
            return tokens
        m = _TOKEN.match(text, pos)
        if not m:
            raise ConvertError("line %d: unreadable EDN near %r" % (line, text[pos:pos + 20]))
        tokens.append((m.group(1), line))
        line += m.group(1).count("\n")
        pos = m.end()


def read_edn_forms(text):
    """Every top-level form of `text`, as (the line it starts on, its value)."""
    tokens = _edn_tokens(text)
    forms = []
    i = 0
    while i < len(tokens):
        line = tokens[i][1]
        value, i = _edn_value(tokens, i)
        if value is not _DISCARDED:
            forms.append((line, value))
    return forms


def read_edn(text):
    """The one EDN value `text` holds."""
    forms = read_edn_forms(text)
    if len(forms) != 1:
        raise ConvertError("expected one EDN value, found %d" % len(forms))
    return forms[0][1]


_DISCARDED = object()  # what #_ reads as: no value at all


def _edn_value(tokens, i):
    if i >= len(tokens):
        raise ConvertError("line %d: unexpected end of EDN" % tokens[-1][1] if tokens else
                           "no EDN value")
    t, line = tokens[i]
    if t == "#_":
        _, i = _edn_value(tokens, i + 1)
        return _DISCARDED, i
    if t.startswith("#") and t != "#{":  # a tagged element: the tag names a type; keep the value
        return _edn_value(tokens, i + 1)
    if t in _CLOSING:
        return _edn_collection(tokens, i)
    if t in ("}", "]", ")"):
        raise ConvertError("line %d: %s closes nothing" % (line, t))
    if t.startswith('"'):
        return json.loads(t, strict=False), i + 1
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


def _edn_collection(tokens, i):
    opening, line = tokens[i]
    items = []
    i += 1
    while i < len(tokens) and tokens[i][0] != _CLOSING[opening]:
        v, i = _edn_value(tokens, i)
        if v is not _DISCARDED:
            items.append(v)
    if i >= len(tokens):
        raise ConvertError("line %d: unclosed %s" % (line, opening))
    if opening != "{":
        return items, i + 1
    if len(items) % 2:
        raise ConvertError("line %d: a map with an odd number of forms" % line)
    if any(isinstance(k, (list, dict)) for k in items[0::2]):
        raise ConvertError("line %d: a map key that is a collection" % line)
    return dict(zip(items[0::2], items[1::2])), i + 1


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


def shown(value, write):
    """`value` as the input spelled it, cut short for a message."""
    try:
        text = write(value)
    except (ConvertError, TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def write_edn_brief(value):
    return shown(value, write_edn)


def whole_number(value, what, write):
    """`value` if it is a whole number that fits in 64 bits, as contend's histories hold."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConvertError("%s must be a whole number, got %s" % (what, shown(value, write)))
    if not -2**63 <= value < 2**63:
        raise ConvertError("%s %d does not fit in 64 bits" % (what, value))
    return value


def item_text(value, write=write_edn):
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise ConvertError("a queue item must be an integer or a string, got %s"
                           % shown(value, write))
    return str(value)


def item_edn(text):
    return int(text) if re.fullmatch(r"-?[1-9]\d*|0", text) else text


def event(type_, process, time, f, value, extra=None):
    e = {"type": type_, "process": process, "time": time, "f": f, "value": value}
    e.update(extra or {})
    return e


def at_line(n, convert, *args):
    """convert(*args), its ConvertError prefixed with the input line it came from."""
    try:
        return convert(*args)
    except ConvertError as e:
        raise ConvertError("line %d: %s" % (n, e))


def divide_times(events, divisor, warn):
    """The events (in time order, times in the input's units) with their times divided by
    `divisor` into contend's microseconds, keeping every real-time order the input has: a time
    that division would make equal to that of a completion before it, while an invocation
    happens at it, is moved forward to one microsecond after that completion (and the times
    after it as far as they must, to stay in order). Otherwise the two operations would read as
    concurrent — with a logical clock (times 1, 2, 3, ...) every operation would, and no
    violation could be seen. Equal input times stay equal. Says, through `warn`, how many times
    moved and how far."""
    invoked = {e["time"] for e in events if e["type"] == "invoke"}
    completed = {e["time"] for e in events if e["type"] != "invoke"}
    divided = {}
    previous = last_completion = None
    for t in sorted(invoked | completed):
        d = t // divisor
        if previous is not None:
            d = max(d, previous)
        if t in invoked and last_completion is not None:
            d = max(d, last_completion + 1)
        divided[t] = previous = d
        if t in completed:
            last_completion = d
    moved = [divided[t] - t // divisor for t in divided if divided[t] != t // divisor]
    if moved:
        warn("%d time(s) moved forward, by %d microsecond(s) at most, so that no completion and "
             "invocation in order in the input read as concurrent (--time-divisor %d)"
             % (len(moved), max(moved), divisor))
    for e in events:
        e["time"] = divided[e["time"]]
    return events


# ---- Jepsen -> contend


def jepsen_ops(text):
    """The operation maps of a Jepsen history, each with its line: one map per event (history.edn),
    or one vector or list of them (a history printed whole), records (#jepsen.history.Op{...})
    read as maps."""
    ops = []
    for line, form in read_edn_forms(text):
        for op in (form if isinstance(form, list) else [form]):
            if not isinstance(op, dict):
                raise ConvertError("line %d: expected an EDN map (one operation event), got %s"
                                   % (line, write_edn_brief(op)))
            ops.append((line, {str(k): v for k, v in op.items()}))
    return ops


def is_client(process):
    return isinstance(process, int) and not isinstance(process, bool)


def jepsen_fields(op):
    """The type, f and time (in the input's units) of a client's operation map."""
    for key in ("type", "f", "time"):
        if key not in op:
            raise ConvertError("no :%s" % key)
    type_, f = op["type"], op["f"]
    if not isinstance(type_, Keyword) or type_ not in TYPES:
        raise ConvertError(":type must be one of :invoke, :ok, :fail, :info, got %s"
                           % write_edn_brief(type_))
    if not isinstance(f, Keyword):
        raise ConvertError(":f must be a keyword, got %s" % write_edn_brief(f))
    whole_number(op["process"], ":process", write_edn)
    time = whole_number(op["time"], ":time", write_edn)
    return str(type_), str(f), time


class JepsenConversion:
    """Jepsen's client operations, one at a time, into contend's events."""

    def __init__(self, ops, warn):
        self.warn = warn
        self.fresh = max((op["process"] for _, op in ops if is_client(op.get("process"))),
                         default=-1) + 1
        self.out = []  # events, and for each drain a list its invocations go into, at its place
        self.drains = {}  # process -> (the drain invocation's time, its list in `out`)

    def add(self, op):
        process = op["process"]
        type_, f, time = jepsen_fields(op)
        value = op.get("value")
        if f == "drain":
            return self.add_drain(process, type_, time, value)
        if f not in FIFO:
            raise ConvertError(":f :%s is not a queue operation (enqueue, dequeue, drain)" % f)
        if f == "enqueue":
            value = item_text(value)
        else:
            value = item_text(value) if type_ == "ok" and value is not None else None
        extra = {k: edn_to_json(v) for k, v in op.items()
                 if k not in ("type", "f", "value", "process", "time", "index")}
        self.out.append(event(type_, process, time, f, value, extra))

    def add_drain(self, process, type_, time, value):
        if type_ == "invoke":
            self.drains[process] = (time, [])
            self.out.append(self.drains[process][1])
        elif type_ == "ok":
            if value is not None and not isinstance(value, list):
                raise ConvertError("a drain's :ok :value is the items it took (a vector), got %s"
                                   % write_edn_brief(value))
            start, invocations = self.drains.pop(process, (time, self.out))
            for item in list(value or []) + [None]:
                invocations.append(event("invoke", self.fresh, start, "dequeue", None))
                self.out.append(event("ok", self.fresh, time, "dequeue",
                                      None if item is None else item_text(item)))
                self.fresh += 1
        else:
            self.drains.pop(process, None)
            self.warn("a drain that completed %s is dropped; the items it took will read as lost"
                      % type_)

    def events(self):
        return [e for x in self.out for e in (x if isinstance(x, list) else [x])]


def from_jepsen(text, divisor, warn):
    ops = jepsen_ops(text)
    conversion = JepsenConversion(ops, None)
    for n, op in ops:
        if not is_client(op.get("process")):
            continue  # :nemesis and the like
        conversion.warn = lambda message, n=n: warn("line %d: %s" % (n, message))
        at_line(n, conversion.add, op)
    return divide_times(conversion.events(), divisor, warn)


def to_jepsen(events, divisor):
    out = []
    for i, (n, e) in enumerate(events):
        value = e.get("value")
        if e["f"] not in FIFO:
            raise ConvertError("line %d: %s is not a FIFO operation (a Jepsen queue history holds "
                               "enqueue and dequeue)" % (n, e["f"]))
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
        return body if body is None else item_text(body, json.dumps)
    if body is None:
        return None
    if not isinstance(body, dict) or value_key not in body or priority_key not in body:
        raise ConvertError("a priority-queue item is {\"%s\": ..., \"%s\": ...}, got %s"
                           % (value_key, priority_key, shown(body, json.dumps)))
    return {"value": item_text(body[value_key], json.dumps),
            "priority": whole_number(body[priority_key], priority_key, json.dumps)}


def porcupine_op(op):
    """The operation name of one Porcupine operation, its fields checked."""
    if not isinstance(op, dict) or not isinstance(op.get("Input"), dict):
        raise ConvertError("expected an object with ClientId, Input, Call, Output, Return")
    for key in ("ClientId", "Call"):
        if key not in op:
            raise ConvertError("no %s" % key)
        whole_number(op[key], key, json.dumps)
    if op.get("Return") is not None:
        whole_number(op["Return"], "Return", json.dumps)
        if op["Return"] < op["Call"]:
            raise ConvertError("Return is before Call")
    f = op["Input"].get("Op")
    if f not in OPERATIONS:
        raise ConvertError("Input.Op %s is not a queue operation (%s)"
                           % (shown(f, json.dumps), ", ".join(OPERATIONS)))
    return f


def porcupine_events(op, f, process):
    """The invocation and, if it returned, the completion of one Porcupine operation."""
    inp = op["Input"]
    if f in INSERTS:
        item = (porcupine_item(f, {"Value": inp.get("Value"), "Priority": inp.get("Priority")})
                if f == "push" else item_text(inp.get("Value"), json.dumps))
        result = item
    else:
        item = None
        result = porcupine_item(f, op.get("Output"))
    events = [event("invoke", process, op["Call"], f, item)]
    if op.get("Return") is not None:  # without a completion contend reads it as info
        events.append(event("ok", process, op["Return"], f, result))
    return events


def from_porcupine(lines, divisor, warn):
    ops = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            op = json.loads(line)
        except ValueError as e:
            raise ConvertError("line %d: not JSON: %s" % (n, e))
        ops.append((n, op, at_line(n, porcupine_op, op)))
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
        events = at_line(n, porcupine_events, op, f, process)
        timed.append((events[0]["time"], 1, seq, events[0]))
        if len(events) == 1:
            crashed.add(client)
            continue
        call, ret = events[0]["time"], events[1]["time"]
        # At one time: completions of earlier calls, then invocations, then zero-length ones.
        timed.append((ret, 0 if ret > call else 2, seq, events[1]))
    timed.sort(key=lambda t: t[:3])
    return divide_times([t[3] for t in timed], divisor, warn)


def to_porcupine(events, divisor):
    open_ops = {}
    ops = []
    for n, e in events:
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
            raise ConvertError("line %d: a completion without an invocation" % n)
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


# ---- contend's own histories, read for the conversions back


def contend_event(e):
    """`e` if it is one event of a contend history (docs/history.md), in the fields a conversion
    reads."""
    if not isinstance(e, dict):
        raise ConvertError("expected a JSON object (one history event), got %s"
                           % shown(e, json.dumps))
    for key in ("type", "process", "time", "f"):
        if key not in e:
            raise ConvertError("no \"%s\"" % key)
    if e["type"] not in TYPES:
        raise ConvertError("\"type\" must be one of %s, got %s"
                           % (", ".join(TYPES), shown(e["type"], json.dumps)))
    whole_number(e["process"], "\"process\"", json.dumps)
    whole_number(e["time"], "\"time\"", json.dumps)
    if e["f"] not in OPERATIONS:
        raise ConvertError("\"f\" must be one of %s, got %s"
                           % (", ".join(OPERATIONS), shown(e["f"], json.dumps)))
    value = e.get("value")
    if value is None:
        return e
    if e["f"] in FIFO:
        if not isinstance(value, str):
            raise ConvertError("a FIFO item is a string, got %s" % shown(value, json.dumps))
    elif not (isinstance(value, dict) and isinstance(value.get("value"), str)
              and "priority" in value):
        raise ConvertError("a priority-queue item is {\"value\": string, \"priority\": integer}, "
                           "got %s" % shown(value, json.dumps))
    else:
        whole_number(value["priority"], "\"priority\"", json.dumps)
    return e


def read_contend(lines):
    events = []
    for n, line in enumerate(lines, 1):
        if line.strip():
            try:
                e = json.loads(line)
            except ValueError as err:
                raise ConvertError("line %d: not JSON: %s" % (n, err))
            events.append((n, at_line(n, contend_event, e)))
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
            text = f.read()
        lines = text.splitlines()
        if args.direction == "jepsen":
            out = [json.dumps(e) for e in from_jepsen(text, args.time_divisor, warn)]
        elif args.direction == "porcupine":
            out = [json.dumps(e) for e in from_porcupine(lines, args.time_divisor, warn)]
        elif args.direction == "to-jepsen":
            out = to_jepsen(read_contend(lines), args.time_divisor)
        else:
            out = to_porcupine(read_contend(lines), args.time_divisor)
    except (OSError, UnicodeDecodeError, ConvertError) as e:
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
