"""A dev set of long user–assistant chats, in LoCoMo JSON, composed from hand-written material.

What it is for
    Tuning and checking the query path on the kind of archive LoCoMo lacks: a user talking to
    an assistant over months, where the assistant's long turns (code, plans, recipes,
    itineraries, advice) carry the content, the user's standing instructions and preferences
    are said once and relied on much later, facts change, and questions span sessions.
    Questions paraphrase their evidence, so word overlap alone does not find it.

How to make it
    python -m benchmarks.ua_devset --seed 1 --pool a --out ua_a.json
    python -m benchmarks.ua_devset --seed 1 --pool both --out-dir DIR   # ua_devset_{a,b}_s1.json
    python -m benchmarks.ua_devset --pool a --out ua_a.json --split-kinds
        # also ua_a.<kind>.json: same chats, one kind's questions (evaluate each with
        # --store S --reuse-store after one build of ua_a.json)
    arborwiki evaluate locomo ua_a.json --out OUT --budgets 1000,2700,8000 --variants all

    The output is deterministic for (pool, seed, users); another seed draws other slot values,
    another subset of arcs and fillers, another order and other dates from the same material.

How it was made
    Everything here was written by hand for this project (no public dataset text, no model
    output copied in). The material is a library per pool, `pool_a.py` and `pool_b.py`:

    - arcs (`model.Arc`): one storyline each: one or more parts (a short exchange placed in
      its own session, parts in order, `min_gap` sessions apart), the questions it answers
      with their gold evidence as (part, turn), and slots: alternative values written into
      the text as `<<name>>` (the diet, the editor, the new employer, the changed date...),
      one drawn per user, so users of a pool differ in their facts;
    - fillers (`model.Filler`): on-topic sessions that answer nothing, among them near misses
      (the same subject about someone else: a sister's diet, a colleague's editor, a friend's
      race goal), so lexical search on shared vocabulary is distracted.

    `build.py` gives each user ~90% of the pool's arcs and fillers, places the arcs' parts
    (standing instructions and preferences in the first third of the sessions; an ordering
    arc's parts in a random order, its answer computed from the placement), fills the other
    sessions with fillers, dates the sessions 2–8 days apart from a random day in 2024, and
    writes `D<session>:<turn>` ids. Speakers are "User" (speaker_a, the memory's owner: the
    reader gives speaker_a the role "user") and "Assistant".

Pools
    The two pools share no block, phrasing or storyline: pool a is a backend developer with
    an inventory API side project who cooks, trains for a half marathon, learns Spanish,
    plans a Portugal trip, budgets and changes jobs; pool b is a data engineer with an energy
    data pipeline who renovates a flat, keeps an allotment, learns Japanese for a trip,
    rides a road bike, adopts a dog and is best man at a brother's wedding. Fit on one, check
    on the other (leave-one-set-out); neither is a held-out test set once it has been looked
    at.

Questions
    Each QA has LoCoMo's fields (`question`, `answer`, `evidence`, `category`: 1 multi-hop,
    2 temporal, 3 open-domain, 4 single-hop; no category 5) and two more the reader ignores:
    `kind` and `arc`. Kinds: instruction, preference (a standing rule of the user, asked in
    other words, or applied to a new situation as category 3), extraction (from an
    assistant turn), update (a fact changed later: the evidence is the latest statement,
    the answer the new value), multi_session (evidence in 2–4 sessions), ordering (which came
    first, or the month something happened: category 2), summary (what has been tried or
    done so far, across sessions). Every answer's content terms occur in its evidence
    messages or their dates (tests/benchmarks/test_ua_devset.py checks it with the
    evaluator's own term rule), so answer recall can reach 1.

Sizes (seed 1, 4 users per pool)
    pool a: 160 sessions (40 per user), 1,080 messages, 76K words, ~99K tokens (1.3 × words;
    ~25K per user), 171 questions (extraction 57, preference 30, update 26, multi_session
    19, ordering 15, instruction 14, summary 10); pool b: 160 sessions, 1,150 messages, 74K
    words, ~96K tokens, 177 questions (extraction 56, preference 46, update 26, instruction
    12, multi_session 12, summary 12, ordering 13). `python -m benchmarks.ua_devset` prints
    the sizes and the count per kind; `python -m benchmarks.ua_devset.by_kind` reports
    coverage per kind.

Known limits
    Users of one pool share most of their text (same blocks, other slot values and order),
    so per-user numbers within a pool are correlated: treat a pool as one set of ~170
    questions, not four independent ones. The chats are ~25K tokens per user, a quarter of
    the public set this imitates, so coverage at a fixed budget is higher here. Cross-arc
    consistency is approximate (one arc's part may mention something another arc places
    later).

Licence
    Our own writing; same licence as this repository.
"""
