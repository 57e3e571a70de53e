"""Pool B: a data engineer with a side project (tidewater, a pipeline for home energy and
weather readings) who also renovates a flat, keeps an allotment, learns Japanese for a trip,
rides a road bike, adopts a dog and gives a speech at a brother's wedding. Hand-written; see
the package docstring. Shares no block, phrasing or topic storyline with pool A."""

from __future__ import annotations

from benchmarks.ua_devset.model import A, U, arc, ask, filler, q

PERSONAS = (
    {"brother": "Jonah", "fiancee": "Ines", "employer": "Gridlight Energy"},
    {"brother": "Marcus", "fiancee": "Aoife", "employer": "Heliotrope Media"},
    {"brother": "Felix", "fiancee": "Nadia", "employer": "Corvid Insurance"},
    {"brother": "Ollie", "fiancee": "Grace", "employer": "Stillwater Retail"},
)

# ---------------------------------------------------------------------------------------------
# Standing instructions and preferences.

DIFFS = arc(
    "diffs",
    [
        U(
            """Ground rule for when you change my code: <<diff_rule>> I lose track of what
            actually changed otherwise. Here's the first one: my tidewater loader reads
            the whole CSV into memory and dies on the big meter exports."""
        ),
        A(
            """Understood, I'll stick to that. Here is the change, reading the export in
            chunks so memory stays flat no matter how big the file is:

                --- a/tidewater/load.py
                +++ b/tidewater/load.py
                @@ def load_readings(path: Path, engine: Engine) -> int:
                -    frame = pd.read_csv(path, parse_dates=["ts"])
                -    frame.to_sql("readings", engine, if_exists="append", index=False)
                -    return len(frame)
                +    total = 0
                +    for chunk in pd.read_csv(path, parse_dates=["ts"], chunksize=100_000):
                +        chunk.to_sql("readings", engine, if_exists="append", index=False,
                +                     method="multi")
                +        total += len(chunk)
                +    return total

            Each chunk is a regular DataFrame of up to a hundred thousand rows, so peak
            memory is bounded by the chunk size rather than the file. `method="multi"` packs
            many rows into each INSERT, which speeds up the writes considerably.

            One consequence: the load is no longer all-or-nothing. If the process dies
            halfway, the first chunks are already committed. If that matters, wrap the loop
            in a single transaction with `engine.begin()`, or load into a staging table and
            swap it in at the end."""
        ),
    ],
    [
        q(
            "instruction",
            4,
            [
                "When you modify my code, how am I expecting you to present the change?",
                "In what form did I ask to receive code edits?",
            ],
            "<<diff_answer>>",
            0,
        )
    ],
    slots=[
        {
            "diff_rule": "show me a unified diff of what changed, never the whole file again.",
            "diff_answer": "a unified diff of what changed, not the whole file",
        },
        {
            "diff_rule": "only show the changed lines as a diff, and explain each hunk after.",
            "diff_answer": "only the changed lines as a diff, each hunk explained after",
        },
    ],
    early=True,
)

TONE = arc(
    "tone",
    [
        U(
            """Can I ask you something about how you talk to me? <<tone_rule>> Anyway:
            is it worth learning Rust for data engineering or is that hype?"""
        ),
        A(
            """Fair enough.

            For most data engineering work, Rust is not worth learning as a primary tool
            yet. The ecosystem you rely on (orchestration, warehouses, dbt, pandas and its
            successors) lives in Python and SQL, and that's where job descriptions and
            colleagues are.

            Where Rust does show up is underneath the tools. Polars, DataFusion, parts of
            Arrow and several fast ingestion tools are written in it. You benefit from that
            without writing any Rust yourself.

            It becomes worth it if you want to build such tools, write a custom high-volume
            parser, or contribute to those projects. Then it pays off well: the performance
            is real and the compiler catches a class of bugs Python never will.

            If your goal is being a better data engineer next year, put the time into SQL
            performance, data modelling and one orchestrator in depth. If your goal is
            curiosity, learn Rust by rewriting one small, slow script and comparing the
            results."""
        ),
    ],
    [
        q(
            "instruction",
            4,
            [
                "What manner of speaking has the user requested from you?",
                "How did I ask you to word your replies to me?",
            ],
            "<<tone_answer>>",
            0,
        )
    ],
    slots=[
        {
            "tone_rule": "Skip the pleasantries and the praise for my questions. Be blunt, "
            "I can take it.",
            "tone_answer": "blunt, skip the pleasantries and the praise",
        },
        {
            "tone_rule": "Please stop hedging every sentence. Give me your actual opinion "
            "first and caveats only if they really matter.",
            "tone_answer": "actual opinion first, stop hedging, caveats only if they matter",
        },
    ],
    early=True,
)

DIALECT = arc(
    "dialect",
    [
        U(
            """For every query you write for me, use <<dialect>> syntax. That's what
            <<employer>> runs on and what tidewater will end up in. First: how do I
            deduplicate readings where the same meter sent the same timestamp twice?"""
        ),
        A(
            """Keep one row per meter and timestamp, preferring the latest ingested copy.
            The portable way is a window function over the duplicates:

                SELECT *
                FROM readings
                QUALIFY row_number() OVER (
                    PARTITION BY meter_id, ts
                    ORDER BY ingested_at DESC
                ) = 1;

            QUALIFY filters on a window function directly, so no subquery is needed.
            <<dialect_note>>

            To remove the duplicates permanently rather than filtering on read, create the
            deduplicated table with CREATE TABLE ... AS SELECT using the query above, swap
            it in, and then stop new duplicates at the door: make the load a MERGE keyed on
            meter_id and ts, so a repeated reading updates the existing row instead of adding
            a second one.

            Before deleting anything, count the duplicates per meter. If one meter produces
            most of them, the device or its uploader is retrying without idempotency, and
            that is worth fixing at the source."""
        ),
    ],
    [
        q(
            "preference",
            4,
            [
                "Which database's flavour of SQL should queries for me be written in?",
                "What warehouse technology does my employer use?",
            ],
            "<<dialect>>",
            0,
        )
    ],
    slots=[
        {"dialect": "Snowflake", "dialect_note": "Snowflake supports QUALIFY natively."},
        {"dialect": "DuckDB", "dialect_note": "DuckDB supports QUALIFY natively."},
        {"dialect": "BigQuery", "dialect_note": "BigQuery supports QUALIFY with a WHERE."},
    ],
    early=True,
)

CAFFEINE = arc(
    "caffeine",
    [
        U(
            """I've cut out caffeine completely as of this month, doctor's advice because of
            my heart rhythm. So no coffee or black tea suggestions please. What can I drink
            in the afternoon slump that isn't just water?"""
        ),
        A(
            """Good call to follow that advice. There's plenty to drink that feels like a
            ritual without the stimulant.

            - Rooibos: naturally free of it, full-bodied, and takes milk well if you miss a
              builder's brew.
            - Chicory or roasted barley drinks: the closest thing to the bitterness and body
              of a dark roast. Brew them in a cafetière.
            - Peppermint or ginger infusions: sharp and refreshing, good after lunch.
            - Golden milk: warm milk with turmeric, ginger, cinnamon and a pinch of black
              pepper, sweetened lightly.
            - Sparkling water with a squeeze of lime and a few slices of cucumber, if what
              you want is the break rather than the warmth.

            Watch for hidden sources: green tea, matcha, cola, many energy and sports drinks,
            dark chocolate and some pain relievers all contain it. 'Decaf' isn't zero either,
            though it's very low.

            The slump itself often has other causes: a heavy lunch, dehydration, or too
            little light. A ten-minute walk outside at three o'clock does more than most
            drinks."""
        ),
    ],
    [
        q(
            "preference",
            4,
            [
                "Which drinks should you avoid recommending to me, and why?",
                "What has the user stopped consuming on medical advice?",
            ],
            "caffeine: coffee and black tea, because of my heart rhythm",
            0,
        )
    ],
    early=True,
)

COELIAC = arc(
    "coeliac",
    [
        U(
            """I want to get into baking but I should say up front, I have coeliac disease,
            so everything has to be strictly gluten-free, including cross-contamination. Where
            do I start without ending up with bricks?"""
        ),
        A(
            """Start with bakes where gluten matters least, and you'll have successes while
            you learn the tricky ones.

            Easy wins:

            - Brownies and flourless chocolate cake: they barely rely on flour structure.
            - Almond or polenta cakes: naturally moist and tender.
            - Cookies: a good blend behaves almost like wheat flour here.
            - Banana bread and muffins with a blend plus a little xanthan gum.

            Harder, for later: yeasted bread and pastry, which depend on gluten's stretch.
            They're doable, with psyllium husk and wetter doughs, but expect a learning curve.

            Buy a reputable blend rather than mixing your own at first, and weigh everything;
            gluten-free flours vary in density so much that cup measures are unreliable.

            On contamination: use a separate toaster, wooden spoons and sieve, clean the
            surfaces before you start, and check oats, baking powder and chocolate for a
            certified label. Old non-stick tins with scratches can hold residue, so dedicate
            a set if you share a kitchen with wheat bakers."""
        ),
    ],
    [
        q(
            "preference",
            4,
            [
                "What has to be absent from any baking recipe you give me?",
                "What medical condition affects what the user can eat?",
            ],
            "gluten, coeliac disease, including cross-contamination",
            0,
        )
    ],
    early=True,
)

SCHEDULE = arc(
    "schedule",
    [
        U(
            """For planning anything with me, know that I work a compressed week: <<sched>>
            So if you schedule rides or garden jobs, put the big ones on that free day."""
        ),
        A(
            """That's a great arrangement for both, and I'll plan around it.

            With a free weekday you get things that are hard at weekends: empty roads for
            long rides, shops and trades open, the allotment quiet. A few suggestions for
            using it well:

            - Put the longest ride of the week there. Weekday mornings have far less traffic
              and you can finish before the afternoon wind picks up.
            - Book appointments and deliveries for that day; it saves annual leave.
            - Keep one weekend day completely unplanned. Compressed weeks are tiring, and
              a real rest day keeps the long working days sustainable.
            - Batch garden tasks: sowing, weeding and watering once, thoroughly, instead of
              a little every evening when you're tired.

            Watch your sleep on the long days. A ten-hour shift plus a commute leaves little
            room, so shift bedtime earlier rather than cutting into it."""
        ),
    ],
    [
        q(
            "preference",
            4,
            [
                "Which day of the week am I free from work?",
                "What does the user's working pattern look like?",
            ],
            "<<sched_answer>>",
            0,
        )
    ],
    slots=[
        {
            "sched": "four ten-hour days, Monday to Thursday, and Fridays off.",
            "sched_answer": "four ten-hour days, Fridays off",
        },
        {
            "sched": "four long days, Tuesday to Friday, with Mondays off.",
            "sched_answer": "four long days, Mondays off",
        },
    ],
    early=True,
)

EXAMPLES = arc(
    "examples",
    [
        U(
            """Something about how I learn: <<learn_rule>> With that in mind, what's a
            Python generator actually for?"""
        ),
        A(
            """Here's one you can run, then the idea behind it.

                def read_meters(path):
                    with open(path) as f:
                        for line in f:
                            meter, ts, value = line.rstrip().split(",")
                            yield meter, ts, float(value)

                total = sum(value for _, _, value in read_meters("export.csv"))

            `read_meters` doesn't read the file when you call it. It returns a generator, and
            each time `sum` asks for the next item, the function runs until the next `yield`,
            hands over one reading, and pauses. Only one line is in memory at a time, so the
            same code works on a ten-line file and a forty-gigabyte one.

            Now the general idea: a generator is a function that produces a sequence lazily,
            one value per request, keeping its local state between requests. It's for:

            - streaming large inputs without loading them,
            - pipelines where each stage transforms items from the previous one,
            - infinite or open-ended sequences, like polling a sensor.

            The catch: a generator can be consumed once. Iterate over it a second time and
            it's empty; call the function again for a fresh one."""
        ),
    ],
    [
        q(
            "instruction",
            4,
            [
                "How do I prefer new ideas to be introduced when you teach me something?",
                "What teaching approach works best for the user?",
            ],
            "<<learn_answer>>",
            0,
        )
    ],
    slots=[
        {
            "learn_rule": "I learn from worked examples. Show me a concrete example first and "
            "explain the theory afterwards, never the other way round.",
            "learn_answer": "a concrete worked example first, theory afterwards",
        },
        {
            "learn_rule": "I need to see real code I can run before any explanation; abstract "
            "definitions first just bounce off me.",
            "learn_answer": "real code to run before any explanation; abstract definitions "
            "bounce off",
        },
    ],
    early=True,
)

DIY = arc(
    "diy",
    [
        U(
            """We bought a 1930s flat that needs work. Rule for any advice: <<diy_rule>>
            First job: the hallway walls have hairline cracks everywhere. Fix or ignore?"""
        ),
        A(
            """Hairline cracks in old plaster are normal and almost always cosmetic, caused by
            the building moving slightly with seasons and humidity. They're very fixable.

            1. Rake out each crack slightly with the corner of a scraper so the filler has
               something to grip, and brush out the dust.
            2. Dampen the crack with a wet brush; old plaster is thirsty and pulls water out
               of the filler too fast otherwise.
            3. Press in a flexible decorator's filler with a filling knife, slightly proud of
               the surface.
            4. Once dry, sand flush with fine paper on a block.
            5. For cracks that keep coming back, bridge them with a strip of scrim tape or
               paper before filling, or use a fine-surface flexible filler meant for that.

            What's not cosmetic: cracks wider than a coin's edge, diagonal cracks from door
            or window corners that grow, or doors that start sticking. Those are worth having
            someone look at. Hairlines in a hallway aren't."""
        ),
    ],
    [
        q(
            "preference",
            4,
            [
                "What sort of home-improvement advice does the user want from you?",
                "When you suggest work on my flat, what limits should the suggestions respect?",
            ],
            "<<diy_answer>>",
            0,
        )
    ],
    slots=[
        {
            "diy_rule": "DIY only. We can't afford contractors, so nothing that needs a "
            "tradesperson unless it's about gas or electrics safety.",
            "diy_answer": "DIY only, no contractors or tradesperson unless gas or electrics safety",
        },
        {
            "diy_rule": "keep it renter-friendly and reversible, since we might let it out "
            "later: nothing permanent without asking.",
            "diy_answer": "renter-friendly and reversible, nothing permanent",
        },
    ],
    early=True,
)

COLOURBLIND = arc(
    "colourblind",
    [
        U(
            """Practical thing you should know for any charts or dashboards you design for
            me: I'm colour-blind, <<cb_type>>. Now, what's a good chart for daily energy use
            against outdoor temperature?"""
        ),
        A(
            """A scatter plot with a fitted line is the most honest view: each dot is a day,
            temperature on the x axis, energy on the y axis. It shows the heating curve
            directly: usage rises as it gets colder, flattens above the temperature where
            the heating switches off, and outliers like holidays stand out.

            For colour, I'll use a palette that works for you: the Okabe–Ito palette, or
            simply blue and orange, with differences also shown by marker shape and line
            style so nothing relies on hue alone. In matplotlib:

                fig, ax = plt.subplots()
                for season, marker in (("winter", "o"), ("summer", "^")):
                    d = days[days.season == season]
                    ax.scatter(d.temp_c, d.kwh, marker=marker, alpha=0.7, label=season)
                ax.set_xlabel("outdoor temperature")
                ax.set_ylabel("energy per day (kWh)")
                ax.legend()

            A second useful chart is the same data as two lines over time, energy and
            temperature on twin axes, but twin axes mislead easily. The scatter answers the
            question you asked directly."""
        ),
    ],
    [
        q(
            "preference",
            4,
            [
                "What should any chart you make for me take into account about my eyesight?",
                "Which colour combinations are a bad idea in visuals for the user?",
            ],
            "<<cb_answer>>",
            0,
        )
    ],
    slots=[
        {
            "cb_type": "deuteranopia, so red and green look the same to me",
            "cb_answer": "colour-blind, deuteranopia: red and green look the same",
        },
        {
            "cb_type": "protanopia, reds look dark and I confuse them with greens and browns",
            "cb_answer": "colour-blind, protanopia: reds confused with greens and browns",
        },
    ],
    early=True,
)

# ---------------------------------------------------------------------------------------------
# Information extraction from the assistant's turns.

RETRIES = arc(
    "retries",
    [
        U(
            """The task in my DAG that pulls from the weather API fails a few times a week
            with a 503 and then the whole run is marked failed. I rerun it by hand in the
            morning. Surely there's a better way?"""
        ),
        A(
            """Yes: let the orchestrator retry transient failures, with a growing wait between
            attempts so you don't hammer a struggling API.

                fetch_weather = PythonOperator(
                    task_id="fetch_weather",
                    python_callable=fetch_weather_fn,
                    retries=4,
                    retry_delay=timedelta(minutes=2),
                    retry_exponential_backoff=True,
                    max_retry_delay=timedelta(minutes=30),
                )

            With exponential backoff the waits roughly double, two, four, eight minutes and so
            on, capped at thirty. A 503 that lasts a few minutes is absorbed silently.

            Two things make retries safe. First, the task must be idempotent: if attempt one
            wrote half the data before failing, attempt two must not duplicate it. Write to a
            partition keyed by the logical date and overwrite it, rather than appending.
            Second, retry only what's transient. A 401 or a 400 will never succeed on retry,
            so raise a non-retryable error for those and let the task fail immediately.

            Finally, set an SLA or an alert on the task, so a retry storm that eventually
            succeeds still shows up on your radar if it starts happening daily."""
        ),
    ],
    [
        q(
            "extraction",
            4,
            [
                "How did you tell me to make the API-pulling step recover from temporary outages?",
                "What settings did the assistant suggest so the weather fetch stops failing "
                "the whole run?",
            ],
            "retries=4 with retry_exponential_backoff, waits doubling, capped at thirty minutes",
            1,
        ),
        q(
            "extraction",
            4,
            "What did you say makes it safe for a step to run more than once?",
            "idempotent: overwrite a partition keyed by the logical date rather than appending",
            1,
        ),
    ],
)

