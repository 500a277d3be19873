"""Sample BFCL questions, make model outputs of many kinds, and record BFCL's own AST verdicts.

Usage: python3 make-verdicts.py <berkeley-function-call-leaderboard folder> <output folder>
(see README.md: the folder's bfcl_eval/constants/model_config.py is replaced by a stand-in).
"""
import copy, json, os, random, re, sys
LEADERBOARD, OUT = sys.argv[1], sys.argv[2]
sys.path.insert(0, LEADERBOARD)
from bfcl_eval.constants.enums import Language
from bfcl_eval.eval_checker.ast_eval.ast_checker import ast_checker

DATA = f"{LEADERBOARD}/bfcl_eval/data"
MODEL = "gpt-4o-2024-11-20-FC"
CATEGORIES = {"simple_python": 30, "multiple": 30, "parallel": 30, "parallel_multiple": 30,
              "live_simple": 30, "live_multiple": 20, "live_parallel": 8, "irrelevance": 25,
              "live_parallel_multiple": 8, "live_irrelevance": 10, "live_relevance": 6}
rng = random.Random(36)

def lines(path):
    with open(path) as f:
        return [json.loads(l) for l in f if l.strip()]

def oai(name):
    return re.sub(r"\.", "_", name)

def materialize(v):
    """BFCL writes a dict parameter's answer as a dict of acceptable-value lists: a model sends one value per key."""
    if isinstance(v, dict) and v and all(isinstance(x, list) for x in v.values()):
        out = {}
        for k, vs in v.items():
            f = first_value(vs)
            if f is not None:
                out[k] = f
        return out
    if isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
        return [materialize(x) for x in v]
    return v

def first_value(values):
    for v in values:
        if v != "":
            return materialize(v)
    return None

def fold_case(v):
    if isinstance(v, str):
        return v.upper() if rng.random() < 0.5 else v.lower().replace(" ", "  ") + "."
    if isinstance(v, list):
        return [fold_case(x) for x in v]
    return v

def wrong(v):
    if isinstance(v, bool):
        return not v
    if isinstance(v, int):
        return v + 7
    if isinstance(v, float):
        return v + 0.5
    if isinstance(v, str):
        return v + " zz"
    if isinstance(v, list):
        return v[:-1] if v else ["zz"]
    if isinstance(v, dict):
        return {**v, "zz_extra": 1}
    return "zz"