TERRAFORM = arc(
    "terraform",
    [
        U(
            """Terraform question. My state file is sitting on my laptop and now a colleague
            wants to help with tidewater's infrastructure. What's the right setup?"""
        ),
        A(
            """Move the state to a remote backend before anyone else runs apply; two local
            state files are how infrastructure gets duplicated or destroyed.

            On AWS the standard setup is an S3 bucket for the state with a DynamoDB table for
            locking:

                terraform {
                  backend "s3" {
                    bucket         = "tidewater-tfstate"
                    key            = "prod/terraform.tfstate"
                    region         = "eu-west-2"
                    dynamodb_table = "tidewater-tf-locks"
                    encrypt        = true
                  }
                }

            The lock table makes sure only one apply runs at a time: if your colleague's plan
            is running, yours waits or fails instead of corrupting the state. Enable
            versioning on the bucket so you can recover an earlier state after a bad apply,
            and block public access.

            Then run `terraform init -migrate-state` once; it copies your local state up.
            Delete the local copy afterwards so nobody uses it by accident.

            Treat state as a secret: it can contain passwords and keys in plain text. Give
            the bucket a tight policy, and keep the bucket itself out of the configuration it
            stores, bootstrapped separately."""
        ),
    ],
    [
        q(
            "extraction",
            4,
            [
                "Where did you advise keeping the infrastructure state so two people can work "
                "on it?",
                "What backend did the assistant recommend for sharing the state with my colleague?",
            ],
            "an S3 bucket with a DynamoDB table for locking",
            1,
        ),
    ],
)

PARQUET = arc(
    "parquet",
    [
        U(
            """tidewater's raw readings are one giant CSV per month. Queries over a single
            week are slow. How should I lay the data out?"""
        ),
        A(
            """Convert to Parquet and partition by date, so a query for one week only opens the
            files for those days.

                import pyarrow as pa
                import pyarrow.dataset as ds

                table = pa.csv.read_csv("readings-2024-03.csv")
                table = table.append_column("day", pa.compute.strftime(table["ts"], "%Y-%m-%d"))
                ds.write_dataset(
                    table,
                    "lake/readings",
                    format="parquet",
                    partitioning=["day"],
                    partitioning_flavor="hive",
                    existing_data_behavior="overwrite_or_ignore",
                )

            The hive flavour writes folders named `day=2024-03-14`, which DuckDB, Spark and
            most engines understand: a filter on `day` skips every other folder without
            reading it. Parquet itself is columnar and compressed, so a query that touches
            two columns reads only those two, typically a tenth of the CSV size.

            Don't over-partition. One folder per day is right for a few million rows a day;
            per hour would create thousands of tiny files, which is slower, not faster.
            Aim for files of tens to hundreds of megabytes, and sort by meter within each
            file so per-meter queries benefit from row-group statistics."""
        ),
    ],
    [
        q(
            "extraction",
            4,
            [
                "What file layout did you recommend so that a one-week query reads less data?",
                "How did you suggest storing the monthly raw exports instead?",
            ],
            "Parquet partitioned by day, hive folders",
            1,
        ),
    ],
)

TOMATOES = arc(
    "tomatoes",
    [
        U(
            """We got an allotment plot! It's mostly grass and one sad rhubarb. I want tomatoes
            above all. When do I plant them and what should go next to them?"""
        ),
        A(
            """Congratulations, an allotment is a wonderful thing. Tomatoes first, then.

            Timing: tomatoes are tender, so they only go outside after the last frost, which in
            most of the UK means late May or early June. Start seeds indoors on a sunny
            windowsill in March or early April, or buy young plants in May and skip the fuss.
            Harden them off for a week before planting out: outside during the day, in at
            night.

            Neighbours: plant French marigolds among the tomatoes. They draw in hoverflies,
            whose larvae eat aphids, and their scent is said to deter whitefly; at worst they
            look cheerful. Basil is the other classic companion and is handy for the kitchen.
            Keep potatoes away, as both get blight and it spreads between them.

            Site: the sunniest, most sheltered spot you have. Dig in plenty of compost, plant
            deep (tomatoes root along buried stem), give each a sturdy cane, and water at the
            base, never on the leaves.

            For the grass: cover half the plot with cardboard and a thick layer of compost
            now and it'll be plantable by autumn, without digging."""
        ),
    ],
    [
        q(
            "extraction",
            4,
            [
                "Which flower did you suggest growing among my tomato plants?",
                "What companion plant did the assistant recommend for the allotment's main crop?",
            ],
            "French marigolds",
            1,
        ),
    ],
)

RAILPASS = arc(
    "railpass",
    [
        U(
            """Japan trip: Tokyo for five days, Kyoto for four, with day trips. Everyone online
            says buy the JR Pass. Should I?"""
        ),
        A(
            """For that route, probably not, since the price went up sharply in late 2023.

            The pass pays off when you make several long shinkansen journeys within its
            validity. Your plan has one long journey each way between Tokyo and Kyoto, plus
            short local trips. Buying those individually is cheaper than a 7-day pass now.

            What I'd do instead:

            - Buy the Tokyo–Kyoto shinkansen tickets individually, online or at the station.
              Sit on the right side going west for a chance of seeing Mount Fuji.
            - Get a Suica or ICOCA IC card (or add one to your phone's wallet) and tap in and
              out on all local trains, subways and buses. It also works in convenience stores.
            - For Kyoto day trips, Nara and Osaka are cheap and quick on local lines, and the
              IC card covers them.

            Run your exact itinerary through a JR Pass calculator before you decide; if you
            add Hiroshima or a trip to Kanazawa, the maths can flip back in favour of the
            pass."""
        ),
    ],
    [
        q(
            "extraction",
            4,
            [
                "What did you advise about buying the national rail pass for my trip?",
                "Instead of the JR Pass, what did you say I should use to get around?",
            ],
            "probably not for that route; buy shinkansen tickets individually and get a Suica "
            "or ICOCA IC card",
            1,
        ),
    ],
)

KANJI = arc(
    "kanji",
    [
        U(
            """I've learned hiragana and katakana and now kanji look like a wall. How does
            anyone learn two thousand of these?"""
        ),
        A(
            """Slowly, with a system, and not as isolated pictures.

            The most effective approach for self-learners is to learn kanji through their
            components (radicals) with mnemonic stories, in an order where each new character
            is built from parts you already know, and to learn vocabulary alongside so every
            kanji comes with real words.

            WaniKani does exactly this and is what I'd recommend for you: it teaches radicals,
            then kanji, then vocabulary using them, with built-in spaced repetition. It paces
            you automatically, around 15 to 20 new kanji a week at a comfortable speed.

            Alongside it:

            - Read something every day at your level: graded readers or NHK News Web Easy,
              which has furigana over the kanji.
            - Don't practise writing every kanji by hand unless you enjoy it; recognising them
              is what reading needs.
            - Expect plateaus. Around 500 kanji, real texts suddenly become partially readable,
              and motivation comes back.

            For your trip, prioritise the kanji on signs: exit, entrance, station names,
            and the common ones on menus."""
        ),
    ],
    [
        q(
            "extraction",
            4,
            [
                "Which tool did you suggest for tackling the Japanese characters?",
                "What service did the assistant recommend for kanji?",
            ],
            "WaniKani: radicals, kanji, vocabulary with spaced repetition",
            1,
        ),
    ],
)

SPEECH = arc(
    "speech",
    [
        U(
            """My brother <<brother>> asked me to be best man. I'm honoured and terrified. How
            do I write the speech?"""
        ),
        A(
            """Congratulations. A good best man speech is shorter and warmer than people
            expect, and the structure does most of the work.

            Length: three to five minutes. That's roughly 500 to 700 words spoken. Nobody has
            ever complained that a speech was too short.

            Structure:

            1. Open with a line that introduces you and gets a gentle laugh.
            2. One or two stories about <<brother>> that show who he is. Pick stories the
               whole room can enjoy, including grandparents; nothing about exes, nothing that
               needs an inside joke explained.
            3. Turn to the couple: how he changed after meeting <<fiancee>>, a moment you
               knew she was the one for him.
            4. A sincere line or two, without irony.
            5. End by asking everyone to raise their glasses, and give the toast.

            Write it out in full, then practise it aloud until you only need cue cards.
            Time yourself. Have one drink before, not four. And speak slower than feels
            natural: nerves speed everyone up."""
        ),
    ],
    [
        q(
            "extraction",
            4,
            [
                "How long did you say my remarks at my brother's wedding should run?",
                "What length did you recommend for the toast I'm giving as best man?",
            ],
            "three to five minutes, roughly 500 to 700 words",
            1,
        ),
    ],
)

DOG = arc(
    "dog",
    [
        U(
            """We're adopting a rescue dog next week! A three-year-old lurcher called
            <<dog>>. The shelter said she's nervous. How do we help her settle?"""
        ),
        A(
            """How exciting. With a nervous rescue, patience in the first weeks pays off for
            years.

            A useful rule of thumb is the 3-3-3 rule: roughly three days to decompress, when
            she may be withdrawn, not eat much and hide; three weeks to learn your routine
            and start showing her real personality; and three months to feel truly at home.
            Don't judge her by the first days.

            Practically:

            - Give her a quiet den: a crate with the door open, or a bed in a corner, covered
              with a blanket. Never pull her out of it; it's her safe place.
            - Keep the first week boring: short walks on quiet routes, no visitors, no dog
              parks.
            - Same routine daily: meals, walks and bedtime at the same times.
            - Let her come to you. Sit on the floor, ignore her, and reward any approach
              with a treat.
            - Lurchers are sighthounds and can bolt. Use a well-fitted harness and a long line
              until recall is reliable, and check your garden fence.

            If she hasn't eaten after a couple of days, or shows guarding or snapping, talk to
            the shelter or a behaviourist early."""
        ),
    ],
    [
        q(
            "extraction",
            4,
            [
                "What rule of thumb did you give me for how long a rescue animal takes to adjust?",
                "How did you describe the stages of <<dog>> settling in with us?",
            ],
            "3-3-3 rule: three days to decompress, three weeks, three months",
            1,
        ),
    ],
    slots=[{"dog": "Moss"}, {"dog": "Pepper"}, {"dog": "Juno"}],
)

PHOTO = arc(
    "photo",
    [
        U(
            """I bought a used mirrorless camera for the Japan trip. I always shoot on auto.
            What settings should I learn first for landscapes and city shots?"""
        ),
        A(
            """Leave full auto behind gradually; the single most useful step is aperture
            priority, marked A or Av on the dial.

            In aperture priority you choose the aperture and the camera picks the shutter
            speed. For landscapes and cityscapes, set f/8: it's the sweet spot of most lenses,
            sharp from near to far without diffraction softening. Set ISO to auto with a
            maximum of 3200 so the camera can cope as light fades.

            Then learn three more things:

            - Exposure compensation: the +/- dial. If the sky is blown out, dial in -1/3 or
              -2/3; if a snowy temple looks grey, add +1.
            - Focus point: move it to what matters instead of letting the camera guess.
            - Shoot in RAW plus JPEG, so you have room to fix things later.

            For light, the hour after sunrise and before sunset, the golden hour, makes
            everything look better. Temples in Kyoto are also nearly empty at opening time,
            which is worth more than any setting."""
        ),
    ],
    [
        q(
            "extraction",
            4,
            [
                "What camera mode and aperture did you suggest for scenery photos?",
                "Which exposure setting did the assistant say to learn first for landscapes?",
            ],
            "aperture priority at f/8",
            1,
        ),
    ],
)

PLASTER = arc(
    "plaster",
    [
        U(
            """The bedroom was replastered last week and it's dried to a pale pink. Can I just
            roll on the paint we picked?"""
        ),
        A(
            """Not straight away. Fresh plaster is very absorbent and will suck the water out
            of normal emulsion, which then peels or flakes off.

            Apply a mist coat first: a cheap white or matching matt emulsion thinned with
            water, roughly three parts paint to one part water for most brands (check the tin;
            some say up to 50/50). It soaks into the plaster and gives the topcoats something
            to grip.

            - Make sure the plaster is fully dry: even pale pink all over, with no darker
              patches. That's usually one to two weeks in a warm, ventilated room.
            - Use contract matt or trade emulsion for the mist coat; vinyl emulsions and
              'wipeable' paints form a skin that stops the paint soaking in.
            - Let the mist coat dry, then lightly sand any nibs and fill tiny holes.
            - Then two coats of your chosen colour.

            Don't use PVA as a primer on plaster, even though old guides suggest it: paint
            doesn't bond well to it."""
        ),
    ],
    [
        q(
            "extraction",
            4,
            [
                "What did you say needs to go on the fresh walls before the real colour?",
                "How did you tell me to prepare the newly plastered room for painting?",
            ],
            "a mist coat: matt emulsion thinned with water",
            1,
        ),
    ],
)

# ---------------------------------------------------------------------------------------------
# Knowledge updates.

ORCHESTRATOR = arc(
    "orchestrator",
    [
        [
            U(
                """Right now tidewater is a handful of Python scripts fired by cron on a small
                VM. It mostly works but I never know when something silently failed. Is it
                time for a real orchestrator, or overkill?"""
            ),
            A(
                """It's time once you have dependencies between jobs and failures you find out
                about late, which is where you are. You don't need a heavyweight setup, though.

                Before choosing a tool, two cheap fixes that help whatever you pick:

                - Make every script exit non-zero on failure, and wrap cron entries with a
                  healthcheck ping (a service that alerts you when the ping doesn't arrive).
                  That alone ends silent failures.
                - Write logs to one place with the run date in each line.

                Then the orchestrator gives you: dependencies declared in code, retries,
                backfills for a date range, and a UI showing what ran and what failed. For a
                one-person project, pick something you can run in a single container with a
                local database. Airflow is the industry default, with the largest community;
                lighter options exist if Airflow's operational weight bothers you later.

                Whatever you choose, keep the actual logic in plain Python functions that the
                orchestrator calls, so switching tools later is a matter of rewiring, not
                rewriting."""
            ),
        ],
        [
            U(
                """We moved tidewater onto Airflow in the end, a single docker-compose stack on
                the VM. Backfills alone were worth it."""
            ),
            A(
                """Nice. Backfills are the feature that makes people wonder how they lived
                without it. A few things to set up early while the stack is small:

                - catchup=False on new DAGs unless you mean it, or the first deploy schedules
                  every interval since the start date.
                - Keep the metadata database on a volume and back it up; losing it loses run
                  history and connections.
                - Pin the Airflow version and provider packages in the image; upgrades are
                  smoother when you choose their timing.
                - Put connections and secrets in environment variables or a secrets backend,
                  not in the UI, so the setup is reproducible.

                And watch the VM's memory: the scheduler, webserver and workers add up, and
                the default compose file is generous."""
            ),
        ],
        [
            U(
                """Confession: after three months I ripped Airflow out. The compose stack ate
                the VM's memory and the DAG boilerplate annoyed me. tidewater now runs on
                <<orch_new>>, and the asset-based approach suits it much better."""
            ),
            A(
                """That's a reasonable move for a one-person project, and the migration is
                usually smooth if the logic was already in plain functions.

                - Model each table or file tidewater produces as a data asset with its
                  upstream dependencies. You get lineage and freshness for free.
                - Use partitions keyed by day for the readings, so backfills remain a first-class
                  operation like they were in Airflow.
                - Add freshness checks on the assets people look at; they replace the SLA
                  alerts you had.
                - Run the scheduler and UI as one small service; the footprint is a fraction of
                  the previous stack.

                Keep the old DAG files in the repository history, not the main branch, so
                nobody is confused about what actually runs."""
            ),
        ],
    ],
    [
        q(
            "update",
            4,
            [
                "What schedules and runs the energy data pipeline at the moment?",
                "Which orchestration tool is the user's side project on today?",
            ],
            "<<orch_new>>",
            (2, 0),
        ),
        q(
            "summary",
            1,
            [
                "How has the way my pipeline jobs get triggered changed over time?",
                "Trace the history of scheduling in tidewater.",
            ],
            "cron on a small VM, then Airflow in docker-compose, then <<orch_new>>",
            (0, 0),
            (1, 0),
            (2, 0),
        ),
    ],
    slots=[{"orch_new": "Dagster"}, {"orch_new": "Prefect"}],
    min_gap=4,
)