def wrong_type(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return str(v) if rng.random() < 0.6 else float(v) if isinstance(v, int) else int(v)
    if isinstance(v, str):
        return 12 if rng.random() < 0.5 else [v]
    if isinstance(v, list):
        return json.dumps(v)
    return str(v)

def correct_call(answer, pick):
    """One call from a ground-truth entry: pick(values) chooses the value or None to omit."""
    (name, params), = answer.items()
    args = {}
    for p, values in params.items():
        v = pick(p, values)
        if v is not None:
            args[p] = v
    return {oai(name): args}

def variants(entry, answers, category):
    funcs = {f["name"]: f for f in entry["function"]}
    out = []
    def add(kind, calls):
        out.append((kind, calls))
    if not answers:
        add("no call", [])
        f = entry["function"][0]
        props = f["parameters"].get("properties", {})
        add("a call anyway", [{oai(f["name"]): {k: "x" for k in f["parameters"].get("required", [])[:2]}}])
        if len(entry["function"]) > 1:
            g = entry["function"][1]
            add("another call", [{oai(g["name"]): {}}])
        return out
    def all_calls(pick):
        return [correct_call(a, pick) for a in answers]
    add("correct", all_calls(lambda p, vs: first_value(vs)))
    add("alternative", all_calls(lambda p, vs: materialize([v for v in vs if v != ""][-1]) if any(v != "" for v in vs) else None))
    add("optionals omitted", all_calls(lambda p, vs: None if "" in vs else first_value(vs)))
    add("optionals given", all_calls(lambda p, vs: first_value(vs)))
    add("case and punctuation", all_calls(lambda p, vs: fold_case(first_value(vs))))
    # One argument of one call changed.
    target = rng.randrange(len(answers))
    (tname, tparams), = answers[target].items()
    keys = [k for k, vs in tparams.items() if first_value(vs) is not None]
    if keys:
        k = rng.choice(keys)
        add("wrong value", [correct_call(a, (lambda p, vs, i=i: wrong(first_value(vs)) if (i == target and p == k) else first_value(vs))) for i, a in enumerate(answers)])
        k2 = rng.choice(keys)
        add("wrong type", [correct_call(a, (lambda p, vs, i=i: wrong_type(first_value(vs)) if (i == target and p == k2) else first_value(vs))) for i, a in enumerate(answers)])
        k3 = rng.choice(keys)
        add("argument missing", [correct_call(a, (lambda p, vs, i=i: None if (i == target and p == k3) else first_value(vs))) for i, a in enumerate(answers)])
    calls = all_calls(lambda p, vs: first_value(vs))
    extra = copy.deepcopy(calls)
    (ename, eargs), = extra[target].items()
    declared = [p for p in funcs.get(tname, {}).get("parameters", {}).get("properties", {}) if p not in tparams]
    eargs[declared[0] if declared and rng.random() < 0.6 else "unexpected_extra"] = "surprise"
    add("unexpected argument", extra)
    if len(calls) > 1:
        shuffled = calls[:]
        while shuffled == calls:
            rng.shuffle(shuffled)
        add("reordered calls", shuffled)
        add("a call missing", calls[:-1])
    add("a call too many", calls + [calls[0]])
    others = [f["name"] for f in entry["function"] if f["name"] != tname]
    wn = copy.deepcopy(calls)
    (_, a0), = wn[target].items()
    wn[target] = {oai(others[0]) if others else oai(tname) + "_v2": a0}
    add("wrong function", wn)
    add("no call", [])
    return out

records = []
for category, count in CATEGORIES.items():
    questions = lines(f"{DATA}/BFCL_v4_{category}.json")
    # (Ir)relevance categories have no possible answers: BFCL's runner only asks whether a function was called.
    answers = {} if "relevance" in category else {a["id"]: a["ground_truth"] for a in lines(f"{DATA}/possible_answer/BFCL_v4_{category}.json")}
    sample = sorted(rng.sample(range(len(questions)), min(count, len(questions))))
    chosen = [questions[i] for i in sample]
    with open(f"{OUT}/BFCL_v4_{category}.json", "w") as f:
        for q in chosen:
            f.write(json.dumps(q) + "\n")
    if answers:
        os.makedirs(f"{OUT}/possible_answer", exist_ok=True)
        with open(f"{OUT}/possible_answer/BFCL_v4_{category}.json", "w") as f:
            for q in chosen:
                f.write(json.dumps({"id": q["id"], "ground_truth": answers[q["id"]]}) + "\n")
    for q in chosen:
        gt = answers.get(q["id"], [])
        for n, (kind, calls) in enumerate(variants(q, gt, category)):
            if "irrelevance" in category:
                valid = len(calls) == 0
                error = [] if valid else ["function call present"]
            elif "relevance" in category:
                valid = len(calls) > 0
                error = [] if valid else ["no function call"]
            else:
                try:
                    r = ast_checker(q["function"], calls, gt, Language.PYTHON, category, MODEL)
                except Exception as e:  # the checker itself raising is recorded as its verdict
                    r = {"valid": False, "error": [f"checker raised {type(e).__name__}: {e}"]}
                valid, error = r["valid"], r.get("error", [])
            records.append({"id": q["id"], "category": category, "output": n, "kind": kind,
                            "calls": [{"name": k, "arguments": json.dumps(v)} for c in calls for k, v in c.items()],
                            "valid": valid, "error": (error[0] if isinstance(error[0], str) else json.dumps(error[0])[:200])[:200] if error else ""})
import gzip
with gzip.open(f"{OUT}/bfcl-verdicts.jsonl.gz", "wt") as f:
    for r in records:
        f.write(json.dumps(r) + "\n")
from collections import Counter
print(len(records), Counter((r["category"], r["valid"]) for r in records))