MOVE = arc(
    "move",
    [
        [
            U(
                """Background for flat advice: we're renting a two-bed in <<area1>> at the
                moment, and the landlord won't let us touch anything, which is half the reason
                we're buying."""
            ),
            A(
                """That makes sense, and it'll shape the advice: while you're still renting,
                focus on what you can take with you, and save the bigger plans for the new
                place.

                A few things worth doing now:

                - Measure the furniture you'll keep and photograph the backs of appliances for
                  model numbers; it makes planning the new kitchen and rooms much easier.
                - Start a list of every problem you notice in your current flat, such as poor
                  storage, cold rooms and noise. It's the best guide to what to fix first when
                  you own a place.
                - Photograph the rental's condition before you leave, room by room, to protect
                  your deposit.

                When you start viewing properties, check the things that are expensive to
                change: the boiler's age, windows, damp, the roof and the electrics. Paint and
                floors are cheap by comparison."""
            ),
        ],
        [
            U(
                """We got the keys! Officially moved into the new flat in <<area2>> on
                Saturday. Boxes everywhere. What should we do in the first week?"""
            ),
            A(
                """Congratulations on the keys. First week priorities, roughly in order:

                - Change or rekey the locks; you don't know how many keys are out there.
                - Find the stopcock, the fuse box and the gas meter, and label them.
                - Take meter readings and register with the energy, water and council tax
                  providers, with photos of the meters.
                - Test the smoke and carbon monoxide alarms and replace batteries.
                - Unpack the kitchen and one bedroom completely, so daily life works, and let
                  the rest wait.

                Resist starting renovation projects in week one. Live in the space for a few
                weeks: where the light falls, which rooms are cold, where things pile up. It
                makes every later decision better."""
            ),
        ],
    ],
    [
        q(
            "update",
            4,
            [
                "Which part of town does the user live in now?",
                "Where is home for me these days?",
            ],
            "<<area2>>",
            (1, 0),
        ),
        q(
            "ordering",
            2,
            [
                "When did we take possession of the home we bought?",
                "In what month did the user settle into the property they purchased?",
            ],
            "<<date:1>>",
            (1, 0),
        ),
    ],
    slots=[
        {"area1": "Walthamstow", "area2": "Leyton"},
        {"area1": "Headingley", "area2": "Chapel Allerton"},
        {"area1": "Stokes Croft", "area2": "Bedminster"},
    ],
    early=True,
    min_gap=5,
)

WEDDING_DATE = arc(
    "wedding_date",
    [
        [
            U(
                """Dates for the diary: <<brother>> and <<fiancee>> are getting married on
                <<wd1>>. Can you help me plan the stag do around that?"""
            ),
            A(
                """Happy to. A stag do that the groom actually enjoys is usually smaller and
                simpler than people fear.

                - Timing: four to six weeks before the wedding, so nobody is recovering during
                  final fittings, and well clear of any hen do dates.
                - Ask <<brother>> for three things: who must be there, what he definitely
                  doesn't want, and the budget he'd be comfortable asking his friends to pay.
                - Pick one main activity and a good dinner. Cycling, a day on the water, a
                  cooking class or a brewery tour all work; you don't need a full itinerary.
                - Collect money early, through a shared payment link, with a clear deadline.
                - Keep it inclusive: make sure there's something for the non-drinkers and a way
                  for people with less money to join for part of it.

                Create the group chat, then send a single message with the date, plan and cost
                rather than asking everyone's opinion on everything."""
            ),
        ],
        [
            U(
                """Plot twist: the venue double-booked, so <<brother>>'s wedding moved. The new
                date is <<wd2>>. The stag do will need to shift too."""
            ),
            A(
                """Annoying for them, but better found out now than in a month. For the stag
                do:

                - Keep the same gap: four to six weeks before the new date.
                - Check cancellation terms on anything booked before moving it; many activity
                  providers will move a booking for free with enough notice.
                - Send the group one clear message with the new plan, so nobody books travel
                  for the old weekend.

                And for your speech: if you mentioned the season or the date anywhere in it,
                update those lines."""
            ),
        ],
    ],
    [
        q(
            "update",
            4,
            [
                "When is my brother getting married now?",
                "On what date does the wedding take place after the change?",
            ],
            "<<wd2>>",
            (1, 0),
        ),
    ],
    slots=[
        {"wd1": "14 June 2025", "wd2": "20 September 2025"},
        {"wd1": "7 June 2025", "wd2": "6 September 2025"},
    ],
    min_gap=4,
)

SPORTIVE = arc(
    "sportive",
    [
        [
            U(
                """I've entered my first sportive, the 100 km route of the Dales ride in the
                summer. I can do about 50 km comfortably now. How do I get ready?"""
            ),
            A(
                """Going from a comfortable 50 to 100 km in a few months is very doable.

                - Build the long ride: add about 10 km every week or two, with an easier week
                  every fourth week. Aim to ride 80 to 90 km three weeks before the event.
                - Ride hills. The Dales routes climb steeply; include repeated climbs in one
                  midweek ride and learn to spin a low gear rather than grinding.
                - Practise eating on the bike: something every 30 to 45 minutes from the first
                  hour, because by the time you're hungry it's too late.
                - Check your gearing. A compact chainset with a large cassette makes the steep
                  gradients far friendlier.

                On the day, ride your own pace on the first climb. The excitement of the start
                makes everyone go too hard, and the feed stops are there to be used."""
            ),
        ],
        [
            U(
                """The training has gone better than I thought, so I've switched my entry from
                the 100 km to the <<long_route>> at the Dales ride. Too ambitious?"""
            ),
            A(
                """Not if the long rides keep going well. The upgrade changes a few things:

                - Your longest training ride should reach about three quarters of the new
                  distance, three weeks before the event.
                - Eat and drink on a schedule from the first hour; over a longer day, fuelling
                  matters more than fitness.
                - Pacing on the climbs becomes crucial. If you have a power meter or heart rate
                  strap, set a ceiling for climbs and respect it.
                - Check the cut-off times at feed stations for the longer route and work out
                  the average speed they imply.

                Do one rehearsal ride with everything you'll carry on the day: same bottles,
                same food, same clothes."""
            ),
        ],
    ],
    [
        q(
            "update",
            4,
            [
                "Which distance am I riding at the summer cycling event now?",
                "What route is the user entered for in the Dales ride?",
            ],
            "<<long_route>>",
            (1, 0),
        ),
    ],
    slots=[{"long_route": "160 km route"}, {"long_route": "130 km medio route"}],
    min_gap=5,
)

KITCHEN_BUDGET = arc(
    "kitchen_budget",
    [
        [
            U(
                """We've set aside <<kb1>> for redoing the kitchen. Cabinets are fine, it's the
                worktops, the sink and the horrible lino. Is that enough?"""
            ),
            A(
                """For keeping the cabinets and replacing worktops, sink and flooring, it's a
                workable budget if you choose materials carefully.

                Where the money goes:

                - Worktops: laminate is cheapest and much better looking than it used to be;
                  solid wood is mid-range but needs oiling; quartz and stone are the big jump.
                - Sink and tap: a good tap matters more than the sink; it's used every day.
                - Flooring: luxury vinyl tiles or planks are warm, waterproof and DIY-friendly.

                Add ten to fifteen per cent for surprises: old kitchens hide rotten boards and
                odd plumbing. A fresh coat of cabinet paint and new handles make the kept
                cabinets look like part of the new kitchen."""
            ),
        ],
        [
            U(
                """Kitchen money update: we found water damage under the sink and decided to
                replace the cabinets after all, so the budget is now <<kb2>>."""
            ),
            A(
                """That's a common story, and better found now than after new worktops went
                on. With new cabinets, a few things open up:

                - Fix the cause of the leak first and let the wall and floor dry completely;
                  a moisture meter is cheap and tells you when.
                - Flat-pack ranges with good carcasses and your choice of doors give the most
                  for the money; you can upgrade doors later.
                - Now is the moment to rethink the layout: moving the sink a little can
                  transform the workflow, and it's cheaper while everything is open.

                Keep the contingency; an old kitchen that had one surprise often has two."""
            ),
        ],
    ],
    [
        q(
            "update",
            4,
            [
                "How much money are we putting into the kitchen renovation at this point?",
                "What is the current budget for the kitchen work?",
            ],
            "<<kb2>>",
            (1, 0),
        ),
    ],
    slots=[{"kb1": "£6,000", "kb2": "£11,500"}, {"kb1": "£8,000", "kb2": "£14,000"}],
    min_gap=4,
)

# ---------------------------------------------------------------------------------------------
# Multi-session, ordering and summary questions.

OOM = arc(
    "oom",
    [
        [
            U(
                """The tidewater aggregation worker gets OOM-killed every night around 2am.
                Memory climbs steadily from start to death. I bumped the container limit from
                2 to 4 GB and it just dies later. Ideas?"""
            ),
            A(
                """A steady climb to death is a leak or an unbounded accumulation, and raising
                the limit only moves the crash, as you saw. Find what grows.

                The standard library has what you need: tracemalloc records where every
                allocation came from. Take a snapshot early and another later, and compare:

                    import tracemalloc

                    tracemalloc.start(25)
                    first = tracemalloc.take_snapshot()
                    # ... process a few hundred batches ...
                    second = tracemalloc.take_snapshot()
                    for stat in second.compare_to(first, "traceback")[:10]:
                        print(stat)
                        for line in stat.traceback.format():
                            print("   ", line)

                The top entries name the lines whose allocations grew. Usual suspects in a
                pipeline worker: a module-level cache or dict that only ever gets added to, a
                list of results kept 'for the summary at the end', DataFrames captured in a
                closure or a logging call, or an unbounded functools.lru_cache.

                Also log the process's RSS every few hundred batches; a line that grows with
                batch count confirms it's per-batch accumulation."""
            ),
        ],
        [
            U(
                """tracemalloc pointed at a module-level dict in the meter lookup: it caches
                every meter's metadata frame and never evicts. I swapped it for an LRU with
                maxsize 512. Memory is much flatter, but there's still a slow creep."""
            ),
            A(
                """Good find; unbounded caches are the classic. For the slow creep that's left,
                two likely causes:

                - Fragmentation rather than a leak. Python's allocator and glibc's malloc don't
                  always return freed memory to the operating system, especially after many
                  medium-sized allocations such as DataFrame columns. RSS creeps even though
                  live objects don't.
                - A smaller accumulation elsewhere, which tracemalloc will show if you compare
                  snapshots over a longer window.

                The pragmatic fix for long-running workers is to recycle them: process a fixed
                number of batches, exit, and let the supervisor start a fresh process. With
                multiprocessing, `Pool(maxtasksperchild=200)` does this automatically.
                Alternatively set the environment variable MALLOC_ARENA_MAX=2, which often
                reduces fragmentation in threaded processes."""
            ),
        ],
        [
            U(
                """Final update on the memory saga: set maxtasksperchild to 200 and
                MALLOC_ARENA_MAX=2, and the worker has run a week without a single kill. Peak
                is under 1.5 GB, so I put the limit back to 2 GB."""
            ),
            A(
                """Excellent, that's a proper fix rather than a bigger box. Worth recording in
                the repository: a short note on why maxtasksperchild and MALLOC_ARENA_MAX are
                set, so nobody removes them as clutter, and a memory alert at 80 per cent of
                the limit so any future regression shows up before the kill."""
            ),
        ],
    ],
    [
        q(
            "summary",
            1,
            [
                "What has been done so far about the nightly job that kept running out of memory?",
                "Summarise the user's attempts to stop the worker being killed.",
            ],
            "bumped the limit from 2 to 4 GB, swapped the module-level dict for an LRU with "
            "maxsize 512, set maxtasksperchild to 200 and MALLOC_ARENA_MAX=2",
            (0, 0),
            (1, 0),
            (2, 0),
        ),
        q(
            "extraction",
            4,
            [
                "Which standard-library module did you suggest for finding what was eating memory?",
            ],
            "tracemalloc snapshots compared",
            (0, 1),
        ),
    ],
    min_gap=2,
)

ALLOTMENT = arc(
    "allotment",
    [
        [
            U(
                """Allotment news: something is eating my lettuce seedlings overnight, there
                are silvery trails everywhere in the morning."""
            ),
            A(
                """Silvery trails mean slugs or snails, and young lettuce is their favourite
                food. Some options, from least to most effort:

                - Go out with a torch after dark, when they're active, and collect them. Two or
                  three evenings in a row make a real dent.
                - Lay boards or upturned grapefruit halves between rows; slugs hide under them
                  by day and you can collect them in the morning.
                - Nematodes watered into the soil in spring control slugs biologically and are
                  safe for pets and wildlife.
                - Grow seedlings bigger in modules before planting out; older plants survive
                  grazing far better.

                Avoid metaldehyde pellets, which are banned. Ferric phosphate pellets are
                permitted, but use them sparingly."""
            ),
        ],
        [
            U(
                """Bad news at the plot: the tomato leaves have brown patches with pale edges
                and the stems have dark streaks. After a week of warm rain."""
            ),
            A(
                """That sounds like blight, sadly, and warm wet weather is exactly when it
                strikes. It spreads fast by spores on the wind.

                - Remove every affected leaf and stem now, and don't compost them; bag them or
                  burn them.
                - Pick any full-size green fruit and ripen it indoors on a windowsill; the
                  blight can still spread to fruit on the plant.
                - If the stems are badly affected, pull the whole plant.
                - Next year, grow blight-resistant varieties, water at the base, space plants
                  for airflow, and rotate the bed.

                Also check potatoes on neighbouring plots; tell the neighbours, since it will
                move between plots either way."""
            ),
        ],
        [
            U(
                """The courgettes have a white powdery coating on the leaves now. Is everything
                on my plot doomed?"""
            ),
            A(
                """Not doomed: that's powdery mildew, and on courgettes in late summer it's almost
                inevitable. The plants usually keep cropping.

                - Remove the worst leaves to improve airflow.
                - Water the soil, not the leaves, and water consistently; dry roots make plants
                  more susceptible.
                - A spray of diluted milk, one part to nine parts water, slows it down on the
                  remaining leaves.

                By this point in the season the plants have done most of their work, so don't
                worry too much."""
            ),
        ],
    ],
    [
        q(
            "multi_session",
            1,
            [
                "Which pests and diseases have hit my vegetable plot this year?",
                "What problems has the user run into at the allotment?",
            ],
            "slugs or snails eating lettuce seedlings, blight on the tomatoes, powdery mildew "
            "on the courgettes",
            (0, 0),
            (0, 1),
            (1, 0),
            (1, 1),
            (2, 0),
            (2, 1),
        ),
    ],
    min_gap=3,
)

BOOKINGS = arc(
    "bookings",
    [
        [
            U(
                """Booked our first big thing for Japan: two nights at a ryokan in Hakone with
                an outdoor onsen. Any etiquette I should know?"""
            ),
            A(
                """Lovely choice. Ryokan etiquette in brief:

                - Take off your shoes at the entrance and use the slippers provided, but never
                  wear slippers on tatami; socks or bare feet only.
                - Wear the yukata left in your room: left side over right (the other way is for
                  funerals).
                - Dinner is usually served at a set time and is an event in itself; don't be
                  late.
                - Onsen: wash thoroughly at the shower stools before getting in, no swimwear,
                  and the small towel stays out of the water (people rest it on their head).
                - Tattoos can be an issue in shared baths; ask ahead or book a private bath.

                Check-in is typically mid-afternoon, and it's worth arriving early to enjoy the
                bath before dinner."""
            ),
        ],
        [
            U(
                """Got tickets for teamLab Planets in Tokyo for our second day, and a
                cooking class in Kyoto where we make ramen from scratch."""
            ),
            A(
                """Both are great picks. For teamLab Planets, you walk through water up to your
                knees in some rooms, so wear trousers you can roll up, and avoid skirts because
                some floors are mirrored. Arrive a little before your time slot.

                For the ramen class, tell them in advance about any dietary needs; broths often
                contain pork or fish. And come hungry: you eat everything you make."""
            ),
        ],
    ],
    [
        q(
            "multi_session",
            1,
            [
                "What have I already reserved for the Japan holiday?",
                "List everything the user has booked for their trip so far.",
            ],
            "two nights at a ryokan in Hakone, teamLab Planets tickets in Tokyo, a ramen "
            "cooking class in Kyoto",
            (0, 0),
            (1, 0),
        ),
    ],
    min_gap=3,
)

CLUBS = arc(
    "clubs",
    [
        [
            U(
                """I signed up for a Tuesday evening Japanese class at the community college.
                Beginner level, ten weeks. Anything I should prepare?"""
            ),
            A(
                """Nice. Since you already know the kana, you'll have a head start. To get the
                most from the class:

                - Review within a day of each lesson; a short recap the next morning fixes it
                  far better than a long one before the next class.
                - Start a notebook of full example sentences from class rather than word
                  lists.
                - Learn the classroom phrases early: 'mou ichido onegaishimasu' (once more,
                  please) and 'yukkuri onegaishimasu' (slowly, please).
                - Speak up even when unsure. A class is the cheapest place to make mistakes."""
            ),
        ],
        [
            U(
                """I joined the local cycling club's Saturday social ride. Bit nervous about
                riding in a group for the first time."""
            ),
            A(
                """Group riding is mostly about being predictable. A few basics:

                - Hold your line and keep your speed steady; avoid sudden braking.
                - Point out and call hazards: potholes, parked cars, 'car back'.
                - Don't overlap your front wheel with the rear wheel of the rider in front.
                - On climbs, stand up smoothly, since a sudden slowdown can catch the rider
                  behind.
                - Bring a spare tube and a snack; social rides usually have a café stop.

                Tell the ride leader it's your first group ride; they'll put you somewhere
                comfortable in the bunch."""
            ),
        ],
    ],
    [
        q(
            "ordering",
            2,
            [
                "Which did I begin first: weekly lessons in the language of my trip, or riding "
                "with a group?",
                "Did the user start group rides before or after enrolling in a course for the "
                "language of their holiday?",
            ],
            "<<first>>",
            (0, 0),
            (1, 0),
        ),
    ],
    permute=True,
    labels=("the Japanese class", "the cycling club's social ride"),
    min_gap=3,
)

POLARS = arc(
    "polars",
    [
        [
            U(
                """I rewrote tidewater's daily aggregation from pandas to Polars this weekend.
                Same output, runs in 40 seconds instead of 6 minutes. Anything I'm missing?"""
            ),
            A(
                """That speed-up is typical. Check a few things before trusting it fully:

                - Compare outputs row by row on a few historical days, including days with
                  missing readings; null handling differs between the libraries.
                - Use the lazy API (`scan_parquet` and `.collect()` at the end) so Polars can
                  push filters down and skip unneeded columns.
                - Watch for float differences in sums and means; tiny differences are expected,
                  but set a tolerance in your comparison.
                - Pin the Polars version: the API still changes between minor releases."""
            ),
        ],
        [
            U(
                """Added data validation to tidewater with pandera schemas: readings must be
                non-negative and timestamps unique per meter. It caught a broken meter on
                the first run."""
            ),
            A(
                """That's exactly what validation is for: catching bad data at the door
                instead of in a dashboard.

                - Decide what a failure does: stop the run, or quarantine bad rows and carry on.
                  For a broken meter, quarantining is usually right.
                - Log the counts of rejected rows per meter per day; a sudden jump is a signal
                  in itself.
                - Keep schemas next to the code that produces each table, and test them in CI
                  with a small fixture of known-bad rows."""
            ),
        ],
    ],
    [
        q(
            "ordering",
            2,
            [
                "Which came earlier in my pipeline work: the dataframe library switch or the "
                "schema checks?",
                "Did the user start checking incoming data against rules before or after "
                "changing dataframe library?",
            ],
            "<<first>>",
            (0, 0),
            (1, 0),
        ),
    ],
    permute=True,
    labels=("pandas to Polars", "the pandera validation"),
    min_gap=2,
)

ADOPTED = arc(
    "adopted",
    [
        list(DOG.parts[0]),
        [
            U(
                """She's home! We picked up our rescue from the shelter this morning. She
                spent an hour sniffing everything and is now asleep in the crate with the door
                open."""
            ),
            A(
                """That's a great first morning: exploring and then sleeping in the crate of her
                own accord is a very good sign. Let her sleep as much as she wants today; the
                shelter, the car ride and a new home are exhausting.

                For the rest of day one: water near the crate, a short quiet walk later, a small
                meal at the time the shelter fed her, and an early night. If she cries at night,
                sitting near the crate for a few minutes is fine; you're not spoiling her."""
            ),
        ],
    ],
    [
        *DOG.questions,
        q(
            "ordering",
            2,
            [
                "When did the new four-legged family member arrive?",
                "In what month did the user bring the adopted dog home?",
            ],
            "<<date:1>>",
            (1, 0),
        ),
    ],
    slots=DOG.slots,
)

ARCS = (
    DIFFS,
    TONE,
    DIALECT,
    CAFFEINE,
    COELIAC,
    SCHEDULE,
    EXAMPLES,
    COLOURBLIND,
    RETRIES,
    TERRAFORM,
    PARQUET,
    TOMATOES,
    RAILPASS,
    KANJI,
    PHOTO,
    PLASTER,
    ORCHESTRATOR,
    MOVE,
    WEDDING_DATE,
    SPORTIVE,
    KITCHEN_BUDGET,
    OOM,
    ALLOTMENT,
    BOOKINGS,
    CLUBS,
    POLARS,
    ADOPTED,
)

# ---------------------------------------------------------------------------------------------
# Fillers.

FILLERS = (
    filler(
        "dbt_tests",
        [
            U("What tests should every dbt model have as a minimum?"),
            A(
                """At minimum, test the grain: the column or combination that should identify a
                row must be unique and not null. Most silent errors in a warehouse are fan-outs
                from a bad join, and a uniqueness test on the grain catches them immediately.

                    models:
                      - name: daily_usage
                        columns:
                          - name: usage_key
                            tests: [unique, not_null]

                Beyond that, add tests where a wrong value would mislead someone:
                accepted_values on status columns, relationships on foreign keys to dimension
                tables, and a freshness check on sources so stale data fails loudly.

                Don't test everything. A hundred trivial tests that nobody reads train the team
                to ignore failures. Aim for few tests, each with an obvious reason, and make a
                failing test block the deploy."""
            ),
        ],
    ),
    filler(
        "cte",
        [
            U("Are CTEs slower than subqueries? A colleague insists they are."),
            A(
                """In most modern engines, no. Snowflake, BigQuery, DuckDB and Postgres since
                version 12 inline a CTE that's referenced once, so it performs the same as the
                equivalent subquery. Older Postgres versions treated every CTE as an
                optimisation fence and materialised it, which is where the belief comes from.

                A CTE referenced several times may be computed once and reused, or computed each
                time, depending on the engine; if it matters, check the query plan.

                Readability is the real argument: a chain of named CTEs reads top to bottom like
                a recipe, while nested subqueries read inside out. Write it clearly first, and
                only restructure if the plan shows a problem."""
            ),
            U("And window functions inside CTEs, any gotchas?"),
            A(
                """Only the usual one: filters in the outer query run after the window is
                computed, so a WHERE on the outer query doesn't shrink the window's partition.
                If you want to rank only this month's rows, filter inside the CTE before the
                window function, not after."""
            ),
        ],
    ),
    filler(
        "k8s_cronjob",
        [
            U("How do I run a nightly batch job on Kubernetes without it overlapping itself?"),
            A(
                """Use a CronJob with a concurrency policy:

                    apiVersion: batch/v1
                    kind: CronJob
                    metadata:
                      name: nightly-aggregate
                    spec:
                      schedule: "30 1 * * *"
                      timeZone: "Europe/London"
                      concurrencyPolicy: Forbid
                      startingDeadlineSeconds: 600
                      jobTemplate:
                        spec:
                          backoffLimit: 2
                          activeDeadlineSeconds: 7200
                          template:
                            spec:
                              restartPolicy: Never
                              containers:
                                - name: aggregate
                                  image: registry.example/tidewater:1.8.0

                Forbid skips a new run if the previous one is still going. The active deadline
                kills a run that hangs, so it can't block the next night forever. Set
                resource requests and limits on the container, and keep a few finished jobs
                with successfulJobsHistoryLimit so you can read their logs."""
            ),
        ],
    ),
    filler(
        "compose_health",
        [
            U("My app container starts before Postgres is ready and crashes. Compose fix?"),
            A(
                """Give the database a healthcheck and make the app wait for it to be healthy,
                not just started:

                    services:
                      db:
                        image: postgres:16
                        healthcheck:
                          test: ["CMD-SHELL", "pg_isready -U postgres"]
                          interval: 5s
                          retries: 10
                      app:
                        build: .
                        depends_on:
                          db:
                            condition: service_healthy

                Plain depends_on only waits for the container to start, and Postgres takes a few
                seconds after that to accept connections. Even with this, make the app retry its
                first connection for a short while; in production the database can restart
                independently of the app."""
            ),
        ],
    ),
    filler(
        "commit_messages",
        [
            U("Any tips on writing better commit messages? Mine are all 'fix stuff'."),
            A(
                """A useful commit message answers 'why', because the diff already shows 'what'.

                - Subject line: imperative mood, under about 60 characters, describing the
                  change: 'Skip meters with no readings in daily rollup'.
                - Blank line, then a body when the reason isn't obvious: what was wrong, why
                  this approach, anything surprising.
                - One logical change per commit. If the message needs 'and', consider two
                  commits.

                Interactive rebase lets you tidy a messy series before you push: squash the
                'oops' commits into the ones they fix. Your future self, running git blame at
                midnight, will thank you."""
            ),
        ],
    ),
    filler(
        "tz_pandas",
        [
            U("Meter timestamps come in as local time with DST jumps. How do I handle that?"),
            A(
                """Convert to UTC as early as possible and keep everything in UTC internally;
                convert back to local time only for display.

                    s = pd.to_datetime(df["ts"])
                    s = s.dt.tz_localize("Europe/London", ambiguous="infer",
                                          nonexistent="shift_forward")
                    df["ts_utc"] = s.dt.tz_convert("UTC")

                The two keyword arguments handle the DST edges. In autumn one local hour happens
                twice; 'infer' uses the order of the readings to decide which is which. In
                spring one local hour doesn't exist; 'shift_forward' moves such timestamps to
                the first valid time. If the meter can send its UTC offset instead, ask for it;
                that removes the ambiguity at the source."""
            ),
        ],
    ),
    filler(
        "rate_limit",
        [
            U("The grid API allows 60 requests a minute. What's a clean way to respect that?"),
            A(
                """A small token bucket in the client is the cleanest approach: it allows short
                bursts but holds the average under the limit.

                    class RateLimiter:
                        def __init__(self, per_minute: int) -> None:
                            self.capacity = per_minute
                            self.tokens = float(per_minute)
                            self.rate = per_minute / 60
                            self.last = time.monotonic()

                        def wait(self) -> None:
                            now = time.monotonic()
                            self.tokens = min(self.capacity,
                                              self.tokens + (now - self.last) * self.rate)
                            self.last = now
                            if self.tokens < 1:
                                time.sleep((1 - self.tokens) / self.rate)
                                self.tokens = 1
                            self.tokens -= 1

                Call wait() before each request. Also honour a 429 response's Retry-After
                header, because the server's count may differ from yours."""
            ),
        ],
    ),
    filler(
        "regex_meter",
        [
            U("Regex to pull meter ids like 'MTR-00412-B' out of messy log lines?"),
            A(
                """This matches the pattern you described, three letters, a dash, five digits, a
                dash and a letter, with word boundaries so it won't match inside longer tokens:

                    METER_ID = re.compile(r"\\b[A-Z]{3}-\\d{5}-[A-Z]\\b")
                    ids = METER_ID.findall(line)

                If the prefix is always MTR, use it literally; a more specific pattern produces
                fewer false positives. Compile it once at module level, and add a few unit tests
                with real log lines, including near misses, because regexes are easy to break
                when someone 'just tweaks' them."""
            ),
        ],
    ),
    filler(
        "paint_finish",
        [
            U("Matt, eggshell or satin for the living room walls?"),
            A(
                """For walls in a living room, matt is the usual choice: it hides imperfections
                in old walls and gives a soft, even colour. Modern 'durable matt' paints can
                be wiped, which removes the old reason to avoid it.

                Eggshell has a slight sheen and is tougher, good for hallways or a room with
                children's sticky hands, but it shows every bump in the plaster. Satin is
                usually kept for woodwork such as skirting boards, doors and window frames,
                where its sheen and toughness suit.

                Buy tester pots and paint large swatches on two walls; colour changes a lot
                between morning and evening light."""
            ),
        ],
    ),
    filler(
        "shelves",
        [
            U("How do I put up heavy shelves on a plasterboard wall?"),
            A(
                """Ideally, fix into the timber or metal studs behind the plasterboard. Find them
                with a stud detector or by tapping; they're usually 400 or 600 millimetres
                apart. Screws into studs hold far more than any plasterboard fixing.

                If the shelf must go between studs, use heavy-duty cavity fixings, such as
                spring toggles or metal spreading anchors, which grip the back of the board.
                Check the rating per fixing and assume less than the packet claims.

                Before drilling, check for cables and pipes: run a detector over the area and
                avoid the zones directly above and below sockets and switches. For really
                heavy loads like books, consider a batten screwed across several studs and fix
                the shelf brackets to that."""
            ),
        ],
    ),
    filler(
        "radiators",
        [
            U("Some radiators are cold at the top. Is that just air?"),
            A(
                """Cold at the top and warm at the bottom is almost always trapped air, and
                bleeding fixes it.

                1. Turn the heating off and let the radiators cool.
                2. Hold a cloth under the bleed valve at the top corner and turn it a quarter
                   turn with a radiator key.
                3. Air hisses out; close the valve as soon as water appears.
                4. Check the boiler pressure gauge afterwards: if it's dropped below about one
                   bar, top it up with the filling loop.

                Cold at the bottom and warm at the top is different: that's usually sludge, and
                may need a flush. If one radiator bleeds constantly, something is drawing air
                into the system and it's worth getting checked."""
            ),
        ],
    ),
    filler(
        "grout",
        [
            U("The bathroom grout is black in places. Clean or replace?"),
            A(
                """Try cleaning first. Black spots are usually mould on the surface: spray a
                mould remover or a diluted bleach solution, leave it ten minutes, scrub with an
                old toothbrush and rinse well, with the window open.

                If it comes back within weeks, or the grout is crumbling, replace it: rake out
                the old grout with a grout rake, vacuum the joints, and apply new grout with a
                rubber float. Wipe off the haze with a damp sponge before it sets. Seal it once
                dry, and keep the room ventilated after showers; mould needs damp to return."""
            ),
        ],
    ),
    filler(
        "compost",
        [
            U("How do I get my allotment compost heap to actually rot down?"),
            A(
                """A heap rots well when it has a balance of greens and browns, enough moisture
                and some air.

                - Greens: grass clippings, vegetable peelings, young weeds, coffee grounds.
                - Browns: cardboard, straw, dry leaves, woody stems chopped small.
                - Roughly equal volumes of each; a slimy heap needs more browns, a dry one that
                  does nothing needs more greens and water.
                - It should be as damp as a wrung-out sponge.
                - Turn it every few weeks to let air in; it speeds things up a lot.

                Keep perennial weed roots, diseased plants and cooked food out. Two bays work
                best: one filling, one rotting."""
            ),
            U("How long until I can use it?"),
            A(
                """A turned heap can be ready in four to six months in summer; an untouched one
                takes a year or more. It's ready when it's dark, crumbly and smells of earth,
                with no recognisable peelings."""
            ),
        ],
    ),
    filler(
        "potatoes",
        [
            U("When do I chit and plant potatoes?"),
            A(
                """Chit seed potatoes from late January to February: stand them in egg boxes,
                eyes up, in a cool, light, frost-free place until they have short, sturdy green
                shoots.

                Plant first earlies in late March, second earlies in early to mid April, and
                maincrops in mid to late April. Set them in a trench or individual holes,
                shoots up, covered with soil. As the shoots come through, earth them up by
                drawing soil over the stems; it protects them from late frosts and stops the
                tubers turning green.

                Harvest earlies when the plants flower, about ten weeks after planting; leave
                maincrops until the foliage dies back."""
            ),
        ],
    ),
    filler(
        "watering",
        [
            U("How often should I water the plot in a hot spell?"),
            A(
                """Deeply and less often beats a sprinkle every day. A light daily watering wets
                the surface and encourages shallow roots; a thorough soak twice a week pushes
                roots deeper where the soil stays moist.

                Water in the early morning or evening so less evaporates, at the base of the
                plants rather than over the leaves. Prioritise what suffers most: seedlings,
                new transplants, leafy crops and anything fruiting, like beans and courgettes.
                Established root crops cope surprisingly well.

                Mulch with compost or grass clippings after a good soak; it keeps the moisture
                in far longer."""
            ),
        ],
    ),
    filler(
        "kyoto_days",
        [
            U("Four days in Kyoto: how do I avoid just fighting crowds at temples?"),
            A(
                """Go early and go sideways.

                - The famous sites, such as Fushimi Inari, Kiyomizu-dera and the bamboo grove
                  at Arashiyama, are peaceful around opening time or just after dawn and packed
                  from ten onwards. Do one famous site per morning, early.
                - At Fushimi Inari, most people turn back at the first viewpoint; climb beyond
                  it and the gates are nearly empty.
                - Spend afternoons in quieter places: the Philosopher's Path, Honen-in, Daitoku-ji's
                  sub-temples, or the Kurama to Kibune hike.
                - Evenings: Gion's side streets and Pontocho for dinner.

                And build in one slow day without a plan; Kyoto rewards wandering."""
            ),
        ],
    ),
    filler(
        "japan_food",
        [
            U("Food etiquette in Japan that I might get wrong?"),
            A(
                """A few things that trip people up:

                - Don't stick chopsticks upright in rice or pass food from chopstick to
                  chopstick; both are associated with funerals.
                - Slurping noodles is fine, even polite.
                - Tipping isn't done; it can cause confusion.
                - In many restaurants you order and pay at a ticket machine by the door.
                - Eating while walking is frowned on in many places; street food is eaten
                  by the stall.
                - Say 'itadakimasu' before eating and 'gochisousama deshita' when you leave.

                Carry some cash: many small places still don't take cards."""
            ),
        ],
    ),
    filler(
        "tyre_pressure",
        [
            U("What tyre pressure should I run on the road bike?"),
            A(
                """Lower than the number on the sidewall, most likely. That number is a maximum,
                not a target. With modern wider tyres, lower pressure is both more comfortable
                and often faster on real roads, because the tyre absorbs vibration instead of
                bouncing.

                The right pressure depends on your weight, tyre width and whether you use inner
                tubes or tubeless. Use a pressure calculator from a tyre manufacturer as a
                starting point, then adjust by feel: if the ride is harsh, drop a little; if the
                tyre squirms in corners or you pinch flat, add a little. Run the rear slightly
                higher than the front, since it carries more weight. Check pressures before
                every ride; tubes lose air steadily."""
            ),
        ],
    ),
    filler(
        "climbing_bike",
        [
            U("I'm slow on climbs. Any technique tips beyond 'get fitter'?"),
            A(
                """Technique and pacing help a lot.

                - Shift into an easy gear before the climb starts, not halfway up when the
                  chain is under load.
                - Keep a steady effort rather than a steady speed; go easy at the bottom,
                  where people usually blow up.
                - Aim for a cadence you can sustain; spinning is kinder to your legs than
                  grinding.
                - Stay seated for most of it and stand briefly to change muscle groups or over
                  the steepest ramps.
                - Relax your upper body: loose shoulders and a light grip save energy.

                Then, yes, fitness: one session a week of repeats on a local hill, five to eight
                minutes each, makes a noticeable difference within a couple of months."""
            ),
        ],
    ),
    filler(
        "recall",
        [
            U("How do I train a reliable recall?"),
            A(
                """Make coming back the best thing that ever happens to the dog.

                - Choose a fresh cue word or whistle that you never use casually.
                - Start indoors with no distractions: say the cue once, reward with something
                  special, like cheese or chicken, when the dog reaches you.
                - Move to the garden, then quiet outdoor places on a long line, increasing
                  distraction slowly.
                - Never call the dog to end the fun and then clip the lead on every time; call,
                  reward, and release back to play often.
                - Never punish a dog who comes back, however long it took.

                Sighthounds are harder because chasing is so rewarding; keep the long line for
                open spaces with wildlife until recall is rock solid."""
            ),
        ],
    ),
    filler(
        "dog_food",
        [
            U("Wet or dry food for a medium dog? The options are overwhelming."),
            A(
                """Both can be complete and balanced; what matters most is that the food is
                labelled complete for adult dogs, suits your dog's size and activity, and that
                your dog does well on it: good energy, firm stools, a healthy coat.

                Dry food is cheaper and more convenient, and is easy to use in puzzle feeders.
                Wet food is more palatable and hydrating, which helps picky or older dogs. Many
                people mix them.

                Change foods gradually over a week to avoid upset stomachs, and adjust portions
                by body condition rather than the packet guide: you should be able to feel the
                ribs easily without seeing them."""
            ),
        ],
    ),
    filler(
        "suit",
        [
            U("Best man outfit: hire or buy a suit?"),
            A(
                """Hire if the wedding has a specific look, like matching morning suits, or if
                you won't wear it again. Buy if it's a lounge suit in a versatile colour, such
                as navy or charcoal, that you'll wear to other weddings and interviews.

                Either way, get it tailored or fitted: trousers that break just once on the
                shoe, jacket sleeves that show a little shirt cuff. Break in the shoes before the
                day, since you'll be standing for hours. Coordinate with the groom on ties and
                pocket squares early, and keep the speech cards in the inside pocket."""
            ),
        ],
    ),
    filler(
        "wedding_gift",
        [
            U("What do you get your own brother as a wedding present?"),
            A(
                """Check the gift list first; couples often have a fund or a list and appreciate
                it being used. Beyond that, a sibling can give something more personal:

                - An experience for the honeymoon, such as a special dinner or a tour.
                - A framed print of a place that matters to them, or of the venue.
                - A photo book of the two of them, with pictures gathered from friends and
                  family.
                - Something for their home made by a local maker.

                Give it before or after the day rather than at the reception, where gifts get
                lost in the chaos, and write a proper card; it'll be kept."""
            ),
        ],
    ),
    filler(
        "tax_return",
        [
            U("First time doing a self-assessment tax return for side income. What do I need?"),
            A(
                """Gather these before you start:

                - Your tax reference and login for the online service.
                - Your employment income and tax already paid, from your payslips or the
                  year-end summary from your employer.
                - Side income received during the tax year, with dates and amounts.
                - Expenses directly related to the side income, with receipts: equipment,
                  software, a share of phone costs.
                - Interest from savings, if above your allowance.

                Keep records for at least five years after the deadline. Submit early rather
                than at the last minute; you still pay by the usual deadline, but you'll know
                the amount and any surprises in good time."""
            ),
        ],
    ),
    filler(
        "reading",
        [
            U("Any good non-fiction books about data or statistics that aren't textbooks?"),
            A(
                """A few readable ones:

                - 'How to Make the World Add Up' by Tim Harford: rules of thumb for thinking
                  clearly about numbers in the news.
                - 'The Signal and the Noise' by Nate Silver: forecasting, from weather to
                  elections, and why most predictions fail.
                - 'Weapons of Math Destruction' by Cathy O'Neil: how models at scale can harm
                  people, and what to watch for.
                - 'Designing Data-Intensive Applications' by Martin Kleppmann: more technical,
                  but the best single book on the systems data engineers work with.

                If you only read one for work, make it the last."""
            ),
        ],
    ),
)

# ---------------------------------------------------------------------------------------------
# More arcs (second batch).

SPELLING = arc(
    "spelling",
    [
        U(
            """For anything you draft for me, emails, docs, READMEs: <<spell_rule>> Now can you
            draft a short note to my team saying the nightly load will be down on Saturday
            for the database upgrade?"""
        ),
        A(
            """Here's a draft:

            Subject: Nightly load paused this Saturday for the database upgrade

            Hi all,

            This Saturday we're upgrading the reporting database to the new major version.
            To keep the upgrade clean, the nightly load will not run on Saturday night, so
            Sunday morning's dashboards will show Friday's data.

            The load will resume as normal on Sunday night, and Monday's dashboards will be
            complete. If you have a report due on Sunday that needs Saturday's numbers, let
            me know by Thursday and I'll run a manual load once the upgrade is finished.

            During the upgrade window, roughly 9:00 to 13:00 on Saturday, ad hoc queries
            against the database will fail; please plan any analysis around that.

            Thanks for bearing with us,
            [your name]

            If you want it shorter, the first two paragraphs stand on their own."""
        ),
    ],
    [
        q(
            "instruction",
            4,
            [
                "Which writing conventions should documents you draft for me follow?",
                "What did I ask of the language in text you write on my behalf?",
            ],
            "<<spell_answer>>",
            0,
        )
    ],
    slots=[
        {
            "spell_rule": "use British spelling, so 'organise', 'colour', 'catalogue'. My "
            "manager notices.",
            "spell_answer": "British spelling: organise, colour, catalogue",
        },
        {
            "spell_rule": "write in plain English with short sentences and no jargon; half "
            "my readers aren't technical.",
            "spell_answer": "plain English, short sentences, no jargon",
        },
    ],
    early=True,
)

SOBER = arc(
    "sober",
    [
        U(
            """Before you suggest stag-do activities or anything social: <<sober_rule>> What are
            some good things to do with a group of eight in the Peak District?"""
        ),
        A(
            """The Peak District is perfect for a group. Some options that work for mixed
            fitness levels:

            - Gorge scrambling or canyoning with a guide: wetsuits, waterfalls and plenty of
              laughs, and no experience needed.
            - A ridge walk: the Great Ridge from Mam Tor to Lose Hill is about three hours,
              with huge views, and finishes near a café.
            - Caving at one of the show caves, or a proper wild caving trip with an outdoor
              centre.
            - Mountain biking: hire bikes and ride the Monsal Trail or, for the braver, the
              red routes at a trail centre.
            - Climbing taster sessions on gritstone, with instructors and all the kit.

            Round it off with a long dinner in a big house you've rented for the weekend,
            cooking together or getting a chef in. A shared house makes a group weekend much
            more relaxed than scattered hotel rooms."""
        ),
    ],
    [
        q(
            "preference",
            4,
            [
                "What should social plans you suggest for me avoid?",
                "Is there anything the user doesn't do on nights out?",
            ],
            "<<sober_answer>>",
            0,
        )
    ],
    slots=[
        {
            "sober_rule": "I don't drink alcohol, haven't for years, so nothing built around "
            "pubs or brewery tours.",
            "sober_answer": "alcohol; nothing built around pubs or brewery tours",
        },
        {
            "sober_rule": "I get seasick and I'm scared of heights, so boats and anything high "
            "up are out.",
            "sober_answer": "boats and heights: seasick and scared of heights",
        },
    ],
    early=True,
)

INCREMENTAL = arc(
    "incremental",
    [
        U(
            """The dbt model that builds daily usage takes 25 minutes because it rebuilds the
            whole history every night. Only the last few days ever change."""
        ),
        A(
            """Make it an incremental model so each run only processes new and recently
            changed rows:

                {{ config(
                    materialized='incremental',
                    unique_key=['meter_id', 'usage_date'],
                    incremental_strategy='merge'
                ) }}

                select meter_id, usage_date, sum(kwh) as kwh
                from {{ ref('stg_readings') }}
                {% if is_incremental() %}
                where usage_date >= (select max(usage_date) - interval '3 days' from {{ this }})
                {% endif %}
                group by 1, 2

            On the first run, and with --full-refresh, it builds everything. After that, the
            is_incremental() branch limits the scan to the last three days, and the merge on
            the unique key updates days that changed instead of duplicating them. The three-day
            lookback is what handles late-arriving readings; set it to match how late your
            meters can be.

            Run a full refresh now and then, for example monthly, to correct any drift, and
            test the unique key so a bad merge shows up immediately."""
        ),
    ],
    [
        q(
            "extraction",
            4,
            [
                "How did you propose to stop the usage model rebuilding all history every night?",
                "What change did the assistant suggest for the slow daily transformation?",
            ],
            "an incremental model with a merge on unique_key and a three-day lookback",
            1,
        ),
    ],
)

OSAKA = arc(
    "osaka",
    [
        U("We have one evening in Osaka. Where should we go to eat?"),
        A(
            """Osaka calls itself the nation's kitchen, and one evening is best spent grazing
            rather than sitting down for a single meal.

            Go to Dotonbori after dark for the neon and the canal, but eat in the side streets
            rather than on the main strip. The local specialities to try:

            - Takoyaki: octopus balls cooked in moulded pans, crisp outside and molten inside.
              Let them cool; everyone burns their mouth on the first one.
            - Okonomiyaki: a savoury cabbage pancake cooked on a griddle at your table.
            - Kushikatsu: skewers of meat, vegetables and cheese, breaded and deep-fried, with
              a shared pot of sauce. The one rule: no double dipping.

            If you want somewhere more local, Shinsekai has older kushikatsu places under the
            Tsutenkaku tower, with a slightly retro, rough-around-the-edges feel. End with a
            walk back across the canal when the lights reflect on the water."""
        ),
    ],
    [
        q(
            "extraction",
            4,
            [
                "What was the one rule you gave me for the fried skewers place?",
                "Which etiquette rule did you mention for kushikatsu?",
            ],
            "double dipping is the one rule, with the shared pot of sauce",
            1,
        ),
    ],
)

INSURANCE = arc(
    "insurance",
    [
        U(
            """Pet insurance is a jungle. Accident only, time-limited, per condition, lifetime.
            Which type should we get for the dog?"""
        ),
        A(
            """For a young dog you intend to keep for life, lifetime cover is the one I'd
            recommend. It renews a set amount of vet fees every year, including for ongoing
            conditions, as long as you keep paying the premiums.

            Why it matters: the expensive claims are chronic conditions such as allergies,
            arthritis or a heart problem, which need treatment every year. Time-limited
            policies stop paying for a condition after twelve months, and per-condition
            policies stop after a set amount, after which you pay everything yourself.
            Accident-only is cheap but excludes illness, which is most of what dogs need.

            When comparing lifetime policies, look at the annual limit (aim high), the excess
            and whether it includes a co-payment as the dog ages, and whether dental and
            behavioural treatment are covered. Premiums rise with age on all types. Sign up
            before any vet visits, since anything noted before cover starts is excluded as
            pre-existing."""
        ),
    ],
    [
        q(
            "extraction",
            4,
            [
                "What kind of policy did you recommend for covering the dog's vet bills?",
                "Which pet insurance type did the assistant advise?",
            ],
            "lifetime cover, which renews vet fees every year",
            1,
        ),
    ],
)

PROMOTION = arc(
    "promotion",
    [
        [
            U(
                """Work context: I'm a data engineer at <<employer>>, one of four on the
                platform team. Can you help me write my goals for the year?"""
            ),
            A(
                """Good goals are specific, in your control, and tied to something the team
                cares about. Three or four is enough. Some shapes that work for a data
                engineer:

                - Reliability: 'Reduce failed nightly loads from about six a month to at most
                  one by adding retries, alerts and data quality checks.'
                - Cost or speed: 'Cut warehouse spend for the reporting models by 20 per cent by
                  moving the largest to incremental builds.'
                - Enablement: 'Document the five most-used datasets and run two sessions so
                  analysts can self-serve.'
                - Growth: 'Lead the design of one new pipeline end to end.'

                For each, write how you'll measure it and a check-in point halfway through the
                year. Goals you can't measure turn into arguments at review time."""
            ),
        ],
        [
            U(
                """Promotion came through! As of this month I'm <<new_title>> at
                <<employer>>. Slightly terrified."""
            ),
            A(
                """Congratulations, that's well deserved after the year you've had. The first
                months in a lead role are about shifting where your value comes from:

                - From doing the work to making the team effective: unblocking, reviewing,
                  deciding.
                - Have one-to-ones with each teammate in the first two weeks: what they enjoy,
                  what frustrates them, where they want to grow.
                - Keep some hands-on work, but not anything on the critical path.
                - Write down decisions and their reasons; it's the lead's cheapest tool.

                Feeling terrified is normal and a good sign that you take it seriously."""
            ),
        ],
    ],
    [
        q(
            "update",
            4,
            [
                "What is the user's job title now?",
                "What role do I hold at work these days?",
            ],
            "<<new_title>>",
            (1, 0),
        ),
    ],
    slots=[{"new_title": "lead data engineer"}, {"new_title": "senior data engineer"}],
    early=True,
    min_gap=6,
)

TRIP_DATES = arc(
    "trip_dates",
    [
        [
            U(
                """Japan planning has begun! We're looking at going in <<jt1>>, about two
                weeks. What should I know about that time of year?"""
            ),
            A(
                """That's a popular time, for good reasons. Book accommodation early, especially
                in Kyoto, where the best places fill months ahead. Expect crowds at the famous
                sites and plan early starts. Check for national holidays in your dates, since
                domestic travel spikes then and trains and hotels book out. Pack layers: the
                weather can change a lot between Tokyo and the mountains."""
            ),
        ],
        [
            U(
                """Change of plan: we're moving the Japan trip to <<jt2>> instead, because
                <<fiancee>>'s wedding plans with my brother would clash otherwise. Same length."""
            ),
            A(
                """That's a lovely time to go too. The new dates mean re-checking a few things:
                cancel or move any accommodation you'd booked, look at which seasonal events
                fall in your window, and revisit the packing list. The ryokan and day-trip
                plans all still work."""
            ),
        ],
    ],
    [
        q(
            "update",
            4,
            [
                "When are we travelling to Japan now?",
                "In which season is the user's trip to Japan planned at present?",
            ],
            "<<jt2>>",
            (1, 0),
        ),
    ],
    slots=[
        {"jt1": "early April for the cherry blossom", "jt2": "mid-November for the autumn leaves"},
        {"jt1": "late March for the cherry blossom", "jt2": "late October for the autumn colours"},
    ],
    early=True,
    min_gap=4,
)

ROOMS = arc(
    "rooms",
    [
        list(DIY.parts[0]),
        [
            U("Hallway is done: cracks filled, walls painted. Only took three weekends."),
            A(
                """Well done, that's the room everyone sees first. Keep a small tin of the
                paint, labelled with the room and date, for touch-ups; hallways get scuffed."""
            ),
        ],
        [
            U("The bathroom is finished: regrouted, new silicone round the bath, new tap."),
            A(
                """Lovely. Leave the silicone to cure for a full day before the first shower, and
                keep the extractor fan running after baths to stop mould from coming back."""
            ),
        ],
        [
            U(
                """Second bedroom is done too. We turned it into an office with a desk under
                the window and shelves on the chimney breast wall."""
            ),
            A(
                """A proper office makes such a difference. Put the monitor side-on to the
                window to avoid glare, and add a lamp for winter afternoons."""
            ),
        ],
    ],
    [
        q(
            "multi_session",
            1,
            [
                "Which rooms of the flat have we finished so far?",
                "What parts of the renovation has the user completed?",
            ],
            "the hallway, the bathroom and the second bedroom as an office",
            (1, 0),
            (2, 0),
            (3, 0),
        ),
        *DIY.questions,
    ],
    slots=DIY.slots,
    early=True,
    min_gap=3,
)

SPEECH_DRAFTS = arc(
    "speech_drafts",
    [
        list(SPEECH.parts[0]),
        [
            U(
                """First draft of the best man speech is done and it's 1,100 words. I think
                that's too long?"""
            ),
            A(
                """It is, nearly double. Cut by story, not by sentence: keep the two best, drop
                the rest entire, and trim the introduction to two lines. Read it aloud after
                cutting; it should take under five minutes at a relaxed pace."""
            ),
        ],
        [
            U(
                """Cut it to 650 words and read it to a friend, who said the camping story is
                the best bit and the school story drags."""
            ),
            A(
                """Trust that. Shorten the school story to its punchline or drop it, and give
                the camping story more room, since it's landing. Then practise in front of a
                mirror until you only glance at your cards."""
            ),
        ],
        [
            U(
                """Dropped the school story, the speech is now just under five minutes, and I've
                got it on cue cards. Did a full run-through standing up."""
            ),
            A(
                """That's exactly where you want to be. On the day, pause after each laugh, look
                up from the cards at the couple for the sincere part, and hold your glass in
                your left hand so you can gesture with the right."""
            ),
        ],
    ],
    [
        q(
            "summary",
            1,
            [
                "How has my wedding toast developed since the first draft?",
                "Summarise the user's work on the best man speech so far.",
            ],
            "first draft 1,100 words; cut to 650 words and read to a friend; dropped the "
            "school story, just under five minutes, on cue cards",
            (1, 0),
            (2, 0),
            (3, 0),
        ),
        *SPEECH.questions,
    ],
    min_gap=2,
)

ARCS = ARCS + (
    SPELLING,
    SOBER,
    INCREMENTAL,
    OSAKA,
    INSURANCE,
    PROMOTION,
    TRIP_DATES,
    ROOMS,
    SPEECH_DRAFTS,
)

FILLERS = FILLERS + (
    filler(
        "great_expectations",
        [
            U("How do you decide what's worth alerting on in a data pipeline?"),
            A(
                """Alert on what a human must act on soon; record everything else.

                A useful split:

                - Page or message someone: the pipeline didn't run, a critical table is stale
                  beyond its agreed freshness, or a check that protects downstream decisions
                  failed, such as negative meter readings in billing data.
                - Open a ticket automatically: recurring warnings, slow growth in rejected rows,
                  runs that take twice as long as usual.
                - Just log and chart: everything else, such as row counts, durations and
                  distributions, so you can investigate after the fact.

                Every alert should say what broke, what it affects and where to look first. If
                an alert fires and the right response is 'ignore it', delete or downgrade it
                the same week. A channel full of ignored alerts hides the one that matters."""
            ),
            U("How do I stop one bad upstream day from spamming twenty alerts?"),
            A(
                """Alert on the root, not the leaves. Model dependencies so that when a source is
                late, the downstream freshness checks are suppressed or grouped under the
                source's alert. Most orchestrators can skip downstream tasks when an upstream
                one fails, which stops the cascade at the first broken link."""
            ),
        ],
    ),
    filler(
        "sql_review",
        [
            U("Colleague's query uses SELECT DISTINCT everywhere. Smell?"),
            A(
                """Often, yes. DISTINCT everywhere usually means duplicates are appearing and
                nobody knows why, typically from a join to a table that has more than one row
                per key. DISTINCT hides the symptom and costs a sort or hash over the whole
                result.

                Ask what the grain of each table is, one row per what, and check the joins
                against it. If a dimension has several rows per customer because of history,
                join on the current row only. If a fact table needs aggregating first, do that
                in a CTE before joining.

                There are legitimate uses, like listing the distinct values of a column, but in
                a query that joins several tables, treat it as a question to investigate, not
                a fix."""
            ),
        ],
    ),
    filler(
        "docker_layers",
        [
            U("Why does my tidewater image rebuild all dependencies whenever I change one line?"),
            A(
                """Because of layer order. Docker caches each instruction's result and reuses it
                only if that instruction and everything before it are unchanged. If you copy the
                whole source before installing dependencies, any edit invalidates the copy
                layer and every layer after it, including the install.

                Copy the dependency files first, install, then copy the source:

                    COPY pyproject.toml poetry.lock ./
                    RUN poetry install --only main --no-root
                    COPY tidewater ./tidewater

                Now a code change only rebuilds the last layer. Add a .dockerignore so that
                local caches, virtual environments and data files don't end up in the build
                context and break the cache in surprising ways."""
            ),
        ],
    ),
    filler(
        "pytest_fixtures_data",
        [
            U("How do I test pipeline code without a real warehouse?"),
            A(
                """Test the logic, not the warehouse. Structure code so transformations are
                functions from data to data, then test them with small hand-written inputs.

                - Pure transformations: build a DataFrame of five rows that covers the edge
                  cases, such as missing readings, duplicates and DST days, and assert on the
                  output.
                - SQL models: run them against DuckDB in tests if the dialect is close enough,
                  or use the warehouse's own test tooling on a tiny schema.
                - I/O edges: keep them thin and test them with a local container or a fake only
                  where the behaviour matters.

                A handful of realistic fixture files, checked into the repository and named for
                what they represent, like 'meter_with_gap.csv', makes tests readable and catches
                regressions that synthetic random data never would."""
            ),
        ],
    ),
    filler(
        "monitoring_grafana",
        [
            U("Quick Grafana panel for energy usage per day from Postgres?"),
            A(
                """Use a time series panel with a query that buckets by day:

                    SELECT
                      date_trunc('day', ts) AS time,
                      sum(kwh) AS usage
                    FROM readings
                    WHERE $__timeFilter(ts)
                    GROUP BY 1
                    ORDER BY 1;

                The $__timeFilter macro applies the dashboard's time range, so the panel only
                reads what's shown. Set the panel to bars rather than lines for daily totals;
                bars read better for discrete days.

                If the table is large, create a daily rollup table or materialised view and
                point the panel at that; dashboards that aggregate raw readings on every
                refresh get slow quickly."""
            ),
        ],
    ),
    filler(
        "git_worktrees",
        [
            U("I keep stashing work to review a colleague's branch. Better way?"),
            A(
                """git worktree lets you check out another branch in a separate directory, sharing
                the same repository:

                    git worktree add ../tidewater-review colleague/feature-x
                    cd ../tidewater-review

                Your main checkout stays exactly as it was, uncommitted changes and all. When
                you're done:

                    git worktree remove ../tidewater-review

                Each worktree needs its own virtual environment if you run code there, but for
                reading and running tests on a branch it beats stashing, which is easy to
                forget and occasionally conflicts when popped."""
            ),
        ],
    ),
    filler(
        "ssh_config",
        [
            U("Typing long ssh commands to the VM is getting old."),
            A(
                """Put the details in ~/.ssh/config:

                    Host tide
                        HostName 203.0.113.24
                        User deploy
                        IdentityFile ~/.ssh/tidewater_ed25519
                        ServerAliveInterval 60

                Then `ssh tide` is enough, and scp, rsync and git use the alias too. Add
                `LocalForward 5433 localhost:5432` to reach the database on the VM through the
                tunnel without exposing it publicly. Use an ed25519 key with a passphrase and
                an agent, and disable password login on the server."""
            ),
        ],
    ),
    filler(
        "tiling",
        [
            U("Tiling a small splashback myself. What do I need to know?"),
            A(
                """A splashback is a great first tiling job.

                - Plan the layout on the floor first and start from the centre line so cut
                  tiles at both ends are equal, not a sliver on one side.
                - Fix a straight batten along the bottom if the worktop isn't level, and tile up
                  from it.
                - Use ready-mixed adhesive for small areas, spread with a notched trowel, and
                  only as much as you can tile in ten minutes.
                - Spacers keep the gaps even; a laser or spirit level keeps rows straight.
                - Cut with a manual tile cutter for straight cuts, and a tile file or nibblers
                  around sockets. Turn off the power before working around sockets.
                - Grout after a day, and seal the join with the worktop using silicone, not grout,
                  since it needs to flex."""
            ),
        ],
    ),
    filler(
        "insulation",
        [
            U("The flat is freezing. What are cheap ways to keep heat in?"),
            A(
                """Start with draughts, since they're the cheapest to fix:

                - Self-adhesive draught strip around doors and opening windows.
                - A brush or flap on the letterbox, and a draught excluder at the bottom of
                  doors.
                - Seal gaps around skirting boards and pipes with decorator's caulk.
                - Chimney balloon or a removable cap in unused fireplaces.

                Then the cheap add-ons: thick curtains lined with thermal fabric and closed at
                dusk, reflective panels behind radiators on outside walls, and a rug over bare
                floorboards. A smart thermostat or radiator valves help you heat only the rooms
                you use. The bigger jobs, like loft insulation and secondary glazing, come
                after."""
            ),
        ],
    ),
    filler(
        "flooring",
        [
            U("Laminate or engineered wood for the living room?"),
            A(
                """Engineered wood has a real hardwood top layer on a stable core: it looks and
                feels like wood, can usually be sanded once or twice, and adds value. Laminate
                is a photographic layer on fibreboard: cheaper, tougher against scratches, but
                it sounds hollow underfoot and can't be refinished.

                For a living room you'll keep for years, engineered wood is worth it if the
                budget allows. Either way, use a good underlay, particularly in a flat, where
                neighbours below will thank you, and leave an expansion gap at the walls hidden
                by skirting or beading. Let the boards acclimatise in the room for a couple of
                days before fitting."""
            ),
        ],
    ),
    filler(
        "seed_sowing",
        [
            U("What can I sow directly on the plot in April?"),
            A(
                """April is busy. Direct sow, once the soil has warmed a little:

                - Carrots, beetroot, radishes, spring onions and lettuce in short rows every few
                  weeks for a steady supply.
                - Peas, with twiggy supports.
                - Spinach and chard.
                - Parsnips, which are slow to germinate; mark the rows with radishes, which come
                  up fast.

                Keep tender crops like beans, squash and courgettes indoors or in modules until
                after the last frost. Cover early sowings with fleece on cold nights, and keep
                the soil moist until seedlings appear."""
            ),
        ],
    ),
    filler(
        "raised_beds",
        [
            U("Are raised beds worth building on the allotment?"),
            A(
                """They help on heavy clay, waterlogged ground or if bending is hard, and they
                make the plot tidy and easy to divide into rotation groups. The soil warms up
                earlier in spring, too.

                Downsides: the cost of timber and soil, and beds dry out faster in summer. On
                good, well-drained soil you can get most of the benefit from defined beds with
                paths between them, no wood needed: never walk on the beds, and add compost to
                the surface each year.

                If you build, keep beds no wider than you can reach the middle of from both
                sides, about 1.2 metres, and use untreated or safely treated timber."""
            ),
        ],
    ),
    filler(
        "tokyo_neighbourhoods",
        [
            U("Where should we stay in Tokyo for five days?"),
            A(
                """Pick a base near a major line rather than chasing a particular sight.

                - Shinjuku: huge transport hub, endless food, lively at night; can feel
                  overwhelming.
                - Shibuya: young and energetic, good for shopping and nightlife, well connected.
                - Asakusa: older, quieter, near temples and traditional streets; further from the
                  west side.
                - Tokyo Station or Ginza: convenient for the shinkansen to Kyoto, calmer at
                  night, and pricier.

                For a first visit, somewhere on or near the Yamanote loop makes everything easy.
                Hotel rooms are small; look at the square metres, not just the photos."""
            ),
        ],
    ),
    filler(
        "japan_packing",
        [
            U("What should I pack for Japan that I might not think of?"),
            A(
                """A few things people often forget:

                - Slip-on shoes: you'll take them off constantly in temples, ryokans and some
                  restaurants.
                - Socks without holes, for the same reason.
                - A small towel or handkerchief: many public toilets have no paper towels or
                  dryers.
                - A coin purse: you'll collect lots of coins.
                - A bag for your rubbish: public bins are rare and you carry litter home.
                - A plug adapter for type A sockets.

                Leave space in your luggage; you'll come back with more than you took."""
            ),
        ],
    ),
    filler(
        "cycling_clothes",
        [
            U("What do I actually need to wear for longer rides?"),
            A(
                """For rides over a couple of hours, these make the difference:

                - Padded bib shorts: the bibs stop the waistband digging in. Worn without
                  underwear, which surprises people.
                - A close-fitting jersey with rear pockets for food, a phone and a spare tube.
                - A light windproof gilet for descents and changeable weather.
                - Mitts to protect your hands and reduce numbness.
                - Chamois cream on long days.

                Layer for the temperature at the start, not the middle of the day; you can stuff
                a gilet in a pocket, but you can't warm up on a cold descent without one."""
            ),
        ],
    ),
    filler(
        "bike_maintenance",
        [
            U("What bike maintenance should I do myself each week?"),
            A(
                """A quick routine that prevents most roadside problems:

                - Wipe and lube the chain: degrease it when it's gritty, then a drop of lube on
                  each roller, spin the cranks, and wipe off the excess.
                - Check tyres for cuts and embedded glass or flints, and pump them up.
                - Squeeze the brakes and check pads for wear.
                - Make sure the wheel quick-releases or thru-axles are tight.
                - Listen for new noises; a creak is often something loose.

                Every few months, check chain wear, clean the cassette, and look at cables for
                fraying. A clean bike is easier to check, and problems are easier to spot."""
            ),
        ],
    ),
    filler(
        "dog_walk_pull",
        [
            U("The dog pulls like a train on the lead. How do we fix it?"),
            A(
                """Pulling works for the dog, because it gets where it wants to go. The fix is to
                make pulling stop the walk and a loose lead move it forward.

                - The moment the lead goes tight, stop and stand still. When the dog turns back
                  or the lead slackens, mark it with a word and move on.
                - Reward often for walking near you, especially at first: a treat by your leg
                  every few steps.
                - Change direction often; it keeps the dog paying attention to you.
                - Practise in boring places first. Trying to teach loose-lead walking next to a
                  park full of squirrels is hard mode.

                A front-clip harness can reduce pulling while you train. Expect weeks, not
                days, and keep walks short and frequent while you work on it."""
            ),
        ],
    ),
    filler(
        "dog_alone",
        [
            U("How do we get the dog used to being left alone for a few hours?"),
            A(
                """Build it gradually from very short absences the dog barely notices.

                - Start with seconds: step out of the room, come back before the dog gets
                  anxious, and make leaving and returning completely boring.
                - Lengthen slowly, over days, to minutes and then longer. If the dog cries or
                  paces, go back a step.
                - Give something to do as you leave: a stuffed chew toy or a snuffle mat.
                - Exercise first; a tired dog settles more easily.
                - Use a camera to see what actually happens while you're out.

                Rescue dogs often need longer. If there's destruction or constant howling,
                speak to a behaviourist rather than pushing on."""
            ),
        ],
    ),
    filler(
        "stag_budget",
        [
            U("How do I handle money for a group weekend without awkwardness?"),
            A(
                """Be transparent and early.

                - Share a clear cost per head up front, including accommodation, activities and
                  shared food, with what's optional and what isn't.
                - Collect deposits with a deadline so bookings are secure.
                - Use a shared expense app for things bought on the weekend, settled once at the
                  end.
                - Decide in advance whether the group pays the groom's share, and split it
                  evenly.

                Offer a way to join for part of the weekend at a lower cost. Someone always
                has a tighter budget than they'll admit."""
            ),
        ],
    ),
    filler(
        "mortgage_overpay",
        [
            U("Should we overpay the mortgage or save the extra money?"),
            A(
                """Compare the mortgage rate with what the savings would earn after tax. If the
                mortgage costs more, overpaying gives a guaranteed return equal to that rate.

                But liquidity matters. Money overpaid into a mortgage is hard to get back, so
                first make sure you have an emergency fund and that pension contributions with
                an employer match are maxed out. Check the overpayment limit on your deal;
                many allow around ten per cent a year without charges.

                A balanced approach many people take: build the emergency fund, then split any
                extra between overpaying and investing for the long term."""
            ),
        ],
    ),
    filler(
        "meditation",
        [
            U("I want to try meditation but I get bored in two minutes."),
            A(
                """Start with two minutes, then. The habit matters more than the length.

                - Pick a fixed moment, like after making the morning tea, so it's attached to
                  something you already do.
                - Use a guided session at first; a voice gives your attention somewhere to go.
                - When your mind wanders, notice it and come back. That noticing is the
                  exercise, not a failure.
                - Add a minute a week if you want more.

                If sitting still is the problem, try walking meditation: slow walking with
                attention on your feet and breath. It counts."""
            ),
        ],
    ),
    filler(
        "podcast_setup",
        [
            U("What's a good way to listen to Japanese podcasts at my level?"),
            A(
                """Listen actively first, then passively.

                - Choose podcasts made for learners, with transcripts, so you can check what you
                  missed.
                - Listen once without the transcript, once with it, looking up only the words
                  that repeat, then once more without.
                - Shadow a short section: play a sentence, pause, and repeat it aloud with the
                  same rhythm.
                - Use leftover time, like commuting or washing up, for relaxed re-listening of
                  episodes you already know.

                Slowing playback to 0.8 speed is fine at first; move back to normal speed as
                soon as you can."""
            ),
        ],
    ),
)

# Near misses: the same subject as a question, about someone else or another setting.
FILLERS = FILLERS + (
    filler(
        "intern_dashboard",
        [
            U(
                """An analyst on another team has low vision and uses screen magnification. She
                asked me to make the usage dashboard easier for her. Where do I start?"""
            ),
            A(
                """Good of you to take it seriously; most of what helps her helps everyone.

                - Size and contrast: larger default fonts for labels and numbers, and dark text
                  on a light background with strong contrast. Avoid light grey text.
                - Fewer, bigger panels: magnification means she sees a small part of the screen
                  at once, so a dashboard with twenty small charts is exhausting. Put the key
                  numbers at the top left, where she starts.
                - Direct labels on lines instead of a separate legend, so she doesn't have to pan
                  back and forth to match them.
                - Tooltips aren't enough on their own; offer a table view or a download of the
                  underlying data, which screen readers and magnifiers handle better.

                Then ask her to try it and tell you what's still hard. She'll know better than
                any checklist."""
            ),
        ],
    ),
    filler(
        "friend_keto",
        [
            U(
                """My flatmate is doing keto and asked if I could bake him something for his
                birthday. Is that even possible?"""
            ),
            A(
                """It is, with ground nuts doing the work of flour and a sugar substitute for
                sweetness.

                A good bet is a flourless chocolate torte: melted dark chocolate with a high
                cocoa content, butter and eggs, sweetened with erythritol, baked low and slow
                until just set. It's rich enough that a thin slice satisfies.

                Or almond flour cookies with butter, vanilla and a handful of dark chocolate
                chips. Expect them to be softer and more fragile than wheat cookies; let them
                cool on the tray.

                Some sweeteners behave differently: erythritol can crystallise as it cools and
                has a cooling aftertaste in large amounts, so blends with monk fruit often taste
                better. Ask him which ones he's happy with."""
            ),
        ],
    ),
    filler(
        "work_airflow",
        [
            U(
                """At work we run a big Airflow deployment with the Celery executor and the
                scheduler has got sluggish: tasks sit in 'queued' for minutes. Any idea?"""
            ),
            A(
                """Queued for minutes usually means not enough worker slots or pool slots, or a
                scheduler that can't keep up with parsing DAG files.

                - Check pools and concurrency limits first: a default pool with few slots, or
                  low max_active_tasks per DAG, will queue tasks even when workers are idle.
                - Look at worker concurrency and how many workers are actually running.
                - DAG parsing: heavy top-level code in DAG files, such as database calls or
                  large imports, slows every scheduler loop. Keep top-level code trivial, and
                  check the DAG processing times in the logs.
                - Increase the scheduler's parsing processes, or run more than one scheduler if
                  the version supports it.

                Measure before changing settings: the scheduler's own metrics will show whether
                time goes to parsing, to queuing or to the executor."""
            ),
        ],
    ),
    filler(
        "brother_buying",
        [
            U(
                """My brother is buying his first flat and asked me what to look for at
                viewings, since we've just been through it. What should I tell him?"""
            ),
            A(
                """A checklist for viewings, focused on things that are expensive or impossible
                to change:

                - Damp: musty smells, fresh paint in one corner, black mould around windows.
                - Windows and roof: ask their age; replacements are costly.
                - Boiler and electrics: age, service history, the look of the fuse box.
                - Light and noise: visit at different times of day, and once in the evening.
                - For a flat: the lease length, service charge and ground rent, and any major
                  works planned for the building.
                - The area: walk to the nearest shop and station, and talk to a neighbour if one
                  is around.

                Tell him to take photos and notes at each viewing. After three or four, they
                blur together."""
            ),
        ],
    ),
    filler(
        "friend_audax",
        [
            U(
                """A friend from the club is riding a 300 km audax next month, overnight.
                I'm in awe. How do people even prepare for that?"""
            ),
            A(
                """Audax riders prepare differently from racers: it's about steady pace,
                self-sufficiency and comfort over a very long day.

                - They build up through shorter audaxes, 100, then 200 km, learning how their
                  body and kit behave after ten hours.
                - Comfort beats speed: a bike fit for long hours, a saddle they trust, bags for
                  food and layers.
                - Lights and night riding practice, because much of a 300 happens in the dark.
                - Eating constantly: real food at controls, snacks between. Under-eating ends
                  more audaxes than fitness.
                - Time management: the distance has a time limit, so they keep stops short
                  rather than riding fast.

                Offering to meet him at a control with a flask of soup would probably be the
                best gift he gets all year."""
            ),
        ],
    ),
    filler(
        "colleague_wedding",
        [
            U(
                """Different wedding: a colleague is getting married in August and I'm invited
                to the evening do. What's the etiquette on gifts for evening guests?"""
            ),
            A(
                """Evening guests aren't expected to give as much as day guests, but a card with
                a small gift or contribution is a nice gesture.

                - If there's a gift list or honeymoon fund, a modest contribution is ideal.
                - Otherwise, a card with a handwritten message and something small: a bottle of
                  something they like, or a plant.
                - Bring it with you and leave it at the card table, or send it beforehand.

                Dress according to the invitation, and don't outshine the day guests. Arrive
                at the stated time; evening receptions often start with the first dance."""
            ),
        ],
    ),
    filler(
        "neighbour_kitchen",
        [
            U(
                """Our downstairs neighbour just got a kitchen quote for £25,000 and nearly fell
                over. Are full kitchens really that expensive?"""
            ),
            A(
                """They can be, and the range is enormous. A full kitchen replacement with new
                cabinets, stone worktops, integrated appliances, new electrics and plumbing,
                plastering and flooring, fitted by a company, easily reaches that figure.

                Where the money goes: cabinets and worktops are the big material costs,
                appliances can be anything from modest to luxurious, and labour for fitting,
                electrics, plumbing and making good is often a third or more of the total.

                Ways people bring it down: keeping the layout the same so plumbing and
                electrics don't move, flat-pack cabinets with a good fitter, laminate worktops,
                and buying appliances separately in sales. Getting three itemised quotes is the
                best way to see what's reasonable locally."""
            ),
        ],
    ),
    filler(
        "parents_cat",
        [
            U(
                """My parents' cat is twelve and they've never insured her. Is it too late to
                bother?"""
            ),
            A(
                """Not necessarily, but it's harder. Many insurers stop offering new policies at
                a certain age, often eight to ten for cats, and those that do will exclude any
                condition she's already had, charge higher premiums, and often require a
                co-payment on claims.

                An alternative many owners of older pets choose is self-insuring: putting the
                monthly amount a policy would cost into a dedicated savings account. It won't
                cover a huge bill in the first year, but it covers any condition, including
                existing ones.

                Either way, a regular senior check-up once or twice a year catches common
                problems in older cats, like kidney disease and thyroid issues, early, when
                they're cheaper to manage."""
            ),
        ],
    ),
    filler(
        "work_tfc",
        [
            U(
                """At work the platform team uses Terraform Cloud workspaces, one per
                environment. Is that better than separate state files per folder?"""
            ),
            A(
                """They solve the same problem in different ways. Workspaces in a managed
                service give you remote state, locking, run history, access control and
                policy checks without running anything yourself. Separate folders with their
                own backends are simpler to understand and keep everything in code.

                The main trade-offs:

                - Visibility: a managed service shows who ran what and when, which matters for
                  a team.
                - Differences between environments: folders make them explicit in code, while
                  workspaces share one configuration with variables.
                - Cost and lock-in: the managed service has pricing tiers; plain backends cost
                  almost nothing.

                For a platform team with several people and compliance needs, the managed
                workspaces are usually worth it."""
            ),
        ],
    ),
    filler(
        "work_spark",
        [
            U(
                """Different memory problem, at work: a Spark job spills to disk for ages on one
                stage. One task takes forty minutes while the others take two."""
            ),
            A(
                """One task much slower than the rest is the signature of data skew: one key has
                far more rows than the others, so one partition is huge.

                - Find the key: count rows per join or group key and look at the top few.
                  Often it's a null or a default value like 'unknown'.
                - If it's nulls, filter them out before the join or handle them separately.
                - Salting: add a random suffix to the hot key on the big side and replicate the
                  small side across the suffixes, which spreads the work.
                - Turn on adaptive query execution, which can split skewed partitions
                  automatically in recent versions.
                - If one side is small, a broadcast join avoids the shuffle altogether.

                More memory only helps if the partition almost fits; skew usually needs one of
                the fixes above."""
            ),
        ],
    ),
    filler(
        "blunt_feedback",
        [
            U(
                """I have to tell a teammate his pipeline code isn't good enough to merge. How do
                I give direct feedback without wrecking the relationship?"""
            ),
            A(
                """Directness and kindness aren't opposites; vagueness is what hurts.

                - Do it privately and soon, not in a review thread with everyone watching.
                - Be specific about the code, not the person: 'The loader reprocesses every
                  file on each run and has no tests' rather than 'this is sloppy'.
                - Explain why it matters: the cost, the risk, what breaks.
                - Agree on what 'good enough' looks like, with a concrete list.
                - Offer help: pair on the first fix, or point to an example in the codebase.

                Then follow up when he's made the changes and say what's better. People
                remember how you handled the second conversation more than the first."""
            ),
        ],
    ),
    filler(
        "teach_intern",
        [
            U("I'm mentoring a summer intern who's never written SQL. How should I structure it?"),
            A(
                """Give them real questions and a small, safe dataset from day one.

                - Week 1: SELECT, WHERE, ORDER BY, and LIMIT on one table. Each day ends with a
                  question they answer themselves, like 'which meters reported the most last
                  week?'.
                - Week 2: GROUP BY and aggregates, then joins, with a diagram of the tables on
                  the wall.
                - Week 3: CTEs and window functions, by rewriting their earlier queries more
                  cleanly.
                - After that: a small project of their own with a short presentation at the end.

                Give them read-only access to a copy of the data, so mistakes cost nothing, and
                review their queries with them rather than just fixing them."""
            ),
        ],
    ),
    filler(
        "fuji_climb",
        [
            U(
                """A friend says we should climb Mount Fuji while we're in Japan. Is that
                realistic?"""
            ),
            A(
                """Only in the official climbing season, roughly early July to early September,
                when the huts and trails are open. Outside that, the mountain is closed to
                casual climbers and genuinely dangerous.

                In season, most people climb from the fifth station in the afternoon, sleep a
                few hours in a mountain hut, and set off around 2am to reach the summit for
                sunrise. It's a long, steep walk on loose volcanic gravel rather than a
                technical climb, but altitude sickness is common, and it's cold at the top even
                in August. Huts need booking in advance, and there's now a daily limit and a fee
                on the most popular trail.

                If your dates are outside the season, seeing Fuji from Hakone or Kawaguchiko is
                the realistic and beautiful alternative."""
            ),
        ],
    ),
    filler(
        "eulogy",
        [
            U(
                """My friend has to give a eulogy for her grandmother next week and asked me for
                help. I don't know where to begin."""
            ),
            A(
                """A eulogy doesn't need to cover a whole life. It needs to help people recognise
                the person they loved.

                - Start by gathering stories from family: small, specific moments say more than
                  a list of achievements.
                - Choose a thread, like her generosity, her humour or her garden, and pick
                  stories that show it.
                - Keep it short enough to deliver without breaking down, and write it in full.
                - It's fine to include a moment of gentle humour; laughter at a funeral is often
                  a relief.
                - Print it in a large font, and have someone ready to step in and finish reading
                  if she can't.

                Offer to listen while she reads it aloud the night before."""
            ),
        ],
    ),
    filler(
        "balcony_herbs",
        [
            U("My sister wants to grow herbs on her tiny balcony. What works?"),
            A(
                """Most Mediterranean herbs love a sunny balcony and cope with some neglect.

                - Rosemary, thyme, oregano and sage: drought-tolerant and perennial, in a
                  gritty, free-draining mix.
                - Mint: vigorous, so give it its own pot.
                - Parsley and chives: happy in partial shade, and they come back.
                - Basil: needs warmth and sun; grow it in summer only, or indoors on a sill.

                Use pots with drainage holes, group them so they shade each other's roots, and
                water in the evening during hot spells. Harvest often; cutting encourages bushy
                growth."""
            ),
        ],
    ),
)

FILLERS = FILLERS + (
    filler(
        "dbt_snapshots",
        [
            U("How do I keep the history of meter metadata when a meter's tariff changes?"),
            A(
                """That's a slowly changing dimension, and dbt snapshots handle it. A snapshot
                records each version of a row with valid_from and valid_to columns:

                    {% snapshot meters_snapshot %}
                    {{ config(
                        target_schema='snapshots',
                        unique_key='meter_id',
                        strategy='check',
                        check_cols=['tariff', 'location', 'owner_id'],
                    ) }}
                    select * from {{ source('crm', 'meters') }}
                    {% endsnapshot %}

                Each run compares the listed columns with the latest version; if any changed,
                it closes the old row and inserts a new one. To find the tariff that applied to
                a reading, join on meter_id and on the reading's time falling between valid_from
                and valid_to.

                Run snapshots on a schedule that matches how often the source changes, and never
                drop the snapshot table: it's the only place that history exists."""
            ),
        ],
    ),
    filler(
        "data_contracts",
        [
            U("Upstream keeps renaming columns and breaking our loads. How do we stop it?"),
            A(
                """Make the interface explicit. A data contract is an agreement between the team
                producing data and the teams consuming it: the schema, types, meaning of each
                field, freshness, and how changes are announced.

                Practically:

                - Write the expected schema down in the repository, as a YAML or JSON schema
                  file, owned jointly.
                - Validate incoming data against it at the start of your pipeline and fail with
                  a clear message naming the field.
                - Agree on a change process: additive changes are fine any time; renames and
                  removals need notice and a deprecation period where both old and new columns
                  exist.
                - Put a check in the producer's CI that compares their output schema with the
                  contract, so they find out before you do.

                The technical part is easy; the conversation with the upstream team is what
                makes it work."""
            ),
        ],
    ),
    filler(
        "to_sql_slow",
        [
            U("pandas to_sql into Postgres is painfully slow for a million rows."),
            A(
                """to_sql issues INSERT statements, which is slow for bulk loads even with
                method="multi". For Postgres, use COPY, which is designed for bulk loading and
                is typically ten times faster or more:

                    import io

                    def copy_frame(frame, table, conn):
                        buffer = io.StringIO()
                        frame.to_csv(buffer, index=False, header=False)
                        buffer.seek(0)
                        with conn.cursor() as cur:
                            cur.copy_expert(f"COPY {table} FROM STDIN WITH (FORMAT csv)", buffer)

                For very large loads, drop or defer indexes on the target table and recreate them
                afterwards, and load into an unlogged staging table if you can rebuild it on
                failure. With psycopg 3, the cursor's copy() method lets you stream rows
                without building the CSV in memory first."""
            ),
        ],
    ),
    filler(
        "pg_partitioning",
        [
            U("Should the readings table be partitioned? It's 400 million rows."),
            A(
                """At that size, partitioning by time is usually worth it, mainly for
                maintenance rather than query speed.

                - Declarative range partitioning by month: each month is its own table behind
                  the parent, and queries with a time filter only touch the relevant months.
                - Retention becomes instant: dropping an old partition is a metadata operation,
                  whereas deleting millions of rows creates bloat and a long vacuum.
                - Indexes per partition are smaller and rebuild faster.

                Downsides: primary keys and unique constraints must include the partition key,
                and queries without a time filter scan every partition. Create future
                partitions ahead of time, for example with the pg_partman extension or a
                scheduled job, so inserts never fail for lack of a partition."""
            ),
        ],
    ),
    filler(
        "k8s_limits",
        [
            U("What should I set for CPU and memory requests and limits on the workers?"),
            A(
                """Memory and CPU behave differently, so treat them differently.

                - Memory: set the request to what the worker normally uses and the limit a bit
                  above its peak. Exceeding the memory limit kills the container, so the limit
                  should be a safety net, not a target.
                - CPU: set a request so the scheduler places pods sensibly, and consider no CPU
                  limit at all. Exceeding a CPU limit doesn't kill anything; it throttles the
                  container, which shows up as mysterious slowness and latency spikes.

                Measure real usage over a week with your metrics stack before settling the
                numbers, and revisit them after big changes. Requests far above real usage
                waste money; requests far below it cause noisy-neighbour problems."""
            ),
        ],
    ),
    filler(
        "uv_packaging",
        [
            U("Our Python dependency setup is a mess of requirements files. Modern way?"),
            A(
                """Move to a single pyproject.toml with a lockfile. uv makes it fast and simple:

                    uv init --package tidewater
                    uv add pandas sqlalchemy httpx
                    uv add --dev pytest ruff

                Dependencies go in pyproject.toml with loose version ranges, and uv writes a
                uv.lock file that pins every package, including transitive ones, for
                reproducible installs. `uv sync` creates or updates the virtual environment to
                match the lock exactly, locally and in CI.

                Commit the lockfile. Update deliberately with `uv lock --upgrade` on a schedule,
                for example monthly, in its own pull request, so a breaking change in a
                dependency is easy to spot and revert."""
            ),
        ],
    ),
    filler(
        "floor_sanding",
        [
            U("We found original floorboards under the carpet. Can I sand them myself?"),
            A(
                """Yes, it's a satisfying job if you're patient. Hire a drum sander and an edging
                sander for a weekend.

                - Prepare: punch down nail heads below the surface, or they'll tear the sanding
                  belts. Replace or patch any broken boards.
                - Sand in three passes, coarse, medium and fine, along the grain, keeping the drum
                  sander moving at all times so it doesn't gouge a dip.
                - Edges and corners with the edging sander, then a scraper for the last bits.
                - Vacuum thoroughly, wipe with a barely damp cloth, and finish with oil or a
                  water-based lacquer, at least two coats.

                Wear a proper dust mask and ear protection, seal the doorways with plastic
                sheeting, and warn the neighbours about the noise."""
            ),
        ],
    ),
    filler(
        "wallpaper",
        [
            U(
                "There are about four layers of old wallpaper in the back bedroom. How do I get "
                "it off?"
            ),
            A(
                """A steam stripper is the best tool for several layers; you can hire or buy one
                cheaply.

                - Score the paper first with a scoring tool so steam can get through, especially
                  if the top layer is vinyl or painted.
                - Hold the steam plate on one area for half a minute, then scrape with a wide
                  stripping knife at a low angle to avoid gouging the plaster.
                - Work from the top down, and put dust sheets down; it's wet and messy.
                - Once it's off, wash the walls with warm water and a little sugar soap to remove
                  paste residue, which stops paint or new paper adhering.

                Expect some plaster repairs; old paper is sometimes what's holding the surface
                together."""
            ),
        ],
    ),
    filler(
        "winter_veg",
        [
            U("What can I grow on the plot over winter so it isn't just bare soil?"),
            A(
                """Quite a lot, if you plant in late summer and early autumn:

                - Garlic and overwintering onions, planted in October, harvested next summer.
                - Broad beans sown in November for an early crop in late spring.
                - Leeks, kale, winter cabbages and sprouts, planted out in summer and harvested
                  through the cold months.
                - Perpetual spinach and chard, which keep going in mild winters.
                - Green manures like field beans or phacelia on empty beds, dug in or cut down
                  in spring to feed the soil.

                Covering bare soil with a mulch of compost or cardboard also protects it from
                winter rain, if you'd rather not grow anything."""
            ),
        ],
    ),
    filler(
        "nara",
        [
            U("Is a half-day in Nara enough from Kyoto?"),
            A(
                """A half-day covers the highlights, a full day lets you enjoy them.

                The essentials are close together: Todai-ji with its enormous bronze Buddha in a
                vast wooden hall, the park with its famously bold deer, and Kasuga Taisha,
                a shrine lined with hundreds of stone and bronze lanterns. That's about four
                hours at a relaxed pace.

                The deer bow for crackers sold in the park, but they also nip and head-butt
                when they think you have more, so hold the crackers out of sight and show your
                empty hands when you're done.

                If you have a full day, add Isuien garden and the old merchant streets of
                Naramachi, which are much quieter than Kyoto's."""
            ),
        ],
    ),
    filler(
        "counters",
        [
            U("Japanese counters are driving me mad. Do I need to learn them all?"),
            A(
                """No. Learn a handful well and you'll cover most of daily life.

                - つ (hitotsu, futatsu, mittsu...): the general counter for things up to ten. When
                  in doubt, use it.
                - 人 (nin): people, with the irregular hitori and futari for one and two.
                - 枚 (mai): flat things like tickets, plates and shirts.
                - 本 (hon): long thin things like bottles, pens and trains.
                - 円 (en), 時 (ji) and 分 (fun or pun): money, hours and minutes.

                In restaurants you'll mostly need the general counter and people. The sound
                changes, like ippon and sanbon, are best learned by hearing them rather than
                as rules."""
            ),
        ],
    ),
    filler(
        "turbo_trainer",
        [
            U("Is an indoor trainer worth it for winter?"),
            A(
                """If you want to keep fitness through dark, wet months, yes. An hour indoors is
                more focused than an hour outside: no traffic lights, no descents, constant
                effort.

                - A smart trainer, where the rear wheel comes off and the bike sits on it,
                  controls resistance automatically and works with training apps; it's the
                  most pleasant option.
                - A basic wheel-on trainer is much cheaper, noisier, and wears the tyre; fit a
                  dedicated trainer tyre.

                Essentials: a big fan, a towel, and a mat to protect the floor from sweat.
                Structured sessions of forty-five minutes to an hour are plenty; long
                endurance rides are more bearable outdoors."""
            ),
        ],
    ),
    filler(
        "grooming",
        [
            U("How often should we groom a short-haired dog?"),
            A(
                """Short coats are easy, but a quick routine keeps her comfortable and lets you
                spot problems early.

                - Brush weekly with a rubber curry brush or grooming mitt, which lifts dead hair
                  and most dogs enjoy it.
                - Check ears weekly for redness or smell, and wipe the outer ear if dirty.
                - Trim nails every few weeks, or when you hear them clicking on hard floors.
                - Bath only when she's dirty or smelly, with a dog shampoo; too often strips the
                  natural oils.
                - Brush teeth a few times a week with dog toothpaste.

                Pair each step with treats from the start, so grooming is something she looks
                forward to."""
            ),
        ],
    ),
    filler(
        "best_man_duties",
        [
            U("Apart from the speech, what does a best man actually do on the day?"),
            A(
                """More than people expect, mostly keeping things calm:

                - Get the groom to the venue on time, dressed and fed.
                - Look after the rings until the ceremony; check you have them twice.
                - Handle small payments or envelopes for suppliers if asked.
                - Guide guests, help the ushers, and keep the groom's phone if he wants it away.
                - Give the speech, then relax a little, but keep an eye on anything that needs
                  sorting.
                - At the end, make sure the couple's gifts and cards are collected and taken
                  somewhere safe.

                Carry an emergency kit: plasters, safety pins, painkillers, phone charger and a
                spare copy of the speech."""
            ),
        ],
    ),
    filler(
        "lens_choice",
        [
            U("The camera came with a kit zoom. Is a second lens worth buying for the trip?"),
            A(
                """A small fast prime is the classic second lens: a 35mm or 50mm equivalent with
                a wide aperture like f/1.8. It's light, cheap compared with zooms, and lets in
                far more light, which means sharp handheld shots in dim temples and evening
                streets, and softly blurred backgrounds for portraits.

                The kit zoom covers everything else in daylight. If you find yourself wanting to
                reach further for wildlife or distant details, a telephoto zoom comes later.

                Travel light: two lenses, a spare battery or two, and a couple of memory cards
                are enough. The best shots usually come from being out early, not from more
                gear."""
            ),
        ],
    ),
    filler(
        "editing",
        [
            U("How should I edit the trip photos without it becoming a second job?"),
            A(
                """Cull hard, then edit in batches.

                - First pass: flag only the photos you'd show someone. Be ruthless; most sets
                  end up with one keeper in ten.
                - Batch adjustments: apply one base edit, for exposure, white balance and a bit
                  of contrast, to all photos from the same place and light, then tweak the best
                  ones individually.
                - Straighten horizons and crop; it's the quickest improvement.
                - Export at a sensible size for sharing, and keep the RAW files backed up.

                Set a limit, like one evening per week of travel, and make a small printed book
                of the best twenty at the end."""
            ),
        ],
    ),
)


# Applied preferences (category 3): the standing rule applied to a new situation.
_APPLIED = {
    "coeliac": q(
        "preference",
        3,
        "We'll pass a famous bakery in Kyoto. What do I need to check before buying anything?",
        "gluten, coeliac disease, cross-contamination",
        0,
    ),
    "colourblind": q(
        "preference",
        3,
        "You're picking line colours for my training-load chart. Which colours must not be the "
        "only way to tell the lines apart?",
        "<<cb_answer>>",
        0,
    ),
    "caffeine": q(
        "preference",
        3,
        "What should you leave out of a pick-me-up suggestion before my long Sunday ride?",
        "caffeine: coffee and black tea",
        0,
    ),
    "dialect": q(
        "preference",
        3,
        "If you write the query for the new monthly usage report, which dialect should it be in?",
        "<<dialect>>",
        0,
    ),
    "sober": q(
        "preference",
        3,
        "You're planning a birthday evening out for me. What should the plan steer clear of?",
        "<<sober_answer>>",
        0,
    ),
}
ARCS = tuple(ask(a, _APPLIED[a.name]) if a.name in _APPLIED else a for a in ARCS)

FILLERS = FILLERS + (
    filler(
        "backfill_strategy",
        [
            U("I need to backfill two years of readings after a bug. Any gotchas?"),
            A(
                """Backfills go wrong in predictable ways, so plan for them.

                - Process in chunks, such as one day or one week per run, so a failure only
                  costs one chunk and progress is easy to see.
                - Make each chunk idempotent: overwrite its partition rather than appending,
                  so you can rerun any piece safely.
                - Throttle it. A backfill that saturates the database slows every dashboard
                  and the live pipeline; run it at night or with limited parallelism.
                - Check a sample of the backfilled data against known values before running the
                  whole range.
                - Tell the people who use the data, because numbers will change.

                Keep a log of which chunks are done, so you can resume after an interruption
                without starting over."""
            ),
        ],
    ),
    filler(
        "secrets",
        [
            U("Where should tidewater's API keys live? Right now they're in a .env on the VM."),
            A(
                """A .env file is acceptable for a one-person project if it's outside the
                repository, readable only by the service user, and backed up securely. The
                next step up is a secrets manager: your cloud provider's, or a self-hosted
                vault.

                - The application reads secrets at startup from the manager or from environment
                  variables injected by the platform, never from files in the image.
                - Rotate keys periodically and immediately after anyone with access leaves.
                - Scope keys tightly: a read-only key for the weather API, a write key only for
                  the loader.
                - Scan the repository history for accidentally committed secrets; if one is
                  found, rotate it, since deleting the commit isn't enough."""
            ),
        ],
    ),
    filler(
        "pandas_memory",
        [
            U("How can I make my DataFrames use less memory?"),
            A(
                """A few changes often cut memory by more than half:

                - Use categorical dtype for string columns with few distinct values, like meter
                  type or region; each value is then stored once.
                - Downcast numbers: int64 to int32 or smaller, float64 to float32 where the
                  precision is enough.
                - Read only the columns you need with usecols, and set dtypes up front in
                  read_csv rather than converting afterwards.
                - Use the pyarrow-backed string dtype, which is far more compact than Python
                  objects.

                Check with df.memory_usage(deep=True) before and after. If it's still too big,
                process in chunks or switch to a library that works lazily on Parquet."""
            ),
        ],
    ),
    filler(
        "skirting",
        [
            U("Our skirting boards have gaps above them where the floor dips. Fix?"),
            A(
                """For small gaps, decorator's caulk is the answer: run a bead along the top of
                the skirting, smooth it with a wet finger, and paint over once dry. It flexes
                slightly as the house moves, unlike filler, which cracks.

                For gaps at the bottom, between skirting and floor, a thin beading or scotia
                moulding pinned to the skirting, not the floor, hides the gap and allows the
                floor to move. Larger gaps where the floor dips significantly may mean
                refitting the skirting by scribing its bottom edge to follow the floor's
                profile, which is fiddly but gives the neatest result."""
            ),
        ],
    ),
    filler(
        "squash",
        [
            U("We have way too many courgettes. Ideas beyond ratatouille?"),
            A(
                """The annual courgette glut. Some ways through it:

                - Grate and squeeze them into fritters with feta, dill and spring onion.
                - Slice thinly and dress raw with lemon, olive oil, mint and parmesan shavings.
                - Bake them into a chocolate courgette cake, which stays remarkably moist.
                - Make a big batch of courgette and basil soup and freeze it.
                - Pickle them with mustard seeds and turmeric for sandwiches.

                And pick them small; a courgette left a few days becomes a marrow, which is
                fine stuffed and baked but much less versatile."""
            ),
        ],
    ),
    filler(
        "hiragana_handwriting",
        [
            U("Should I bother practising writing Japanese by hand?"),
            A(
                """For kana, yes: writing each character a few times with the correct stroke
                order helps you tell similar ones apart, like シ and ツ, and makes handwritten
                signs and menus readable.

                For kanji, it depends on your goals. Writing thousands of kanji by hand takes
                huge time, and in daily life most people type. For a traveller, recognising
                kanji matters far more than producing them. Many learners write only the
                kanji they keep confusing, which is an efficient compromise.

                If you enjoy it, a few minutes of calligraphy-style practice is relaxing, and
                stroke order does make dictionary lookups by handwriting much easier."""
            ),
        ],
    ),
)

FILLERS = FILLERS + (
    filler(
        "schema_migrations_dw",
        [
            U("How do I add a column to a huge warehouse table without breaking dashboards?"),
            A(
                """Additive changes are the safe kind, as long as you roll them out in order.

                - Add the column as nullable first, so existing loads and queries keep working.
                - Update the loading code to populate it for new data.
                - Backfill historical rows in chunks, if they need values.
                - Only then update models and dashboards that read it, and add a not-null test
                  once the backfill is complete.

                Dashboards usually break on renames and removals rather than additions. For
                those, add the new column alongside the old, move consumers over, and drop the
                old one after an announced deprecation period. A view layer between raw tables
                and dashboards makes all of this easier, since you can change tables without
                changing what users query."""
            ),
        ],
    ),
    filler(
        "cron_to_utc",
        [
            U("My cron job runs at the wrong hour twice a year. Why?"),
            A(
                """Daylight saving time. Cron uses the server's local time zone, so a job at
                01:30 may run twice, or not at all, on the nights the clocks change, and its
                position relative to UTC-based data shifts by an hour for half the year.

                The robust fix is to run the server in UTC and schedule in UTC, converting to
                local time only in reports. If the job really must follow local time, for
                example because it's tied to business hours, use a scheduler that supports
                explicit time zones, and avoid scheduling in the hour between one and three in
                the morning, when the transitions happen."""
            ),
        ],
    ),
    filler(
        "door_hanging",
        [
            U("I'm replacing an internal door. How hard is hanging one?"),
            A(
                """It's doable with patience; the fiddly part is fitting the door to an old,
                slightly out-of-square frame.

                - Measure the opening at the top, middle and bottom, and buy the nearest door
                  size, then trim to fit. Take equal amounts off both sides where possible.
                - Leave a gap of about two to three millimetres at the sides and top, and more at
                  the bottom for flooring.
                - Use the old hinge positions if they're sound; mark and chisel the recesses on
                  the new door carefully so the hinge sits flush.
                - Hang it with one screw per hinge first, check it swings and closes, then add
                  the rest.

                A sharp plane and a good chisel make all the difference."""
            ),
        ],
    ),
    filler(
        "bees",
        [
            U("How can I make the plot better for bees and other pollinators?"),
            A(
                """Pollinators need flowers across the whole season, water and somewhere to
                nest.

                - Plant a strip of flowers among the vegetables: borage, calendula, cosmos,
                  lavender and phacelia are all easy and loved by bees.
                - Let a few herbs like thyme, chives and oregano flower rather than cutting them
                  all.
                - Leave a small patch of rough grass or a log pile for nesting insects.
                - A shallow dish of water with stones to land on.
                - Avoid insecticides, or use them only at dusk when bees aren't flying.

                Your crops benefit too: beans, squash and fruit set far better with plenty of
                pollinators around."""
            ),
        ],
    ),
    filler(
        "jet_lag_japan",
        [
            U("How do we handle jet lag flying east to Japan?"),
            A(
                """Flying east is the harder direction, because your body has to go to sleep
                earlier than it wants to.

                - In the days before, shift bedtime and wake-up earlier by an hour a day if you
                  can.
                - On the plane, set your watch to Japan time and sleep or stay awake according
                  to it.
                - On arrival, get outside in daylight, especially in the morning, and stay up
                  until a reasonable local bedtime, however tired you are.
                - Keep the first day light: a walk, a bath, an early dinner.

                Most people adjust in a few days. Plan the things you care about most for the
                second half of the trip."""
            ),
        ],
    ),
    filler(
        "cycling_commute",
        [
            U("Thinking of cycling to work on non-training days. Worth it?"),
            A(
                """It's one of the easiest ways to add riding without finding extra time, and it
                makes the day start better.

                - Ride the commute easy; it counts as recovery, not training.
                - Keep a spare set of clothes and a towel at work if you can, and check whether
                  there's secure bike parking and a shower.
                - A cheaper, more robust bike with mudguards and a rack is better for commuting
                  than your good road bike.
                - Plan a quieter route, even if it's a little longer.

                Lights front and back, used even in daylight, and a good lock are essential."""
            ),
        ],
    ),
)

FILLERS = FILLERS + (
    filler(
        "sql_null",
        [
            U("Why does my NOT IN query return nothing when I know there are matches?"),
            A(
                """Almost certainly a NULL in the subquery. `x NOT IN (1, 2, NULL)` is never true:
                SQL's three-valued logic can't rule out that x equals the unknown value, so the
                comparison is unknown and the row is filtered out. One NULL in the list empties
                the whole result.

                Use NOT EXISTS instead, which handles NULLs the way you expect:

                    SELECT m.*
                    FROM meters m
                    WHERE NOT EXISTS (
                        SELECT 1 FROM readings r WHERE r.meter_id = m.meter_id
                    );

                Or filter NULLs out of the subquery explicitly. NOT EXISTS is usually at least
                as fast, and many engines turn it into an anti-join. It's worth making it your
                default for 'rows without a match' queries."""
            ),
        ],
    ),
    filler(
        "observability_logs",
        [
            U("Our pipeline logs are a wall of text. How do I make them useful?"),
            A(
                """Make them structured and consistent, so you can filter instead of read.

                - Log JSON with fixed fields: timestamp, level, pipeline, task, run id, and the
                  partition or date being processed.
                - One line per meaningful event: started, finished with row counts and duration,
                  skipped and why, failed with the error.
                - Keep debug detail behind a flag, off by default.
                - Include counts everywhere: rows read, written, rejected. Most data bugs show
                  up as a count that changed.

                Then send them somewhere searchable. Being able to ask 'show me every run where
                rows written was zero' turns logs from a diary into a tool."""
            ),
        ],
    ),
    filler(
        "ladder_safety",
        [
            U("I need to paint the stairwell and it's high. Any tips for doing it safely?"),
            A(
                """Stairwells are where DIY falls happen, so set up properly rather than
                balancing on a stepladder on a stair.

                - Use a combination ladder or a stair ladder with adjustable legs, or hire a
                  small platform designed for stairs, so you have a level, stable base.
                - Never overreach: move the ladder instead. Keep your belt buckle between the
                  rails.
                - Put a board across only if it's rated for the purpose and secured at both
                  ends.
                - Paint from the top down: ceiling, then walls, then woodwork.
                - An extension pole on the roller lets you reach much of the wall from the
                  landing or the stairs themselves.

                And have someone at home while you do it."""
            ),
        ],
    ),
    filler(
        "seed_saving",
        [
            U("Can I save seeds from my own tomatoes for next year?"),
            A(
                """Yes, from open-pollinated or heirloom varieties; seeds from F1 hybrids won't
                grow true to the parent.

                Pick a fully ripe fruit from a healthy plant, scoop the seeds and their gel into
                a jar with a little water, and leave it for two or three days until a layer of
                mould forms. This fermentation removes the gel that stops germination. Rinse the
                seeds in a sieve, spread them on a plate or paper towel, and let them dry
                completely for a week.

                Store them in a labelled paper envelope somewhere cool and dry. They'll keep for
                several years. Don't save seeds from blighted plants."""
            ),
        ],
    ),
    filler(
        "onsen_towns",
        [
            U("Besides Hakone, are there other onsen towns worth a night?"),
            A(
                """Several, each with a different feel:

                - Kinosaki Onsen: a canal-side town where guests stroll between seven public
                  baths in yukata and wooden sandals. Easy from Kyoto.
                - Kusatsu: famous for its very hot, mineral-rich water and the steaming
                  yubatake in the centre of town.
                - Beppu: a city of steam vents and a huge variety of baths, including sand and
                  mud baths.
                - Ginzan Onsen: a small, picturesque town of wooden inns, especially lovely in
                  snow.

                If you only have time for one more, Kinosaki fits best with a Kyoto base."""
            ),
        ],
    ),
)
