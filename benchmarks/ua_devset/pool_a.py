"""Pool A: a backend developer with a side project (an inventory API called stockroom) who
also cooks, trains for a half marathon, learns Spanish, plans a trip to Portugal, budgets,
buys presents and changes jobs. Hand-written; see the package docstring."""

from __future__ import annotations

from benchmarks.ua_devset.model import A, U, arc, ask, filler, q

PERSONAS = (
    {"partner": "Maya", "cur": "£", "job_old": "Parcelwise", "team": "the routing team"},
    {"partner": "Tom", "cur": "€", "job_old": "Freightly", "team": "the billing team"},
    {"partner": "Priya", "cur": "$", "job_old": "Dockhand Logistics", "team": "the tracking team"},
    {"partner": "Daniel", "cur": "£", "job_old": "Cargoline", "team": "the warehouse team"},
)

# ---------------------------------------------------------------------------------------------
# Standing instructions and preferences: said once, early; asked about in other words.

UNITS = arc(
    "units",
    [
        U(
            """Before you answer the bread thing, one standing request: from now on please
            use <<units_long>> in anything you write for me. <<units_why>> Anyway, my
            no-knead loaf keeps coming out dense and pale. What am I doing wrong?"""
        ),
        A(
            """Noted, <<units_short>> from here on.

            A dense, pale no-knead loaf almost always comes down to three things: the dough
            didn't ferment long enough, the pot wasn't hot enough, or the lid came off too
            early or too late.

            Fermentation: no-knead bread relies on time instead of kneading to build gluten.
            If your kitchen is cool, the 12 to 18 hours in most recipes can stretch to a full
            day. Look at the dough rather than the clock: it should have roughly doubled,
            be dotted with bubbles on top and jiggle when you shake the bowl. If it is still
            tight and flat, give it more time.

            Heat: preheat the Dutch oven, lid on, for a full 45 minutes at your oven's
            hottest setting. A pot that is only warm gives you a soft, pale crust and a
            tight crumb because the dough can't spring up fast enough.

            Lid: bake covered for the first half so the steam trapped inside keeps the
            surface soft while the loaf expands, then uncover and bake until the crust is a
            deep chestnut brown. Most people pull it too soon; darker than you think is
            right is usually right.

            One more thing: let it cool for an hour before cutting. Slicing it hot makes the
            crumb gummy, which reads as dense even when the bake was fine."""
        ),
    ],
    [
        q(
            "instruction",
            4,
            [
                "What measurement system should a recipe or a running plan written for me use?",
                "If you give me quantities, temperatures or distances, which units am I expecting?",
            ],
            "<<units_answer>>",
            0,
        )
    ],
    slots=[
        {
            "units_long": "metric units: grams, millilitres, kilometres and degrees Celsius",
            "units_why": "My kitchen scale only does grams and I think in kilometres.",
            "units_short": "metric",
            "units_answer": "metric: grams, millilitres, kilometres, Celsius",
        },
        {
            "units_long": "US customary units, so cups, ounces, miles and Fahrenheit",
            "units_why": "I don't own a kitchen scale and my running watch is set to miles.",
            "units_short": "cups, ounces, miles and Fahrenheit",
            "units_answer": "US customary: cups, ounces, miles, Fahrenheit",
        },
    ],
    early=True,
)

DIET = arc(
    "diet",
    [
        U(
            """Can you help me plan dinners for next week? Five weeknights, nothing that takes
            more than forty minutes. And so you know for this and anything later: <<diet>>"""
        ),
        A(
            """Here's a week that stays under forty minutes a night and reuses a few
            ingredients so nothing goes to waste.

            Monday: chickpea and spinach curry with rice. Start the rice first, then soften an
            onion, add garlic, ginger and curry powder, a tin of tomatoes and a tin of
            chickpeas, simmer fifteen minutes and wilt in the spinach at the end.

            Tuesday: black bean tacos. Mash half the beans with cumin and lime, keep the rest
            whole, and top with quick-pickled red onion, shredded cabbage and a spoon of
            yoghurt or avocado.

            Wednesday: one-pan gnocchi with cherry tomatoes and courgette. Roast everything
            together on a single tray; the gnocchi crisp up without boiling.

            Thursday: leftover curry night, or fried rice with the rest of Monday's rice, frozen
            peas, spring onions and a couple of eggs scrambled in.

            Friday: homemade pizza on shop-bought dough with whatever vegetables are left
            plus a good handful of rocket after it comes out of the oven.

            Shopping overlap: onions, garlic, tinned tomatoes and lime show up more than once,
            and the red onion pickle keeps all week. <<diet_note>>"""
        ),
    ],
    [
        q(
            "preference",
            4,
            [
                "What foods should be left out of any meal you suggest for me?",
                "When you pick dishes for me, what do I not eat?",
            ],
            "<<diet_answer>>",
            0,
        )
    ],
    slots=[
        {
            "diet": "I'm vegetarian. No meat and no fish, but eggs and dairy are fine.",
            "diet_note": "Everything here is already meat-free, so it fits how you eat.",
            "diet_answer": "meat and fish; vegetarian, eggs and dairy fine",
        },
        {
            "diet": "I'm pescatarian, so fish and seafood are fine but no other meat.",
            "diet_note": "If you want more protein, salmon fillets roast on the gnocchi tray.",
            "diet_answer": "meat other than fish and seafood; pescatarian",
        },
        {
            "diet": "I don't eat red meat, so no beef, pork or lamb. Chicken is fine.",
            "diet_note": "Shredded chicken thighs work well in the tacos if you want them.",
            "diet_answer": "red meat: beef, pork, lamb",
        },
    ],
    early=True,
)

FORMAT = arc(
    "format",
    [
        U(
            """A request about your answers in general, please remember it: <<fmt_rule>>
            Right, actual question. Should I rebase my feature branch or merge main into it?"""
        ),
        A(
            """Short version: rebase your own unpublished branch, merge anything shared.

            - Rebase rewrites your commits on top of the latest main, so the history stays
              linear and the eventual merge is trivial. Use it while the branch is yours alone.
            - Merging main into the branch keeps every commit as it happened and never
              rewrites anything, which is the safe choice once someone else has pulled it.
            - If you rebase a branch others use, they'll have to reset onto the new history;
              that's the main way rebasing goes wrong.
            - `git pull --rebase` for your daily sync and `git rebase -i` to squash fixups
              before review give you most of the benefit with little risk.
            - Whichever you pick, run the tests after resolving conflicts, because a clean
              textual merge can still be a broken program."""
        ),
    ],
    [
        q(
            "instruction",
            4,
            [
                "How does the user want replies laid out?",
                "What did I ask about the shape of the answers you give me?",
            ],
            "<<fmt_answer>>",
            0,
        )
    ],
    slots=[
        {
            "fmt_rule": "keep every answer to five bullet points at most unless I ask for "
            "more detail.",
            "fmt_answer": "at most five bullet points unless more detail is asked for",
        },
        {
            "fmt_rule": "open every answer with a one-line summary, then give the details.",
            "fmt_answer": "a one-line summary first, then the details",
        },
        {
            "fmt_rule": "no tables, ever. They render as garbage in the terminal client I "
            "read you in. Plain paragraphs or lists are fine.",
            "fmt_answer": "tables are out because of the terminal client; paragraphs or lists",
        },
    ],
    early=True,
)

EDITOR = arc(
    "editor",
    [
        U(
            """I want ruff to lint stockroom as I type. Please don't tell me to install an
            extension, I don't use VS Code: I'm a <<editor>> person and I'm not switching."""
        ),
        A(
            """No extension needed. Ruff ships its own language server (`ruff server`), so
            any editor with an LSP client can talk to it, <<editor>> included.

            First, make ruff a dev dependency of the project so the editor and CI agree on the
            version:

                uv add --dev ruff

            Then put the configuration in `pyproject.toml`, where both the command line and
            the language server read it:

                [tool.ruff]
                line-length = 100
                target-version = "py312"

                [tool.ruff.lint]
                select = ["E", "F", "I", "UP", "B"]

            In <<editor>>, register `ruff server` as a language server for Python files.
            <<editor_hint>> Keep your existing Python language server for completion and
            go-to-definition; ruff only provides diagnostics, quick fixes and formatting, so
            the two complement each other.

            To check it works, open a file, add an unused import, and you should see an F401
            diagnostic within a second. Formatting on save is a separate switch: call the
            server's format request on write, or run `ruff format` from a save hook."""
        ),
    ],
    [
        q(
            "preference",
            4,
            [
                "What does the user write code in every day?",
                "Which text editor am I committed to?",
            ],
            "<<editor>>",
            0,
        )
    ],
    slots=[
        {
            "editor": "Neovim",
            "editor_hint": "With nvim-lspconfig that is one line: "
            "require('lspconfig').ruff.setup({}).",
        },
        {
            "editor": "Emacs",
            "editor_hint": 'With eglot, add (python-mode . ("ruff" "server")) to '
            "eglot-server-programs.",
        },
        {
            "editor": "Helix",
            "editor_hint": "In languages.toml, add ruff to the language-servers list for python.",
        },
    ],
    early=True,
)

SHELL = arc(
    "shell",
    [
        U(
            """For any install commands you give me, assume I'm on <<os>>. And my shell is
            <<shell>>, so skip bash-only tricks. Now, how do I get Postgres running locally
            for stockroom without polluting my machine?"""
        ),
        A(
            """The least invasive way is to run Postgres in a container and keep the data in
            a named volume, so removing it later leaves nothing behind.

                docker run -d --name stockroom-db \\
                  -e POSTGRES_PASSWORD=devpass -e POSTGRES_DB=stockroom \\
                  -p 5432:5432 -v stockroom-pg:/var/lib/postgresql/data postgres:16

            That command is the same in any shell, since it has no bash-specific syntax.
            <<os_hint>>

            Point the app at it with a single environment variable:

                DATABASE_URL=postgresql://postgres:devpass@localhost:5432/stockroom

            Put that line in a `.env` file that your settings loader reads, and add `.env` to
            `.gitignore`. To stop the database, `docker stop stockroom-db`; to wipe it,
            remove the container and then the `stockroom-pg` volume.

            If you would rather not run Docker at all, a native install works too, but then
            upgrades and multiple versions get fiddly. For a side project the container is
            the low-maintenance route."""
        ),
    ],
    [
        q(
            "preference",
            4,
            [
                "Which operating system should setup instructions for me assume?",
                "What platform and command-line shell am I working with?",
            ],
            "<<os>>, <<shell>>",
            0,
        )
    ],
    slots=[
        {
            "os": "macOS",
            "shell": "zsh",
            "os_hint": "On a Mac, Docker Desktop or OrbStack both provide the docker command.",
        },
        {
            "os": "Fedora Linux",
            "shell": "fish",
            "os_hint": "On Fedora, podman is preinstalled and accepts the same arguments.",
        },
        {
            "os": "Windows with WSL2 Ubuntu",
            "shell": "PowerShell",
            "os_hint": "With WSL2, Docker Desktop's WSL integration exposes docker inside Ubuntu.",
        },
    ],
    early=True,
)

CODESTYLE = arc(
    "codestyle",
    [
        U(
            """When you write Python for me, two rules please: type hints on every function,
            and tests written with <<testlib>>, never unittest classes. Can you write me a
            function that splits a list of order lines into batches of at most N items?"""
        ),
        A(
            """Here it is, with a test in the style you asked for.

                from collections.abc import Iterator, Sequence
                from typing import TypeVar

                T = TypeVar("T")


                def batched(items: Sequence[T], size: int) -> Iterator[list[T]]:
                    if size < 1:
                        raise ValueError("size must be at least 1")
                    for start in range(0, len(items), size):
                        yield list(items[start : start + size])

            And the test:

                import pytest

                from stockroom.batching import batched


                @pytest.mark.parametrize(
                    ("n", "size", "expected"),
                    [(0, 3, []), (3, 3, [3]), (7, 3, [3, 3, 1])],
                )
                def test_batch_sizes(n: int, size: int, expected: list[int]) -> None:
                    assert [len(b) for b in batched(list(range(n)), size)] == expected


                def test_rejects_zero() -> None:
                    with pytest.raises(ValueError):
                        list(batched([1, 2], 0))

            If you're on Python 3.12, `itertools.batched` does the same job and returns
            tuples; the hand-written version is useful if you need lists or a clear error
            for a zero size."""
        ),
    ],
    [
        q(
            "instruction",
            4,
            [
                "What conventions should Python you write for me follow?",
                "Which testing tool and annotation rule did I ask you to stick to in code?",
            ],
            "type hints on every function, tests with <<testlib>>",
            0,
        )
    ],
    slots=[{"testlib": "pytest"}, {"testlib": "pytest functions and fixtures"}],
    early=True,
)

TRAINING_TIME = arc(
    "training_time",
    [
        U(
            """Something to keep in mind for any training plans: the only time I can
            realistically exercise is <<slot_time>>. <<slot_why>>"""
        ),
        A(
            """That's useful to know, and it's workable. A few things help when your window
            is fixed.

            Keep the routine identical: same kit laid out the night before, same route for
            easy days, so there's no decision to make when motivation is low. Decisions are
            where sessions get skipped.

            Warm up properly. Whatever the hour, the first ten minutes should be genuinely
            easy jogging or brisk walking plus a few leg swings and strides. This matters even
            more if you've been sitting or sleeping just before.

            Fuel simply. For runs under an hour you don't need to eat beforehand if you're
            used to it; a glass of water and maybe half a banana is plenty. For longer
            sessions, experiment with something small thirty minutes before.

            Protect recovery. A fixed training slot makes sleep the variable that decides
            whether the plan works. Aim for a consistent bedtime rather than catching up at
            weekends.

            When I write your plan, I'll put the long run at the weekend where you have more
            slack and keep weekday sessions to a length that fits your window."""
        ),
    ],
    [
        q(
            "preference",
            4,
            [
                "When during the day can the user fit in a workout?",
                "What part of my day is free for exercise?",
            ],
            "<<slot_answer>>",
            0,
        )
    ],
    slots=[
        {
            "slot_time": "early morning, before work; I leave the house at 7:15",
            "slot_why": "Evenings are taken.",
            "slot_answer": "early morning before work",
        },
        {
            "slot_time": "my lunch break, about fifty minutes, there's a shower at the office",
            "slot_why": "Mornings and evenings belong to the kids.",
            "slot_answer": "lunch break, about fifty minutes",
        },
        {
            "slot_time": "late evening, after 8:30 once the kids are asleep",
            "slot_why": "Mornings are chaos.",
            "slot_answer": "late evening after 8:30, kids asleep",
        },
    ],
    early=True,
)

ALLERGY = arc(
    "allergy",
    [
        U(
            """I'm cooking for <<partner>> on Saturday. Important: <<partner>> has a serious
            <<allergen>> allergy, so that can't go anywhere near the food, ever. Ideas for
            a starter that feels a bit special?"""
        ),
        A(
            """Allergy noted, and I'll keep it in mind whenever we talk about food you're
            making together.

            A few starters that feel special without much stress:

            Burrata with roasted grapes and thyme. Roast red grapes with olive oil, thyme and
            a pinch of salt until they just burst, then spoon them warm over torn burrata with
            toasted sourdough. It looks like restaurant food and takes fifteen minutes.

            Charred leeks with a mustard vinaigrette. Blanch whole young leeks, then char
            them hard in a griddle pan, split them and dress while warm. Finish with chopped
            egg and chives.

            Beetroot carpaccio. Slice cooked beetroot thinly, fan it out on a plate, add
            crumbled goat's cheese, orange segments and a few leaves of rocket.

            For safety: read every label, including stock cubes, pesto, breads and
            anything pre-made, because the allergen hides in processed foods. Use a clean
            board and clean pans, and if you bake, check the flour and chocolate for
            'may contain' warnings. When in doubt, leave it out and make it yourself."""
        ),
    ],
    [
        q(
            "preference",
            4,
            [
                "Which ingredient must never end up in food I make for <<partner>>?",
                "What is <<partner>> unable to eat for medical reasons?",
            ],
            "<<allergen>>",
            0,
        )
    ],
    slots=[{"allergen": "peanut"}, {"allergen": "sesame"}, {"allergen": "shellfish"}],
    early=True,
)

# ---------------------------------------------------------------------------------------------
# Information extraction: the answer is in something the assistant said.

DATEPARSE = arc(
    "dateparse",
    [
        U(
            """The supplier CSVs for stockroom have timestamps in every format imaginable:
            '03/04/2024 14:05', '2024-04-03T14:05Z', 'April 3rd 2024 2pm'. strptime with one
            format string keeps blowing up. How should I handle it?"""
        ),
        A(
            """Don't try to enumerate formats yourself; use python-dateutil, whose parser
            guesses the layout of a free-form string and handles all three of your examples.

                from datetime import UTC, datetime

                from dateutil import parser


                def parse_supplier_time(raw: str, dayfirst: bool) -> datetime:
                    value = parser.parse(raw, dayfirst=dayfirst)
                    if value.tzinfo is None:
                        value = value.replace(tzinfo=UTC)
                    return value.astimezone(UTC)

            Two details matter more than the library. First, '03/04/2024' is ambiguous: the
            3rd of April or the 4th of March. dateutil can't know, so decide per supplier
            and store that choice next to the supplier record; pass it as `dayfirst`. Second,
            strings without a zone are naive. Decide what they mean (usually the supplier's
            local time, or UTC) and attach it explicitly, otherwise comparisons with aware
            datetimes raise a TypeError later.

            Log every row that fails to parse with the supplier name and the raw value, and
            send those rows to a rejects table instead of aborting the import. After a week
            you'll know which suppliers need a dedicated format string."""
        ),
    ],
    [
        q(
            "extraction",
            4,
            [
                "Which package did you point me to for reading the inconsistent time strings "
                "in the supplier files?",
                "What library did the assistant recommend for turning messy timestamps into "
                "datetime objects?",
            ],
            "python-dateutil",
            1,
        ),
        q(
            "extraction",
            4,
            "Where did you say rows that can't be read should go during an import?",
            "a rejects table, logged with the supplier name and raw value",
            1,
        ),
    ],
)

INDEX = arc(
    "index",
    [
        U(
            """This query behind the monthly shipments page takes about nine seconds now that
            we have two million rows:

            SELECT warehouse_id, count(*) FROM shipments WHERE warehouse_id = $1 AND
            shipped_at >= $2 AND shipped_at < $3 GROUP BY warehouse_id;

            There's an index on shipped_at already. What am I missing?"""
        ),
        A(
            """The single-column index on shipped_at finds every shipment in the month across
            all warehouses, and then Postgres has to visit each of those rows to check the
            warehouse. With two million rows that's a lot of heap reads.

            Create a composite index with the equality column first and the range column
            second:

                CREATE INDEX CONCURRENTLY shipments_warehouse_shipped_idx
                    ON shipments (warehouse_id, shipped_at);

            With warehouse_id leading, the index jumps straight to one warehouse and then
            reads a contiguous range of dates. Since the query only counts rows, Postgres can
            often answer it with an index-only scan, provided the table is vacuumed recently
            enough for the visibility map to be current.

            Check the plan before and after:

                EXPLAIN (ANALYZE, BUFFERS) SELECT ...;

            You want to see 'Index Only Scan using shipments_warehouse_shipped_idx' and
            'Heap Fetches' close to zero. CONCURRENTLY avoids locking writes while it builds,
            but it can't run inside a transaction block, so run it outside your migration
            tool's transaction or mark that migration as non-transactional.

            Once the new index is in, the old shipped_at index may be redundant unless other
            queries filter on date alone; check pg_stat_user_indexes after a week."""
        ),
    ],
    [
        q(
            "extraction",
            4,
            [
                "What did you propose to make the slow monthly report query fast?",
                "How did the assistant suggest speeding up the count of shipments per month?",
            ],
            "a composite index on warehouse_id, shipped_at",
            1,
        ),
    ],
)

DOCKER = arc(
    "docker",
    [
        U(
            """My stockroom image is 1.2 GB and the build takes forever in CI. Can you help me
            write a proper Dockerfile?"""
        ),
        A(
            """A multi-stage build fixes both problems: compile dependencies in a builder
            stage, then copy only the installed environment into a small runtime stage.

                FROM python:3.12 AS builder
                WORKDIR /app
                COPY pyproject.toml uv.lock ./
                RUN pip install uv && uv sync --frozen --no-dev --no-install-project
                COPY src ./src
                RUN uv sync --frozen --no-dev

                FROM python:3.12-slim
                RUN useradd --create-home app
                WORKDIR /app
                COPY --from=builder /app/.venv /app/.venv
                COPY --from=builder /app/src /app/src
                ENV PATH="/app/.venv/bin:$PATH"
                USER app
                CMD ["uvicorn", "stockroom.main:app", "--host", "0.0.0.0", "--port", "8000"]

            Why it helps: the full python:3.12 image has compilers for building wheels, but
            the runtime stage is python:3.12-slim, which is a fraction of the size. The
            lockfile is copied before the source, so dependency installation is cached and
            only reruns when dependencies change, not on every code edit. Running as a
            non-root user is a cheap security win.

            Add a `.dockerignore` with `.git`, `.venv`, `__pycache__` and test data, or the
            build context alone can be hundreds of megabytes. Expect the final image to land
            around 150 to 200 MB."""
        ),
    ],
    [
        q(
            "extraction",
            4,
            [
                "Which base image did you choose for the runtime stage of my container?",
                "What image does the final stage of the Dockerfile you wrote start from?",
            ],
            "python:3.12-slim",
            1,
        ),
    ],
)

SPICES = arc(
    "spices",
    [
        U(
            """My curries always taste a bit flat and powdery even though I use plenty of
            spice. Can you give me a chana masala that actually tastes like something?"""
        ),
        A(
            """The usual culprit is adding ground spices to a wet pan, where they stew instead
            of frying. The fix: bloom them in hot oil for about thirty seconds before any
            liquid goes in, until they smell toasty. That releases the fat-soluble flavour
            compounds and takes away the raw, dusty taste.

            Chana masala for four:

            1. Warm a generous glug of oil, add a teaspoon of cumin seeds and let them
               sizzle until they darken a shade.
            2. Add two finely chopped onions with a pinch of salt and cook them properly, a
               good ten to twelve minutes, until deep golden. Flat curries often come from
               pale onions too.
            3. Stir in garlic and ginger paste for a minute.
            4. Lower the heat, add the ground spices (coriander, cumin, Kashmiri chilli,
               turmeric) and stir constantly for thirty seconds. This is the blooming step.
            5. Add chopped tomatoes and cook until the oil separates at the edges.
            6. Add two tins of chickpeas with some of their liquid, simmer fifteen minutes,
               mashing a few chickpeas to thicken the sauce.
            7. Finish with garam masala, a squeeze of lemon and fresh coriander.

            The acid and the garam masala at the end matter as much as the start: they lift
            everything that has been simmering."""
        ),
    ],
    [
        q(
            "extraction",
            4,
            [
                "What trick did you give me for getting more flavour out of powdered spices?",
                "How did you say to treat the ground spices so the dish doesn't taste dusty?",
            ],
            "bloom them in hot oil for about thirty seconds before any liquid",
            1,
        ),
    ],
)

MILEAGE = arc(
    "mileage",
    [
        U(
            """I've signed up for a half marathon in the spring. I can currently run about
            half an hour without stopping. Can you outline how I should build up?"""
        ),
        A(
            """Half an hour of continuous running is a solid base; a sixteen-week build is
            comfortable from there.

            Structure each week around three runs, plus one optional:

            - Two easy runs at a pace where you could hold a conversation.
            - One long run at the weekend, growing gradually; this is the session that
              prepares you for race distance.
            - Optionally, from week six, one session with some faster work: strides, tempo
              intervals or a parkrun.

            The rule that keeps people uninjured: increase your total weekly volume by no
            more than 10 percent from one week to the next, and every fourth week drop back
            by about a quarter to let your body absorb the work. Tendons and bones adapt more
            slowly than your heart and lungs, so you will feel ready for more before you
            actually are.

            Your longest run should reach roughly 18 to 19 kilometres, about three weeks
            before race day, then taper: cut volume by a third, then by half in the final
            week, while keeping a little intensity.

            Buy shoes from a running shop where you can try them on, and replace them when
            the cushioning feels flat. Sleep and easy pace do more for a first half than any
            clever workout."""
        ),
    ],
    [
        q(
            "extraction",
            4,
            [
                "What was your rule of thumb for how quickly my weekly running volume may grow?",
                "By how much at most did you say I could add to my training load each week?",
            ],
            "at most 10 percent a week",
            1,
        ),
    ],
)

BUDGET = arc(
    "budget",
    [
        U(
            """I get paid on the 25th and by the 10th of the next month I have no idea where
            it went. I don't want a spreadsheet with 40 categories. What's a simple system?"""
        ),
        A(
            """Start with the 50/30/20 split: half of your take-home pay for needs, 30 per cent
            for wants and 20 per cent for savings and paying down debt. It is crude, but that
            is the point; three buckets are easy to keep in your head.

            Needs are the bills you can't avoid: rent, utilities, groceries, transport,
            minimum debt payments. Wants are everything else you spend on: eating out,
            subscriptions, clothes beyond the basics, hobbies. Savings includes the emergency
            fund, retirement contributions and extra debt payments.

            Make it automatic:

            1. On payday, a standing order moves the savings share to a separate account
               before you can spend it.
            2. Bills come out of your main account by direct debit.
            3. What's left is your wants money for the month. Divide by the number of weeks
               and you have a weekly allowance, which is easier to judge than a monthly
               figure.

            Track for a month without changing anything first; most people discover one or
            two leaks, usually subscriptions and takeaways. If needs come to more than half,
            that's useful information too: the split is a target, not a rule."""
        ),
    ],
    [
        q(
            "extraction",
            4,
            [
                "How did you suggest dividing up my pay each month?",
                "What proportions did the assistant propose for spending versus saving income?",
            ],
            "50/30/20: needs, wants, savings",
            1,
        ),
    ],
)

STAR = arc(
    "star",
    [
        U(
            """I have a panel interview next week and they said there'll be behavioural
            questions. I ramble when I get those 'tell me about a time when' questions."""
        ),
        A(
            """Use the STAR structure: Situation, Task, Action, Result. It gives every answer
            a beginning, middle and end, which is exactly what stops rambling.

            - Situation: one or two sentences of context. Where were you, what was going on.
            - Task: what you specifically were responsible for.
            - Action: what you did, in the first person. This should be the longest part.
              Interviewers want your decisions, not the team's.
            - Result: the outcome, with a number if you have one, and what you learned.

            Prepare six to eight stories from your last few years that cover common themes:
            a conflict with a colleague, a mistake you made, a deadline under pressure, a time
            you influenced a decision without authority, a production incident, and something
            you are proud of. Most questions can be answered with one of them by shifting the
            emphasis.

            Practise out loud and time yourself: two minutes per answer is about right. If
            you notice you're spending a minute on the situation, cut it. End on the result
            and stop talking; silence after a good answer is fine."""
        ),
    ],
    [
        q(
            "extraction",
            4,
            [
                "What framework did you tell me to use for behavioural interview questions?",
                "How should my answers to 'tell me about a time' questions be structured?",
            ],
            "STAR: Situation, Task, Action, Result",
            1,
        ),
    ],
)

GIFT = arc(
    "gift",
    [
        U(
            """<<partner>>'s birthday is coming up. They've been saying they want to do
            something with their hands that isn't a screen. Budget about <<cur>>120."""
        ),
        A(
            """Something with their hands, off-screen, around <<cur>>120: a few ideas, most
            experiential so it's also time together.

            My top pick is a wheel-throwing pottery class for two. Many studios run single
            evening taster sessions; you each make a couple of pieces, the studio glazes and
            fires them, and you collect them a few weeks later, which gives the present a
            second moment. Taster sessions usually fit the budget for two people.

            Other options:

            - A bookbinding or letterpress workshop, if they like paper and stationery.
            - A beginner's woodworking kit, such as a spoon-carving set with a good knife,
              a couple of blanks and a short book; it can be done at the kitchen table.
            - A sourdough or pasta-making class, which ends with something to eat.
            - A plant terrarium workshop, which is calm and leaves them with something
              living to look after.

            If you go for a class, print a simple card with the date rather than only an
            email confirmation; unwrapping something still matters."""
        ),
    ],
    [
        q(
            "extraction",
            4,
            [
                "What was your first choice of present for <<partner>>?",
                "Which hands-on experience did you rank highest as a present for my partner?",
            ],
            "a wheel-throwing pottery class for two",
            1,
        ),
    ],
)

LANGUAGE = arc(
    "language",
    [
        U(
            """I've started Spanish properly, evening classes twice a week. What should I be
            doing between classes? I have maybe twenty minutes a day."""
        ),
        A(
            """Twenty minutes a day is plenty if it's the right twenty minutes. Split it in
            two.

            Ten minutes of vocabulary with spaced repetition. Use Anki with a deck of the
            most frequent 2,000 words, or make your own cards from words in class. Add
            sentences rather than single words when you can; a word in context is easier to
            recall and teaches you grammar for free.

            Ten minutes of listening. For beginners I'd point you to Dreaming Spanish: short
            videos graded by level where native speakers talk slowly about everyday topics,
            using gestures and drawings instead of translation. It trains your ear at exactly
            the level you can follow, which is where acquisition happens.

            Once a week, use your class notes to write five sentences about your week and
            bring them to class to get corrected. It's the cheapest speaking and writing
            practice there is.

            Don't worry about understanding everything. Aim for material where you follow
            the gist; if you understand nothing, go down a level, and if you understand every
            word, go up one."""
        ),
    ],
    [
        q(
            "extraction",
            4,
            [
                "What did you recommend for training my ear in the language I'm learning?",
                "Which videos did the assistant suggest for listening practice?",
            ],
            "Dreaming Spanish, graded videos",
            1,
        ),
    ],
)

# ---------------------------------------------------------------------------------------------
# Knowledge updates: a fact stated, then changed; the latest statement is the evidence.

DATABASE = arc(
    "database",
    [
        [
            U(
                """Quick sanity check on stockroom's setup. Right now everything lives in a
                single SQLite file next to the app. Is that going to bite me with two
                uvicorn workers?"""
            ),
            A(
                """It can work, with care. SQLite allows many readers but only one writer at a
                time, so two workers that write at the same moment will serialise, and one may
                get 'database is locked' if it waits longer than the busy timeout.

                Three settings make it much more forgiving:

                    PRAGMA journal_mode=WAL;
                    PRAGMA busy_timeout=5000;
                    PRAGMA synchronous=NORMAL;

                WAL lets readers continue while a write is in progress, and the busy timeout
                makes a blocked writer wait up to five seconds instead of failing at once.
                Set them on every new connection, for example in your engine's connect event.

                Keep write transactions short: do any slow work (HTTP calls, parsing) before
                opening the transaction, not inside it. For an inventory app with a handful of
                users this setup holds up well. The point to move to a client-server database
                is when you need several machines, heavy concurrent writes, or features like
                row-level locking for reservations."""
            ),
        ],
        [
            U(
                """Update on stockroom: we finally moved it off the single file and onto
                <<db_new>> last weekend. Alembic migrations ran clean, and reservations no
                longer hit lock errors. Should I change anything about connection handling?"""
            ),
            A(
                """Congratulations, that's a milestone. A few things change with a
                client-server database:

                - Use a connection pool and size it deliberately. With SQLAlchemy, start with
                  pool_size=5 and max_overflow=5 per worker; two workers means up to twenty
                  connections, comfortably inside the default server limit.
                - Set pool_pre_ping=True so stale connections after a restart are replaced
                  instead of raising errors on the first request.
                - Remove the SQLite pragmas from your connect event; they'd be errors now.
                - Put a statement timeout on the application role, for example 30 seconds, so
                  a runaway query can't hold locks forever.
                - Reservations can now use SELECT ... FOR UPDATE on the stock row to serialise
                  competing orders properly.

                Finally, set up backups from day one: a nightly dump to object storage is a
                fine start. Test a restore once, because an untested backup is a hope, not a
                backup."""
            ),
        ],
    ],
    [
        q(
            "update",
            4,
            [
                "What database engine does the inventory app run on at present?",
                "Where is stockroom's data stored these days?",
            ],
            "<<db_new>>",
            (1, 0),
        ),
    ],
    slots=[{"db_new": "Postgres 16"}, {"db_new": "PostgreSQL on a managed instance"}],
    min_gap=4,
)

RACE_GOAL = arc(
    "race_goal",
    [
        [
            U(
                """Realistic goal-setting question: for my first half marathon I'm thinking of
                aiming for <<goal1>>. My 5K is around 27 minutes. Is that sensible?"""
            ),
            A(
                """It's a sensible, slightly conservative target, which is exactly right for a
                first half. Race-time calculators would predict somewhat faster from a 27-minute
                5K, but those predictions assume endurance training you haven't done yet, and
                the second half of a first race is where optimism gets punished.

                Use the goal to set your pacing: divide the target by 21.1 and that's your
                average pace per kilometre. Plan to run the first 5 kilometres slightly slower
                than that, settle into goal pace through the middle, and only push in the last
                three if you feel good.

                In training, most of your running should be well slower than goal pace. Goal
                pace appears in small doses: a few kilometres inside a long run later in the
                plan, so your legs learn what it feels like.

                Re-evaluate after a tune-up race. A 10K about six weeks out tells you far more
                than any calculator. If it goes well, we can adjust the target then."""
            ),
        ],
        [
            U(
                """So the 10K went really well, faster than I expected. I'm going to be brave
                and change my half marathon goal: new target is <<goal2>>."""
            ),
            A(
                """That's a great result, and moving the goal after a tune-up race is exactly
                how it should be done. Your 10K time supports the new target.

                What changes in the remaining weeks:

                - The easy runs stay easy. Faster goal, same easy pace; don't let the new
                  number creep into every run.
                - Your long runs get a goal-pace section: in the next two long runs, run the
                  last 5 kilometres at the new race pace.
                - One midweek session becomes tempo: 3 by 8 minutes slightly faster than race
                  pace with 2 minutes of jogging between.

                On race day, start the first couple of kilometres about five seconds per
                kilometre slower than target pace. Crowds and adrenaline make you go out fast,
                and the time you bank early is paid back with interest after 15 kilometres."""
            ),
        ],
    ],
    [
        q(
            "update",
            4,
            [
                "What finishing time am I going for in my first 21K race now?",
                "What is the user's current target for the half?",
            ],
            "<<goal2>>",
            (1, 0),
        ),
    ],
    slots=[
        {"goal1": "2 hours 10", "goal2": "1:58"},
        {"goal1": "2:15", "goal2": "2:02"},
        {"goal1": "two hours flat", "goal2": "1:52"},
    ],
    min_gap=5,
)

TRIP = arc(
    "trip",
    [
        [
            U(
                """<<partner>> and I booked flights to Lisbon for a week in May! We'll fly
                in and out of Lisbon. We like walking, food, old buildings, and not too many
                museums. Can you sketch an itinerary?"""
            ),
            A(
                """A week in Portugal with walking, food and old buildings is a great fit.
                Here's a loose plan that keeps mornings active and evenings slow.

                Day 1: arrive and wander Alfama, the old Moorish quarter, without a plan. End
                at a miradouro for sunset, then dinner at a small tasca.

                Day 2: day trip to Sintra. Take the train from Rossio (about 40 minutes), go up
                to Pena Palace early before the tour groups, then walk down through the forest
                to the Moorish Castle. Quinta da Regaleira if you still have legs.

                Day 3: Belém: the monastery cloister, the riverside walk, and pastéis de nata
                from the famous bakery (the queue moves fast).

                Day 4: take the train north to Porto, about three hours. Evening in the Ribeira
                by the river.

                Day 5: Porto on foot: São Bento station's tiles, the Livraria Lello area, and
                a port cellar tour across the bridge in Vila Nova de Gaia.

                Day 6: back to Lisbon, Príncipe Real and LX Factory for a slower day.

                Day 7: last pastry, fly home.

                Book Pena Palace tickets ahead with a timed slot; they sell out in May."""
            ),
        ],
        [
            U(
                """Change of plan for Portugal: the Lisbon flights got cancelled and rebooking
                was expensive, so now we fly into Porto and out of Lisbon instead. Same week.
                Does the order of the plan still work?"""
            ),
            A(
                """It works even better as a one-way route, because you never backtrack.

                Days 1 to 2: Porto. Arrive, settle in by the Ribeira, and do the tiles,
                bookshop area and cellar tour the next day.

                Day 3: train south to Lisbon in the morning, about three hours; spend the
                afternoon in Alfama and catch sunset from a miradouro.

                Day 4: Sintra day trip, same advice as before: go up to Pena Palace early.

                Day 5: Belém and the riverside.

                Day 6: Príncipe Real, LX Factory, and a long last dinner.

                Day 7: fly home from Lisbon.

                Check your rail booking: the Alfa Pendular is faster than the Intercidades and
                often cheap if bought a couple of weeks ahead. And don't forget to move the
                Pena Palace slot to the new day."""
            ),
        ],
    ],
    [
        q(
            "update",
            4,
            [
                "Which city will we land in at the start of the Portugal holiday?",
                "Where does the trip with <<partner>> begin now?",
            ],
            "Porto",
            (1, 0),
        ),
        q(
            "extraction",
            4,
            [
                "What was the day trip out of the capital in the plan you drew up?",
                "Which excursion did you put on the second day of the first itinerary?",
            ],
            "Sintra, Pena Palace",
            (0, 1),
        ),
    ],
    min_gap=3,
)

FUND = arc(
    "fund",
    [
        [
            U(
                """I want to build an emergency fund. I'm thinking three months of expenses,
                which for me is about <<cur>><<fund1>>. Where should I keep it?"""
            ),
            A(
                """Three months is a good first target. Where to keep it matters less than
                keeping it separate and boring.

                - Easy access: a savings account you can withdraw from within a day or two,
                  without penalties. No stocks: an emergency often coincides with a market
                  slump, and you don't want to sell at a loss.
                - Separate from your current account, ideally at a different bank, so it's
                  out of sight and not part of your monthly picture.
                - Reasonable interest: shop around for the best easy-access rate, but don't
                  chase an extra fraction of a percent by locking it away.

                Fill it by automating a transfer on payday. If it takes a year, that's fine;
                even a partial fund turns a crisis into an inconvenience.

                Define what counts as an emergency in advance: job loss, urgent repairs,
                medical costs. A holiday is not one, however urgent it feels."""
            ),
        ],
        [
            U(
                """Revisiting the emergency fund: with <<partner>> going
                freelance, three months feels thin. We've decided to double it, so the new
                goal is six months, <<cur>><<fund2>>."""
            ),
            A(
                """That's a sensible response. Six months is the usual advice when a household's
                income is less predictable, and freelance income is lumpy by nature.

                A few adjustments:

                - Keep the first three months in easy access, as now. The second tranche can
                  sit in a notice account or short fixed-term savings at a slightly better
                  rate, since you'd only touch it in a long emergency.
                - Recalculate monthly expenses now rather than doubling an old number; costs
                  tend to drift up.
                - Agree with <<partner>> how freelance income feeds the fund, for example a
                  fixed percentage of each invoice, so good months top it up automatically.

                Meanwhile keep retirement contributions going if you can, especially any
                employer match; pausing those to hit the target faster is usually a poor
                trade."""
            ),
        ],
    ],
    [
        q(
            "update",
            4,
            [
                "How large is my rainy-day savings target at this point?",
                "What is the user currently aiming to keep set aside for emergencies?",
            ],
            "six months, <<cur>><<fund2>>",
            (1, 0),
        ),
    ],
    slots=[{"fund1": "6,000", "fund2": "12,000"}, {"fund1": "7,500", "fund2": "15,000"}],
    min_gap=5,
)

JOB = arc(
    "job",
    [
        [
            U(
                """Some context about me since it'll come up: I'm a backend developer at
                <<job_old>>, on <<team>>, mostly Python and Postgres. Stockroom is my side
                project. Today's question: what's a clean way to structure FastAPI routers?"""
            ),
            A(
                """One router per resource, grouped in a package, with the app factory wiring
                them together:

                    stockroom/
                      main.py          # create_app(): builds FastAPI, includes routers
                      api/
                        items.py       # router = APIRouter(prefix="/items", tags=["items"])
                        warehouses.py
                        reservations.py
                      services/        # business logic, no FastAPI imports
                      db/              # models, session handling

                Keep the routers thin: parse the request, call a service function, and map its
                result or exception to a response. Anything that decides what happens to stock
                lives in services, which makes it testable without HTTP.

                Use dependencies for cross-cutting needs, such as the database session and the
                current user, declared once in a `deps.py` and injected with Depends. Version
                the API by mounting routers under a prefix like /v1 from the start; it costs
                nothing now and saves a migration later."""
            ),
        ],
        [
            U(
                """I've started job hunting. I applied to <<apply1>> and <<apply2>> this week
                and I have a first call with a recruiter from <<apply1>> on Thursday. What
                should I ask them?"""
            ),
            A(
                """Good questions for a first recruiter call tell you whether the role is
                worth the next rounds, and show you're evaluating them too.

                - What does the team own, and what would I work on in the first three months?
                - How is the interview process structured, and how long does it usually take?
                - What's the salary band for the role? Asking early saves everyone time.
                - How are on-call and incidents handled, and how often is the rota?
                - Is the role remote, hybrid or office-based, and is that likely to change?
                - Why is the position open: growth or a replacement?

                Have a thirty-second summary of yourself ready: what you do now, one thing
                you're proud of, and what you're looking for next. Take notes during the call
                and write down the salary range and next steps immediately afterwards."""
            ),
        ],
        [
            U(
                """Update: <<apply2>> turned me down after the technical round, but I went all
                the way through with <<job_new>> and signed their offer yesterday. I start in
                six weeks. Any advice for handing in my notice?"""
            ),
            A(
                """Congratulations! Handing in notice well is mostly about being brief,
                grateful and organised.

                - Tell your manager in person or on a call before anyone else, then follow up
                  with a short written resignation giving your last day.
                - You don't owe a detailed reason. 'I've accepted a role that's a good next
                  step for me' is enough.
                - If they make a counter-offer, decide in advance how you'll respond. People who
                  accept counter-offers often leave within a year anyway.
                - Write a handover document: what you own, where things live, what's half
                  done, who to ask. Your former colleagues will remember that document.
                - Don't start the new job exhausted. If you can, take a few days off in between.

                And update your notes about the old job's systems before you lose access;
                your future self may want them for interviews one day."""
            ),
        ],
    ],
    [
        q(
            "update",
            4,
            [
                "Which company is the user going to be working for?",
                "Who is my employer from now on?",
            ],
            "<<job_new>>",
            (2, 0),
        ),
        q(
            "ordering",
            2,
            [
                "When did I say yes to my next employer?",
                "In which month did the user commit to the new company?",
            ],
            "<<date:2>>",
            (2, 0),
        ),
        q(
            "summary",
            1,
            [
                "Summarise how my job search went, from first applications to the outcome.",
                "Which companies did the user apply to, and what happened with each?",
            ],
            "applied to <<apply1>> and <<apply2>>; <<apply2>> turned me down after the "
            "technical round; signed an offer from <<job_new>>",
            (1, 0),
            (2, 0),
        ),
    ],
    slots=[
        {"apply1": "Northwind Freight", "apply2": "Tessellate", "job_new": "Northwind Freight"},
        {"apply1": "Lumen Health", "apply2": "Brightpath", "job_new": "Lumen Health"},
        {"apply1": "Quayside Labs", "apply2": "Orbital Retail", "job_new": "Quayside Labs"},
    ],
    early=True,
    min_gap=4,
)

# ---------------------------------------------------------------------------------------------
# Multi-session, ordering and summary questions: the evidence spans several sessions.

COOKED = arc(
    "cooked",
    [
        [
            U(
                """I made the mushroom risotto from the weekend plan last night. Taste was
                great but the texture was gluey, almost like porridge. Where did it go wrong?"""
            ),
            A(
                """Gluey risotto is nearly always overcooked rice or too much stirring at the
                wrong moment.

                - Rice: use arborio or carnaroli and start tasting at 16 minutes. It should
                  still have a slight bite in the centre when you take it off the heat; it keeps
                  cooking as it rests.
                - Stock: add it hot and a ladle at a time. Cold stock stalls the cooking and
                  you end up cooking the rice longer to compensate.
                - Stirring: stir often but not frantically. You want to loosen starch into the
                  liquid, not mash the grains.
                - Finish: off the heat, beat in butter and cheese, add a final splash of stock
                  so it flows like lava when you tilt the pan, then lid it for two minutes.

                Risotto waits for no one. If it sits in the pan for ten minutes before serving
                it will set, so have everyone at the table before the butter goes in."""
            ),
        ],
        [
            U(
                """Shakshuka report: big success! <<partner>> asked for it again next weekend.
                I added feta at the end like you said. Could I make the sauce ahead?"""
            ),
            A(
                """Glad it worked. Yes, the sauce is ideal for making ahead; the eggs are the
                only part that must be cooked fresh.

                Make the pepper and tomato base up to three days ahead and keep it in the
                fridge, or freeze it in portions for up to three months. The flavour actually
                improves overnight as the spices settle.

                To serve, warm the sauce in the pan until it bubbles gently, make wells with
                the back of a spoon, crack in the eggs, lid on, and cook on low until the
                whites are set and the yolks still runny, six to eight minutes. Then the feta,
                herbs and plenty of bread.

                If you double the sauce, you also have a quick pasta sauce for a weeknight:
                just loosen it with a little pasta water."""
            ),
        ],
        [
            U(
                """Tried the lentil bolognese tonight. Honestly it was fine but a bit one-note.
                What would give it more depth?"""
            ),
            A(
                """Lentils give body but little savouriness on their own, so the depth has to
                come from elsewhere. Try two or three of these:

                - Brown the soffritto (onion, carrot, celery) properly, for fifteen minutes,
                  until sweet and golden rather than just soft.
                - Fry a good spoon of tomato paste until it darkens before adding liquid.
                - Add umami: a splash of soy sauce, a teaspoon of miso or Marmite, or chopped
                  dried porcini with their soaking water.
                - Deglaze with red wine and let it reduce by half.
                - Finish with something bright: a little balsamic or lemon zest, plus a knob of
                  butter or a glug of good olive oil.

                And simmer longer than you think, at least 40 minutes, so the lentils break
                down slightly and the sauce turns silky."""
            ),
        ],
    ],
    [
        q(
            "multi_session",
            1,
            [
                "Which of your recipes have I actually cooked and told you about afterwards?",
                "What dishes has the user reported making at home?",
            ],
            "mushroom risotto, shakshuka, lentil bolognese",
            (0, 0),
            (1, 0),
            (2, 0),
        ),
        q(
            "multi_session",
            1,
            [
                "Which of the dishes I cooked did I like least, and which was the biggest hit?",
            ],
            "risotto gluey; lentil bolognese one-note; shakshuka big success",
            (0, 0),
            (1, 0),
            (2, 0),
        ),
    ],
    min_gap=3,
)

INJURIES = arc(
    "injuries",
    [
        [
            U(
                """The outside of my right knee started aching around kilometre eight on my
                long run. It's fine walking but hurts on stairs. Should I stop?"""
            ),
            A(
                """Pain on the outside of the knee that shows up at a predictable point in a
                run is a classic pattern of IT band irritation. I can't diagnose you, so if it
                gets worse or swells, see a physiotherapist.

                For now:

                - Stop the run when the pain starts rather than pushing through it; pushing
                  through is how a two-week niggle becomes a two-month one.
                - Replace the next few runs with cycling or swimming if those are pain-free.
                - Strengthen the hips: side-lying leg raises, clamshells and single-leg
                  squats, three times a week. Weak glutes are a common contributor.
                - Foam roll the outer thigh and glutes, gently. It won't lengthen the band,
                  but it can ease the tension around it.
                - Check your shoes' mileage and your weekly volume: a sudden jump is the
                  usual trigger.

                Return with short, flat, easy runs and build back as long as it stays quiet."""
            ),
        ],
        [
            U(
                """Knee's been fine for weeks, but now I have a dull ache along the inside of
                both shins after runs, and it's tender to press. Shin splints?"""
            ),
            A(
                """That description, diffuse tenderness along the inner edge of the shin bone,
                does fit medial tibial stress syndrome, the thing people call shin splints. The
                warning sign to watch for is pain at one small spot that hurts even at rest or
                at night; that needs a doctor, since it can be a stress fracture.

                What usually helps:

                - Cut running volume by a third to a half for a week or two, and keep runs on
                  softer, flat surfaces.
                - Ice for fifteen minutes after runs if it eases the ache.
                - Calf raises, slow and controlled, building to three sets of fifteen, plus
                  tibialis raises against a wall.
                - Look at cadence: taking slightly shorter, quicker steps reduces load on the
                  shins.

                Shin pain often follows a jump in hard or long running, so check whether the
                last few weeks grew faster than the plan."""
            ),
        ],
    ],
    [
        q(
            "multi_session",
            1,
            [
                "What aches or injuries have come up during my running so far?",
                "Which physical problems has the user mentioned while training?",
            ],
            "outside of the right knee (IT band), shin splints along the inside of both shins",
            (0, 0),
            (0, 1),
            (1, 0),
            (1, 1),
        ),
    ],
    min_gap=4,
)

FLAKY = arc(
    "flaky",
    [
        [
            U(
                """test_reserve_stock fails maybe one CI run in ten with 'expected 4 got 3'.
                It never fails when I run it on its own. Where do I even start?"""
            ),
            A(
                """A test that fails only in the full run and never alone is almost always an
                order dependency: another test leaves something behind (rows, a cached object,
                a patched function) that this test trips over.

                Step one is to make the failure reproducible. Install pytest-randomly and run
                the suite with a random order and a printed seed, or use pytest-repeat to run
                the suspect test many times within the full suite:

                    pytest -p randomly -p repeat --count 50 tests/test_reservations.py

                When it fails, note the seed and rerun with `-p randomly -p "randomly_seed=N"`
                to get the same order back. Then bisect: run only the tests that came before it
                in that order, halving the list until you find the one that breaks it.

                While you're at it, check for module-level state: caches, singletons, a
                global session, or anything decorated with lru_cache."""
            ),
        ],
        [
            U(
                """Ran it 200 times with pytest-repeat. It only fails when test_restock runs
                before it, which leaves rows in the stock table. So I wrapped every test in a
                transaction that rolls back at the end. Better, but it STILL fails sometimes,
                and only on the nightly CI run that starts just before midnight UTC."""
            ),
            A(
                """Two separate problems, then, and you've fixed the first. The second sounds
                like time: something in the reservation computes a date, and near midnight the
                test's 'today' and the code's 'today' disagree.

                Look for anything calling `datetime.now()` or `date.today()`, especially with
                different time zones in different places, for example the code using UTC and a
                fixture using local time. A reservation that expires 'end of day' is a typical
                culprit.

                The robust fix is to control the clock in tests. time-machine can freeze or
                move time for the duration of a test:

                    import time_machine

                    @time_machine.travel("2024-03-01 23:59:30+00:00", tick=False)
                    def test_reserve_stock_near_midnight(...): ...

                Add a test pinned just before midnight so the edge is covered deliberately,
                and inject a clock into the service rather than calling now() deep inside."""
            ),
        ],
        [
            U(
                """Found it. The expiry used date.today() in local time while the fixture used
                UTC. Froze the clock with time-machine and passed a clock into the service, and
                it's been green for 300 runs. Thanks for the help with this one."""
            ),
            A(
                """Great debugging. That's the classic pair: shared state between tests, and
                an unpinned clock. You fixed both at the root rather than adding a retry.

                To keep it fixed:

                - Keep pytest-randomly on permanently in CI, so new order dependencies show up
                  early instead of as rare flakes.
                - Add a lint rule or a simple grep in CI that flags `datetime.now()` and
                  `date.today()` outside the clock module.
                - Write a short note in the project's contributing guide about the clock
                  injection, so the pattern survives."""
            ),
        ],
    ],
    [
        q(
            "summary",
            1,
            [
                "What have I tried so far to stop the intermittently failing stock test?",
                "Summarise the steps the user took to fix the flaky reservation test.",
            ],
            "ran it 200 times with pytest-repeat, wrapped every test in a transaction that "
            "rolls back, froze the clock with time-machine and passed a clock into the service",
            (1, 0),
            (2, 0),
        ),
        q(
            "extraction",
            4,
            "What turned out to be the root cause of the test failing near midnight?",
            "expiry used date.today() in local time while the fixture used UTC",
            (2, 0),
        ),
    ],
    min_gap=2,
)

HOBBIES = arc(
    "hobbies",
    [
        [
            U(
                """I did it, I bought a second-hand road bike! Steel frame, a bit heavy, but it
                fits me. What should I check before riding it properly?"""
            ),
            A(
                """Congratulations. A used bike is worth a quick safety check before any long
                ride:

                - Brakes: pads with plenty of material left, no squeal, and levers that stop
                  well before touching the bar.
                - Tyres: no cracks in the sidewalls. Old rubber perishes even with tread left;
                  new tyres and tubes are the best money you'll spend.
                - Chain: measure wear with a cheap chain checker. A stretched chain destroys
                  the cassette.
                - Gears: every gear should engage without skipping; a cable adjustment fixes
                  most problems.
                - Headset and wheels: lift the front and spin the wheel, look for wobble, and
                  rock the bike with the front brake on to feel for play.

                Then set the saddle height: with the pedal at the bottom, your leg should be
                almost straight with your heel on the pedal. Bring a pump, a spare tube and
                tyre levers on every ride."""
            ),
        ],
        [
            U(
                """Joined the bouldering gym near work today. My forearms are destroyed after an
                hour. How often should a beginner climb?"""
            ),
            A(
                """Destroyed forearms are the rite of passage. Your fingers and tendons adapt
                slower than your muscles, which is the main thing to respect early on.

                - Two or three sessions a week, with at least a rest day between them.
                - Warm up on the easiest problems for ten minutes before trying hard ones.
                - Focus on footwork: beginners pull with their arms; good climbers push with
                  their legs. Try climbing easy routes 'silently', placing each foot precisely.
                - Avoid small crimpy holds and campus-style moves for the first few months.
                - Stop when your technique falls apart; tired climbing is when fingers get hurt.

                Bring chalk, wear shoes that are snug but not painful, and don't be shy about
                asking the regulars; bouldering gyms are famously friendly."""
            ),
        ],
    ],
    [
        q(
            "ordering",
            2,
            [
                "Which came first for me: the new set of wheels or the indoor wall?",
                "Did the user start climbing indoors before or after getting a bicycle?",
            ],
            "<<first>>",
            (0, 0),
            (1, 0),
        ),
    ],
    permute=True,
    labels=("the road bike", "the bouldering gym"),
    min_gap=3,
)

TOOLING = arc(
    "tooling",
    [
        [
            U(
                """I set up pre-commit hooks for stockroom today: ruff, a YAML check, and a
                check for large files. It already caught two things. Is it worth adding mypy?"""
            ),
            A(
                """Yes, but think about where it runs. mypy in pre-commit runs in an isolated
                environment that doesn't have your dependencies installed, so it either misses
                types from third-party libraries or you have to list them again under
                additional_dependencies, which drifts.

                A better split:

                - pre-commit: fast, file-local checks such as ruff lint and format, trailing
                  whitespace and YAML validity. Everything finishes in a second or two.
                - A separate make target or script for mypy that runs in your project's
                  virtual environment, and the same command in CI.

                Start mypy permissive with `--ignore-missing-imports`, make new modules strict
                with a per-module override, and tighten over time. Turning on strict for an
                existing codebase in one go produces hundreds of errors and usually ends with
                the checker being switched off."""
            ),
        ],
        [
            U(
                """Got GitHub Actions CI working on stockroom: tests on every push, against a
                Postgres service container. Takes four minutes. Can I make it faster?"""
            ),
            A(
                """Four minutes isn't bad, but a few changes usually halve it:

                - Cache dependencies. With uv, `astral-sh/setup-uv` with caching enabled
                  restores the environment in seconds when the lockfile hasn't changed.
                - Run tests in parallel with pytest-xdist (`-n auto`). Give each worker its own
                  database, for example by suffixing the database name with the worker id.
                - Split lint and tests into separate jobs, so a formatting error fails in
                  twenty seconds and you don't wait for the test job.
                - Use a health check on the service container instead of a sleep before the
                  tests start.
                - Cancel superseded runs with a concurrency group on the branch name.

                Measure before and after by looking at the step timings in the Actions log;
                usually one step dominates."""
            ),
        ],
    ],
    [
        q(
            "ordering",
            2,
            [
                "Which did I set up first for stockroom: checks that run locally before I save my "
                "work to the repository, or automated builds on the hosting service?",
                "What came earlier in my side project's tooling: local guards on each snapshot of "
                "the code, or server-side automation?",
            ],
            "<<first>>",
            (0, 0),
            (1, 0),
        ),
    ],
    permute=True,
    labels=("the pre-commit hooks", "GitHub Actions CI"),
    min_gap=2,
)

SPANISH = arc(
    "spanish",
    [
        [
            U(
                """Small win: I passed the A2 placement test at the language school, so next
                term I move up to the B1 group!"""
            ),
            A(
                """¡Enhorabuena! Moving from A2 to B1 is a real shift: A2 is about surviving
                everyday situations, B1 is about telling stories, giving opinions and handling
                the unexpected.

                What B1 will ask of you:

                - Past tenses in earnest: the preterite for completed events and the
                  imperfect for background and habits. Practise by retelling your weekend.
                - The present subjunctive in common expressions: 'espero que', 'quiero que',
                  'cuando llegues'.
                - Connectors that make speech flow: 'sin embargo', 'por eso', 'aunque'.

                Keep the daily listening going, but move up a level, and start reading: graded
                readers at B1 are perfect for consolidating past tenses."""
            ),
        ],
        [
            U(
                """I found a language exchange partner, Lucía, through the school. We meet on
                Wednesdays: half an hour in Spanish, half an hour in English. I froze a bit the
                first time. Tips?"""
            ),
            A(
                """Freezing the first time is completely normal; it gets easier fast.

                - Prepare two or three topics beforehand, with the five or six words you'll
                  need for each. It's fine to steer the conversation towards them.
                - Agree on how you correct each other. Many pairs keep a shared note where the
                  other person writes corrections, so the conversation isn't interrupted.
                - Learn a few rescue phrases: '¿Cómo se dice...?', '¿Puedes repetirlo más
                  despacio?', 'Lo que quiero decir es...'.
                - Keep the language halves strict. The temptation is to drift into English when
                  it gets hard, and that's exactly when you're learning.

                After each session, write down three new things you heard and use them next
                week."""
            ),
        ],
    ],
    [
        q(
            "multi_session",
            1,
            [
                "What progress have I made with my language studies beyond the evening classes?",
                "How has the user's Spanish learning moved on since starting the course?",
            ],
            "passed the A2 placement test, B1 group next term; language exchange partner Lucía "
            "on Wednesdays",
            (0, 0),
            (1, 0),
        ),
    ],
    min_gap=3,
)

# ---------------------------------------------------------------------------------------------
# Fillers: on the same topics, answering none of the questions.

FILLERS = (
    filler(
        "pasta_weeknight",
        [
            U("Give me a pasta dish I can make from the cupboard when the fridge is empty."),
            A(
                """Pasta e ceci, the Roman chickpea pasta, is the classic cupboard rescue.

                Warm olive oil with a couple of sliced garlic cloves, a sprig of rosemary and a
                pinch of chilli flakes. Add a spoon of tomato paste and fry it until it turns
                brick red. Tip in a tin of chickpeas with their liquid and a similar volume of
                water, then simmer for ten minutes and mash a third of the chickpeas to thicken
                it.

                Add small pasta shapes such as ditalini or broken spaghetti directly to the pot
                and cook them in the liquid, stirring often and adding water if it gets too
                thick. The starch from the pasta turns it into something between a soup and a
                stew.

                Finish with a generous pour of your best olive oil, black pepper, and parmesan
                if you have it. If there's a lemon in the house, a little zest makes it taste
                brighter than a cupboard dish has any right to."""
            ),
            U("Nice. Does it reheat?"),
            A(
                """It does, but it thickens a lot overnight because the pasta keeps absorbing
                liquid. Loosen it with a splash of water or stock as you reheat, and add a
                fresh drizzle of oil at the end. It's arguably better on day two."""
            ),
        ],
    ),
    filler(
        "knife_skills",
        [
            U("My onion chopping is slow and uneven. Any technique tips?"),
            A(
                """Three things make the biggest difference: a sharp knife, a stable board and
                the right cuts.

                Put a damp cloth under the board so it doesn't slide. Halve the onion through
                the root, peel it, and lay it flat side down. Leave the root end on; it holds the
                layers together while you cut.

                Make vertical cuts from near the root to the tip, with the knife tip pointing
                at the root, then a couple of horizontal cuts if the onion is large. Finally
                slice across; the dice falls away evenly.

                Hold the onion with a claw grip: fingertips tucked, knuckles guiding the flat
                of the blade. Speed comes later, from repetition. And sharpen the knife; a
                blunt blade crushes rather than cuts, which is also why onions make you cry
                more."""
            ),
        ],
    ),
    filler(
        "meal_prep",
        [
            U(
                """I want to batch cook on Sundays so weekday lunches are sorted. What keeps well
                for four or five days?"""
            ),
            A(
                """Plan around components rather than five identical boxes; you'll get bored by
                Wednesday otherwise.

                Grains: a big tray of roasted sweet potato and a pot of farro or brown rice both
                keep five days in the fridge.

                Protein: a pot of spiced lentils, a tray of roasted chickpeas, a batch of
                marinated tofu or a few hard-boiled eggs.

                Sauces: a jar of tahini-lemon dressing and a green sauce made from whatever
                herbs are left. Sauces are what make the same base taste different each day.

                Crunch: keep raw vegetables and toasted seeds separate and add them on the day.

                Assemble each morning, which takes three minutes. Cool cooked food quickly
                before refrigerating, and keep anything with rice for a maximum of four days to
                be on the safe side."""
            ),
            U("What about soups? Do they freeze well?"),
            A(
                """Most vegetable and bean soups freeze very well for up to three months. Freeze
                them in single portions, leave some room at the top of the container because
                liquid expands, and label with the date. Creamy soups can split when thawed;
                add the cream or milk after reheating instead of before freezing."""
            ),
        ],
    ),
    filler(
        "salad_dressing",
        [
            U("Why do my homemade salad dressings separate after a minute?"),
            A(
                """Oil and vinegar don't want to stay mixed; a dressing only holds together
                with an emulsifier. Add a teaspoon of mustard or a little honey, or a spoon of
                tahini or yoghurt, and whisk the acid and emulsifier together before you
                drizzle in the oil slowly. Shaking in a jar works too, as long as the mustard
                is in there. Three parts oil to one part acid is the classic ratio, but many
                people prefer it sharper. Season the vinegar with salt first, because salt
                won't dissolve in oil."""
            ),
        ],
    ),
    filler(
        "rice_cooker",
        [
            U("Is a rice cooker worth it or is the pan method fine?"),
            A(
                """If you cook rice more than twice a week, a basic rice cooker is worth it:
                consistent results, it keeps the rice warm, and it frees a burner. If you cook
                rice occasionally, the absorption method in a pan with a tight lid is perfectly
                good. Rinse the rice, use the right ratio for the variety, bring to the boil,
                turn the heat to the lowest setting, cover and don't lift the lid, then rest it
                off the heat for ten minutes. The resting step is the one people skip, and it's
                what makes the texture even."""
            ),
        ],
    ),
    filler(
        "running_shoes",
        [
            U("""My running shoes are about a year old. How do I know when to replace them?"""),
            A(
                """Most running shoes are designed to last roughly 500 to 800 kilometres,
                depending on the model, your weight and the surfaces you run on, but the
                number matters less than the signs:

                - The midsole feels flat or hard, and the shoe no longer springs back.
                - Creases in the midsole foam along the side.
                - The outsole is worn smooth in your usual contact area.
                - New aches in your feet, shins or knees without any change in training.

                A good trick is to buy the next pair a few weeks before the old one dies and
                rotate them; it extends the life of both and lets you notice the difference.
                Keep old pairs for gardening or walking rather than running."""
            ),
        ],
    ),
    filler(
        "stretching",
        [
            U("Should I stretch before or after running?"),
            A(
                """Before running, skip long static stretches: holding a stretch for a minute
                before a run doesn't prevent injury and can slightly reduce power. Do a dynamic
                warm-up instead: five minutes of easy jogging, then leg swings, walking lunges,
                high knees and a few strides.

                After running, gentle static stretching is fine if it feels good, but treat it
                as cool-down rather than injury prevention. Strength work twice a week, such as
                squats, lunges, calf raises and planks, does more for injury resistance than
                any stretching routine."""
            ),
            U("How long should the strength sessions be?"),
            A(
                """Twenty to thirty minutes is enough. Pick four or five exercises, do two or
                three sets of each, and progress slowly by adding repetitions or weight. Put
                them on easy-run days or rest days, not the day before your long run."""
            ),
        ],
    ),
    filler(
        "race_nutrition",
        [
            U("Do I need gels during a half marathon or is water enough?"),
            A(
                """For a race lasting up to about an hour and a half, water is enough for most
                people if you've eaten a carbohydrate-rich breakfast. Beyond that, a gel or
                two helps keep your energy up in the final stretch.

                If you plan to use gels, practise with them on long runs first: some people's
                stomachs don't tolerate them. Take one with water, never with an isotonic drink,
                and take it before you feel you need it, for example around the one-hour mark.
                Nothing new on race day is the golden rule: not the breakfast, not the gels,
                not the socks."""
            ),
        ],
    ),
    filler(
        "pagination",
        [
            U(
                """Stockroom's /items endpoint returns everything at once. Offset pagination or
                cursor pagination?"""
            ),
            A(
                """For a list that changes while people page through it, cursor pagination is
                the more robust choice; offset is simpler and fine for small admin tables.

                Offset (`?limit=50&offset=100`) has two problems at scale: the database still
                reads and discards all the skipped rows, so deep pages get slow, and rows
                inserted or deleted between requests make items repeat or vanish.

                A cursor encodes the position of the last item seen, typically its sort key and
                id:

                    SELECT * FROM items
                    WHERE (created_at, id) > (:after_created, :after_id)
                    ORDER BY created_at, id
                    LIMIT 50;

                Return the next cursor as an opaque string, for example base64 of the two values,
                so clients don't depend on its structure. The trade-off is that you can't jump
                to page 7 directly, which most APIs don't need."""
            ),
        ],
    ),
    filler(
        "window_function",
        [
            U(
                """How do I get each customer's most recent order in SQL without a correlated
                subquery?"""
            ),
            A(
                """A window function does it in one pass:

                    SELECT *
                    FROM (
                        SELECT o.*,
                               row_number() OVER (
                                   PARTITION BY customer_id
                                   ORDER BY created_at DESC, id DESC
                               ) AS rn
                        FROM orders o
                    ) ranked
                    WHERE rn = 1;

                row_number numbers each customer's orders from newest to oldest, and the
                outer query keeps the first. The id in the ORDER BY breaks ties when two orders
                share a timestamp, which makes the result deterministic.

                In Postgres specifically, DISTINCT ON is shorter:

                    SELECT DISTINCT ON (customer_id) *
                    FROM orders
                    ORDER BY customer_id, created_at DESC, id DESC;

                Both read the whole table unless an index matches the ordering; for the
                latest-per-group pattern the window version is the portable one."""
            ),
        ],
    ),
    filler(
        "git_bisect",
        [
            U("Something broke the CSV export between last month and now. How do I find it?"),
            A(
                """git bisect finds the commit that introduced a bug with a binary search over
                history.

                    git bisect start
                    git bisect bad                 # the current commit is broken
                    git bisect good v0.4.0         # a tag or commit where it worked

                Git checks out a commit halfway between; test it and mark it with
                `git bisect good` or `git bisect bad`. After about log2 of the number of commits
                steps, it names the first bad commit. With a hundred commits that's seven
                tests.

                If you can write a script that exits 0 when the export works and 1 when it
                doesn't, bisect will run it for you:

                    git bisect run python scripts/check_export.py

                Finish with `git bisect reset` to return to where you started."""
            ),
            U("Worked, it was a refactor of the column order. Seven steps exactly."),
            A(
                """Nice. Worth adding a test that pins the exported column order, so the next
                refactor fails in CI instead of in a customer's spreadsheet."""
            ),
        ],
    ),
    filler(
        "logging",
        [
            U("What's a sane logging setup for a FastAPI app in production?"),
            A(
                """Log structured JSON to standard output and let the platform collect it;
                don't write log files inside the container.

                - Configure logging once at startup with `logging.config.dictConfig`, with a
                  JSON formatter (python-json-logger or structlog).
                - Attach a request id to every log line. A small middleware reads an incoming
                  X-Request-ID header or generates one, stores it in a contextvar, and a logging
                  filter adds it to each record.
                - Log at INFO for business events (order reserved, import finished) and at
                  WARNING or ERROR only for things someone should look at.
                - Silence noisy libraries by setting their loggers to WARNING.
                - Never log secrets or full request bodies; log ids instead.

                Uvicorn has its own access log; either configure it with the same formatter
                or turn it off and log requests in your middleware, so everything has one
                shape."""
            ),
        ],
    ),
    filler(
        "async_threads",
        [
            U("""When should a FastAPI endpoint be async def and when plain def? I'm confused."""),
            A(
                """The rule: use async def when everything slow inside it is awaitable, and
                plain def when it calls blocking code.

                FastAPI runs plain def endpoints in a thread pool, so a blocking database
                driver or a requests call doesn't stall the event loop. An async def endpoint
                runs on the event loop itself; if you call something blocking inside it, every
                other request waits until it returns. That's the most common FastAPI
                performance bug.

                So an endpoint using an async driver and httpx.AsyncClient should be async def.
                An endpoint using a synchronous ORM session and requests should be plain def.
                If you must call blocking code from async code, wrap it with
                `await run_in_threadpool(func, ...)`. Mixing is fine; being consistent within
                one endpoint is what matters."""
            ),
        ],
    ),
    filler(
        "alembic",
        [
            U("Alembic autogenerate missed my new enum value. Normal?"),
            A(
                """Yes, that's a known limitation: autogenerate detects new tables and columns
                but not changes to the values of an existing Postgres enum type. You have to
                write that migration by hand:

                    def upgrade() -> None:
                        op.execute("ALTER TYPE reservation_status ADD VALUE 'expired'")

                Two caveats. Adding an enum value can't run inside a transaction block on older
                Postgres versions, so you may need to run it outside the migration transaction.
                And there's no simple downgrade: removing an enum value means creating a new
                type and converting the column. Many teams use a text column with a check
                constraint instead of a native enum for exactly this reason; adding a value is
                then an ordinary constraint change."""
            ),
        ],
    ),
    filler(
        "env_settings",
        [
            U("How should stockroom read its configuration: env vars, a YAML file, both?"),
            A(
                """Environment variables for anything that differs between deployments, such as
                database URLs, secrets and feature flags, and code defaults for everything
                else. pydantic-settings makes this tidy:

                    from pydantic_settings import BaseSettings, SettingsConfigDict

                    class Settings(BaseSettings):
                        model_config = SettingsConfigDict(env_prefix="STOCKROOM_", env_file=".env")
                        database_url: str
                        reservation_ttl_minutes: int = 30
                        debug: bool = False

                Values are validated at startup, so a typo in an environment variable fails
                immediately with a clear message rather than at the first request. Create the
                settings object once and pass it around or inject it with a dependency. A YAML
                file only earns its place when configuration is deeply nested, which for a web
                app is rare."""
            ),
        ],
    ),
    filler(
        "packing",
        [
            U("What should I pack for a week of city walking in late spring?"),
            A(
                """Pack light and in layers; spring weather changes by the hour.

                - Two pairs of comfortable walking shoes that are already broken in, so you can
                  swap if one gets wet or rubs.
                - A light waterproof jacket that packs small, and a warm layer such as a merino
                  jumper or fleece for evenings.
                - Quick-drying trousers or a skirt, a couple of t-shirts, one nicer outfit for
                  dinner.
                - A small crossbody bag or daypack with a water bottle, sunglasses, sunscreen and
                  a power bank.
                - Plasters for blisters. Cobbled streets and new routes are hard on feet.

                Everything should fit in a cabin bag, which saves time at both ends and means
                nothing gets lost."""
            ),
        ],
    ),
    filler(
        "phrases",
        [
            U("Which Portuguese phrases are actually useful for a short visit?"),
            A(
                """A handful goes a long way, and people appreciate the effort even if they reply
                in English.

                - Olá / Bom dia / Boa tarde / Boa noite: hello, good morning, good afternoon,
                  good evening.
                - Obrigado (if you're a man) or obrigada (if you're a woman): thank you.
                - Por favor: please. Desculpe: sorry or excuse me.
                - Fala inglês?: do you speak English?
                - A conta, por favor: the bill, please.
                - Quanto custa?: how much is it?

                European Portuguese sounds quite different from Brazilian Portuguese, with more
                swallowed vowels, so don't worry if it sounds unlike the apps. Also, the Spanish
                you're learning will help you read menus and signs more than you expect."""
            ),
        ],
    ),
    filler(
        "credit_card",
        [
            U("Is it smart to use a credit card for everything to get the cashback?"),
            A(
                """It can be, under one strict condition: you pay the full statement balance
                every month by direct debit. The cashback is usually around 0.5 to 1 per cent,
                while interest on a carried balance is often over 20 per cent a year, so a
                single month of interest wipes out years of rewards.

                Other benefits: purchase protection on larger items and a better credit history
                from responsible use. Downsides: it's easier to overspend when payment feels
                abstract. If you notice your spending creeping up, the cashback isn't worth it.

                Set the direct debit to the full balance, not the minimum, and check the
                statement weekly for the first couple of months."""
            ),
        ],
    ),
    filler(
        "subscriptions",
        [
            U(
                """I found seven subscriptions I'd forgotten about. How do I stop this happening
                again?"""
            ),
            A(
                """Seven is common; they're designed to be forgotten.

                - Keep a single list with the service, price, renewal date and the card it's
                  on. A note on your phone is enough.
                - Use one card for all subscriptions, so one statement shows them all.
                - Put a calendar reminder two days before every annual renewal and free trial
                  end.
                - Once a quarter, go through the list and ask of each: did I use it in the last
                  month?

                Cancel by default and resubscribe when you actually miss something; most
                services make returning very easy."""
            ),
        ],
    ),
    filler(
        "ser_estar",
        [
            U("I keep mixing up ser and estar. Is there a rule that actually works?"),
            A(
                """The 'permanent vs temporary' rule is a decent start but has many exceptions.
                A more reliable framing: ser says what something is, estar says how or where it
                is.

                Ser: identity, origin, profession, time and dates, what something is made of,
                and where an event takes place. 'Soy ingeniero', 'Es de Lisboa', 'Son las
                tres'.

                Estar: location of people and things, states and conditions, results of a
                change, and ongoing actions with the gerund. 'Estoy en casa', 'Está cansada',
                'Estamos comiendo'.

                Some adjectives change meaning: 'es aburrido' (he is boring) versus 'está
                aburrido' (he is bored); 'es listo' (clever) versus 'está listo' (ready). Learn
                those as pairs. And death, oddly, takes estar: 'está muerto'."""
            ),
        ],
    ),
    filler(
        "subjunctive",
        [
            U("Why does 'quiero que vienes' sound wrong to my teacher?"),
            A(
                """Because after 'querer que' Spanish uses the subjunctive: 'quiero que vengas'.
                When the main clause expresses a wish, emotion, doubt or influence over someone
                else, the verb in the 'que' clause goes into the subjunctive.

                The trigger is a change of subject: 'quiero venir' (I want to come) uses the
                infinitive because it's the same person; 'quiero que vengas' (I want you to
                come) has two subjects, so the second verb is subjunctive.

                Useful patterns to memorise as chunks: 'espero que + subjunctive', 'es
                importante que', 'me alegra que', 'no creo que'. Learning the chunks makes the
                grammar automatic long before you can explain it."""
            ),
        ],
    ),
    filler(
        "salary",
        [
            U("How do I negotiate salary without sounding greedy?"),
            A(
                """Negotiation is expected; a reasonable counter rarely costs an offer.

                - Let them name a number first when you can. If pressed, give a range whose
                  bottom is a figure you'd happily accept.
                - Anchor on market data and the role, not personal needs: 'For this scope and
                  the market rate for senior backend roles, I was expecting something closer
                  to X.'
                - Negotiate the whole package: base salary, bonus, equity, holiday, learning
                  budget, start date, remote days.
                - Be warm and specific: 'I'm excited about the role. If you can get the base to
                  X, I'm ready to sign.'
                - Get the final offer in writing before resigning anywhere.

                Silence is a tool: after you state your number, stop talking and let them
                respond."""
            ),
        ],
    ),
    filler(
        "houseplant",
        [
            U("My monstera's leaves are going yellow. Help?"),
            A(
                """Yellowing on a monstera is most often overwatering. Check the soil a couple
                of fingers deep: if it's damp, wait. Water only when the top third is dry, then
                water thoroughly and let it drain; never leave it standing in water.

                Other causes: too little light, which usually comes with small new leaves and
                long stems, or old lower leaves simply ageing out, which is normal if it's one
                at a time. If the pot has no drainage hole, repot into one that does with a
                chunky mix of potting soil, bark and perlite. Remove the yellow leaves; they
                won't turn green again."""
            ),
        ],
    ),
    filler(
        "books",
        [
            U("Recommend me a novel for a long train journey, something absorbing."),
            A(
                """A few that are hard to put down:

                - 'The Remains of the Day' by Kazuo Ishiguro: quiet, devastating, and short
                  enough for one long journey.
                - 'Station Eleven' by Emily St. John Mandel: a travelling theatre troupe after
                  a pandemic, more hopeful than it sounds.
                - 'A Gentleman in Moscow' by Amor Towles: a count under house arrest in a hotel
                  for decades; charming and warm.
                - 'The Shadow of the Wind' by Carlos Ruiz Zafón: a mystery about a forgotten
                  book in Barcelona, if you want something with momentum.

                If you want one with a train in it, 'Murder on the Orient Express' is the
                obvious and still satisfying choice."""
            ),
        ],
    ),
    filler(
        "sleep",
        [
            U("I wake up at 3am a lot and can't get back to sleep. Anything that helps?"),
            A(
                """Waking in the night is common, and the worry about it often keeps you awake
                more than the waking itself.

                - Don't check the time or your phone; clock-watching turns it into a problem to
                  solve.
                - If you're awake for what feels like twenty minutes, get up, go somewhere dim,
                  and do something boring until you feel sleepy, then go back.
                - Keep a fixed wake-up time, even at weekends. It's the strongest lever on your
                  sleep rhythm.
                - Cut caffeine after midday and alcohol in the evening: alcohol helps you fall
                  asleep but fragments sleep in the second half of the night.

                If it persists for months or you feel exhausted during the day, talk to a
                doctor; CBT for insomnia works well and is often available."""
            ),
        ],
    ),
)

# ---------------------------------------------------------------------------------------------
# More arcs (second batch).

TRAINS = arc(
    "trains",
    [
        U(
            """General travel preference, for Portugal and anything after: <<rail_rule>>
            With that in mind, is it mad to go to Edinburgh for a long weekend from here?"""
        ),
        A(
            """Not mad at all; it's one of the best rail journeys in Britain. The east coast
            line runs along the sea after Newcastle, with Lindisfarne and the cliffs near
            Berwick on the right-hand side going north.

            Practical points for a long weekend:

            - Book as early as you can. Advance fares on the main operators are released
              around twelve weeks ahead and can be a fraction of the walk-up price.
            - A railcard pays for itself on a single return trip if you're eligible; the
              two-together card works if you always travel as a pair.
            - Choose a Friday morning train rather than the evening peak; it's calmer, often
              cheaper, and you arrive in time for a walk up Calton Hill before dinner.
            - Bring food. The trolley is unreliable and Waverley's shops are expensive.

            In Edinburgh, everything central is walkable: the Old Town, Arthur's Seat for a
            morning climb, Stockbridge for Sunday market and brunch, and Leith for seafood by
            the water. Two and a half days is just right."""
        ),
    ],
    [
        q(
            "preference",
            4,
            [
                "How does the user like to get around when a journey is a few hours long?",
                "What is my stance on flying versus other transport?",
            ],
            "<<rail_answer>>",
            0,
        )
    ],
    slots=[
        {
            "rail_rule": "I'd rather take the train than fly for any trip under about six "
            "hours, even if it's slower.",
            "rail_answer": "train rather than fly for any trip under about six hours",
        },
        {
            "rail_rule": "I try not to fly at all within Europe; trains and ferries only, "
            "for climate reasons.",
            "rail_answer": "trains and ferries only within Europe, not fly, climate reasons",
        },
    ],
    early=True,
)

TENACITY = arc(
    "tenacity",
    [
        U(
            """Stockroom syncs prices from three supplier APIs and one of them times out
            constantly. I've been writing retry loops by hand with sleep() and it's ugly."""
        ),
        A(
            """Replace the hand-written loops with tenacity, a small library that does retries
            declaratively:

                import httpx
                from tenacity import (
                    retry,
                    retry_if_exception_type,
                    stop_after_attempt,
                    wait_random_exponential,
                )


                @retry(
                    retry=retry_if_exception_type((httpx.TimeoutException, httpx.ConnectError)),
                    wait=wait_random_exponential(multiplier=1, max=30),
                    stop=stop_after_attempt(5),
                    reraise=True,
                )
                def fetch_prices(client: httpx.Client, supplier: str) -> dict:
                    response = client.get(f"/suppliers/{supplier}/prices", timeout=10)
                    response.raise_for_status()
                    return response.json()

            The random exponential wait adds jitter, so if many calls fail together they
            don't all retry at the same instant. Retrying only timeouts and connection errors
            matters: a 404 or a validation error will fail the same way every time, and
            retrying it just delays the error.

            Set an explicit timeout on every request too. The default in some clients is to
            wait forever, which is how a sync job silently hangs overnight."""
        ),
    ],
    [
        q(
            "extraction",
            4,
            [
                "What did you suggest using instead of my home-made retry loops for the "
                "supplier calls?",
                "Which library did the assistant propose for retrying the flaky price sync?",
            ],
            "tenacity, with wait_random_exponential jitter and stop_after_attempt",
            1,
        ),
    ],
)

UUIDS = arc(
    "uuids",
    [
        U(
            """Order ids in stockroom are auto-increment integers and I'm about to expose them
            in URLs. Is that a problem, and what should I use instead?"""
        ),
        A(
            """Sequential integers in URLs leak information: anyone can see how many orders you
            have and guess neighbouring ids, and they make merging data from two databases
            painful. They're fine internally.

            My suggestion is UUIDv7 for public identifiers. Unlike random UUIDv4, a version 7
            UUID starts with a millisecond timestamp, so new ids sort in creation order. That
            keeps B-tree indexes compact (inserts land at the end, as with integers) and lets
            you order by id as a rough creation-time order.

                import uuid6  # or uuid.uuid7() on Python 3.14+

                order_id = uuid6.uuid7()

            Store them in a native uuid column in Postgres: sixteen bytes, not a
            thirty-six-character string. You can keep the integer primary key for joins and
            add the UUID as a unique public id, which is the least disruptive migration: add
            the column, backfill, add the unique index, then switch the URLs."""
        ),
    ],
    [
        q(
            "extraction",
            4,
            [
                "What kind of identifier did you recommend for orders that are visible in links?",
                "Which id format did you say sorts by creation time and suits public URLs?",
            ],
            "UUIDv7, starts with a millisecond timestamp so ids sort in creation order",
            1,
        ),
    ],
)

PORTO_FOOD = arc(
    "porto_food",
    [
        U(
            """What should we eat in Porto? We're not picky apart from the obvious for me, and
            we'd like at least one very local thing."""
        ),
        A(
            """Porto's food is hearty and unpretentious. Some things to look out for:

            - The francesinha is the city's famous sandwich: layered bread and fillings under
              melted cheese, drowned in a beer and tomato sauce, often with chips. The classic
              version is full of meat, so ask for a vegetarian one, which a few places now
              make. It's a one-time experience for most people, and that's the local thing you
              asked for.
            - Caldo verde: a simple kale and potato soup, often made with sausage; ask for it
              without.
            - Bolinhos de bacalhau: salt cod fritters sold everywhere as a snack.
            - Pastel de nata, of course, but try the Porto bakeries, which locals insist are
              better than Lisbon's.
            - Port tasting on the Gaia side: try a white port and tonic as an aperitif, then
              tawny, which is the one people take home.

            For dinner, the small family tascas in the streets behind the Bolhão market are
            cheaper and better than the riverfront restaurants."""
        ),
    ],
    [
        q(
            "extraction",
            4,
            [
                "Which very local dish did you point me to for the northern city on our trip?",
                "What is the signature sandwich you told me about for Porto?",
            ],
            "the francesinha, with a beer and tomato sauce",
            1,
        ),
    ],
)

CLASS_DAYS = arc(
    "class_days",
    [
        [
            U(
                """My Spanish classes are on Tuesday and Thursday evenings, so those nights are
                out for runs. Can you shuffle my running week around that?"""
            ),
            A(
                """Sure. With Tuesday and Thursday evenings busy, a week could look like this:

                - Monday: easy run.
                - Tuesday: class; rest or a short walk.
                - Wednesday: quality session, such as intervals or tempo.
                - Thursday: class; rest.
                - Friday: easy run, short.
                - Saturday: off or cross-training.
                - Sunday: long run.

                That puts a rest day after the quality session and before the long run, which
                is the pattern that keeps legs fresh. If class days ever change, let me know and
                I'll move things around."""
            ),
        ],
        [
            U(
                """The school reorganised the B1 groups, so my Spanish classes are now on
                Monday and Wednesday evenings instead. Same teacher at least."""
            ),
            A(
                """Easy to adjust. New week:

                - Monday: class; rest.
                - Tuesday: quality session.
                - Wednesday: class; an easy short run in the morning if you fancy it.
                - Thursday: easy run.
                - Friday: rest.
                - Saturday: easy run or cross-training.
                - Sunday: long run.

                The quality day moves to Tuesday, still two clear days before the long run."""
            ),
        ],
    ],
    [
        q(
            "update",
            4,
            [
                "Which evenings are taken up by my language lessons now?",
                "On what days does the user currently have Spanish class?",
            ],
            "Monday and Wednesday evenings",
            (1, 0),
        ),
    ],
    min_gap=4,
)

RENT = arc(
    "rent",
    [
        [
            U(
                """Budget numbers for context: our rent is <<cur>><<rent1>> a month, split
                evenly, and it's by far the biggest thing we pay."""
            ),
            A(
                """Thanks, that helps. Rent being the biggest single cost is normal; the usual
                guideline is to keep housing under about a third of take-home pay, though in
                expensive cities many people go over.

                A few ways to keep it under control without moving:

                - Negotiate at renewal, with local listings for comparable flats in hand.
                  Landlords often prefer a reliable tenant at a slightly lower rent to an empty
                  month.
                - Check what's included. If bills are separate, compare energy and broadband
                  tariffs every year.
                - If you split evenly but earn different amounts, some couples split in
                  proportion to income instead; it's worth a conversation if one of you feels
                  squeezed."""
            ),
        ],
        [
            U(
                """Renewal letter arrived. The landlord is putting the rent up to
                <<cur>><<rent2>> a month from next quarter. We tried negotiating and got
                nowhere, so that's the new number."""
            ),
            A(
                """Frustrating, but at least it's known. Update the budget now rather than when
                the first payment goes out:

                - Recalculate your needs share with the new rent and see how far over half it
                  goes.
                - Take the difference out of wants first, not savings, if you can.
                - Start a folder of comparable listings; at the next renewal, or if the rises
                  continue, you'll know whether moving makes sense."""
            ),
        ],
    ],
    [
        q(
            "update",
            4,
            [
                "How much do we pay for housing each month at this point?",
                "What is the user's monthly rent now?",
            ],
            "<<cur>><<rent2>> a month",
            (1, 0),
        ),
    ],
    slots=[{"rent1": "1,450", "rent2": "1,580"}, {"rent1": "1,200", "rent2": "1,325"}],
    min_gap=5,
)

FEATURES = arc(
    "features",
    [
        [
            U(
                """Shipped the CSV bulk import in stockroom today! Users can upload a sheet of
                items instead of typing them in one by one."""
            ),
            A(
                """Nice milestone. A few things people only notice after launch:

                - Show a preview of the first rows and the column mapping before importing.
                - Report errors per row, with line numbers, and let people download them.
                - Make imports idempotent on an item code, so uploading the same sheet twice
                  updates rather than duplicates.
                - Put a size limit on uploads and process large files in the background."""
            ),
        ],
        [
            U(
                """New stockroom feature live: reservations now expire automatically after 30
                minutes if the order isn't confirmed, so stock isn't locked up forever."""
            ),
            A(
                """That's an important one for an inventory system. Make sure the expiry is
                visible in the UI, with a countdown or at least the expiry time, and log each
                expiry so you can see how often carts are abandoned. A periodic job that sweeps
                expired reservations is simpler than timers per reservation."""
            ),
        ],
        [
            U(
                """Stockroom can now scan barcodes from a phone camera in the browser. The
                warehouse folks are delighted."""
            ),
            A(
                """That's the kind of feature that makes people love a tool. Two details: give
                audible or haptic feedback on a successful scan, since people look at the shelf
                rather than the screen, and always allow typing the code as a fallback for worn
                labels."""
            ),
        ],
    ],
    [
        q(
            "multi_session",
            1,
            [
                "What capabilities has my inventory app gained over the months?",
                "List the features the user has shipped in their side project.",
            ],
            "CSV bulk import, reservations that expire after 30 minutes, barcode scanning "
            "from a phone camera",
            (0, 0),
            (1, 0),
            (2, 0),
        ),
    ],
    min_gap=3,
)

KITCHEN_GEAR = arc(
    "kitchen_gear",
    [
        [
            U(
                """I started a sourdough starter today, flour and water in a jar. Day one. Any
                tips so it doesn't die?"""
            ),
            A(
                """Starters are hardier than people think. Feed it once a day at first: discard
                all but a spoonful, and add fresh flour and water in equal weights. Keep it
                somewhere warm. In the first week you may see a burst of bubbles followed by a
                quiet few days; that's normal, not death. It's ready when it reliably doubles
                within six to eight hours of a feed."""
            ),
        ],
        [
            U(
                """Bought a pasta machine at the weekend, the hand-crank kind. What's a good
                first thing to make with it?"""
            ),
            A(
                """Start with plain egg tagliatelle: the dough is forgiving and the machine does
                most of the work. Roll the sheet through the widest setting several times,
                folding it in thirds between passes, then thin it gradually. Dust the cut
                ribbons with semolina so they don't stick, and cook them for only two minutes."""
            ),
        ],
    ],
    [
        q(
            "ordering",
            2,
            [
                "Which happened first: the jar of wild yeast or the new crank gadget?",
                "Did the user get the noodle-rolling gadget before or after beginning to "
                "cultivate a bread culture?",
            ],
            "<<first>>",
            (0, 0),
            (1, 0),
        ),
    ],
    permute=True,
    labels=("the sourdough starter", "the pasta machine"),
    min_gap=2,
)

MONEY_STEPS = arc(
    "money_steps",
    [
        [
            U(
                """Money update: I cancelled the streaming services I never watch, that's three
                gone. Feels good."""
            ),
            A(
                """Small changes like that add up over a year. Move the amount you've freed into
                savings straight away, with a standing order, so it doesn't quietly become
                spending somewhere else."""
            ),
        ],
        [
            U(
                """Opened an easy-access savings account at a different bank and set up a
                standing order for payday, like we discussed."""
            ),
            A(
                """That's the most effective habit in personal finance: saving first, spending
                what's left. Check the rate once a year; easy-access rates drift and switching
                takes a few minutes."""
            ),
        ],
        [
            U(
                """Last payment on the car loan went out today. No more debt except the student
                loan!"""
            ),
            A(
                """Congratulations! Now redirect the old loan payment into savings or investing
                the very next month. You've already lived without that money, so you won't
                miss it."""
            ),
        ],
    ],
    [
        q(
            "summary",
            1,
            [
                "What steps have I taken so far to get my finances in order?",
                "Summarise the user's progress on money matters.",
            ],
            "cancelled three streaming services, opened an easy-access savings account with a "
            "standing order, made the last payment on the car loan",
            (0, 0),
            (1, 0),
            (2, 0),
        ),
    ],
    min_gap=3,
)

# Applied preferences (category 3): the standing rule applied to a new situation.
UNITS = ask(
    UNITS,
    q(
        "instruction",
        3,
        "A friend sent me a cake recipe from abroad. Into what should you convert it for me?",
        "<<units_answer>>",
        0,
    ),
)
ALLERGY = ask(
    ALLERGY,
    q(
        "preference",
        3,
        "We're ordering Thai takeaway tonight for two. What must I ask the restaurant about?",
        "<<allergen>> allergy",
        0,
    ),
)
EDITOR = ask(
    EDITOR,
    q(
        "preference",
        3,
        "If you recommend a plugin for spell-checking my docstrings, what must it work with?",
        "<<editor>>",
        0,
    ),
)
DIET = ask(
    DIET,
    q(
        "preference",
        3,
        "We're going to a tapas bar in Porto. Which kinds of dishes on the menu are off limits "
        "for me?",
        "<<diet_answer>>",
        0,
    ),
)

ARCS = (
    UNITS,
    DIET,
    FORMAT,
    EDITOR,
    SHELL,
    CODESTYLE,
    TRAINING_TIME,
    ALLERGY,
    DATEPARSE,
    INDEX,
    DOCKER,
    SPICES,
    MILEAGE,
    BUDGET,
    STAR,
    GIFT,
    LANGUAGE,
    DATABASE,
    RACE_GOAL,
    TRIP,
    FUND,
    JOB,
    COOKED,
    INJURIES,
    FLAKY,
    HOBBIES,
    TOOLING,
    SPANISH,
    TRAINS,
    TENACITY,
    UUIDS,
    PORTO_FOOD,
    CLASS_DAYS,
    RENT,
    FEATURES,
    KITCHEN_GEAR,
    MONEY_STEPS,
)

FILLERS = FILLERS + (
    filler(
        "sessions_sqlalchemy",
        [
            U("Where should the SQLAlchemy session be created in a FastAPI app?"),
            A(
                """One session per request, created by a dependency and closed when the request
                ends:

                    def get_session() -> Iterator[Session]:
                        with SessionLocal() as session:
                            yield session

                    @router.post("/items")
                    def create_item(body: ItemIn, session: Session = Depends(get_session)):
                        item = services.create_item(session, body)
                        session.commit()
                        return item

                The `with` block guarantees the session is closed even if the endpoint raises.
                Commit in the endpoint or in a thin unit-of-work helper, not deep inside
                service functions, so one request is one transaction and a failure halfway
                rolls everything back.

                Avoid a global session shared between requests; it isn't thread-safe and it
                accumulates objects in its identity map. Background jobs should open their own
                sessions the same way, one per unit of work."""
            ),
            U("And in tests?"),
            A(
                """Override the dependency with a session bound to a connection that runs inside
                an outer transaction, and roll that back after each test. FastAPI's
                dependency_overrides makes the swap a single line in a fixture."""
            ),
        ],
    ),
    filler(
        "auth_choice",
        [
            U("For stockroom's login, JWTs or plain server-side sessions?"),
            A(
                """For a web app with its own front end, server-side sessions with a secure
                cookie are simpler and safer. The server stores the session, the browser holds
                an opaque id in an HttpOnly, Secure, SameSite cookie, and logging out or revoking
                access is just deleting the row.

                JWTs shine when many independent services must verify a user without calling a
                central store, or for machine-to-machine tokens. Their weakness is revocation:
                a stolen token is valid until it expires, so you end up adding a blocklist,
                which is a session store by another name.

                For the warehouse scanner or other API clients, issue long-lived API keys per
                device, stored hashed, that an admin can revoke. That keeps the browser login
                and the machine access separate, and each one simple."""
            ),
        ],
    ),
    filler(
        "redis_cache",
        [
            U("Should I put Redis in front of the item lookups? They're read constantly."),
            A(
                """Measure first. Postgres with a warm buffer cache serves primary-key lookups in
                well under a millisecond; a cache adds a network hop, a second system to run, and
                the hardest problem in the field: invalidation.

                A cache pays off when the expensive part is computation or a slow query, like
                the stock summary per warehouse, rather than simple lookups. If you do add one:

                - Cache the computed result with a short expiry, a minute or so, and accept
                  slightly stale reads where the business allows.
                - Invalidate on write for data that must be exact, like available quantity at
                  checkout, or better, don't cache that at all.
                - Namespace the keys with a version, so a deploy that changes the cached shape
                  doesn't read old entries.

                Often an in-process cache with a small size limit is enough for a single app
                server, with no extra infrastructure."""
            ),
        ],
    ),
    filler(
        "background_jobs",
        [
            U(
                "I need background jobs for the nightly supplier sync. Celery, RQ, or something "
                "else?"
            ),
            A(
                """For a small app, start with the simplest thing that's reliable.

                - A scheduled script run by cron or a container scheduler is often enough for a
                  nightly sync. It needs no broker and is easy to debug.
                - RQ is simple: Redis as the queue, plain Python functions as jobs. Good when
                  you need on-demand jobs triggered by users, such as a large import.
                - Celery is powerful and heavy: many brokers, routing, chords, rate limits. It's
                  worth it when you have many job types and workers, and a lot to configure
                  otherwise.
                - Since you already have Postgres, a queue table polled with
                  SELECT ... FOR UPDATE SKIP LOCKED is a perfectly good job queue for modest
                  volumes, with no new infrastructure.

                Whatever you choose, make jobs idempotent and record each run's start, end and
                outcome in a table you can look at."""
            ),
        ],
    ),
    filler(
        "mypy_generics",
        [
            U("mypy complains my repository class returns 'object'. How do I type it generically?"),
            A(
                """Make the class generic over the model type, so each repository knows what it
                returns:

                    from typing import Generic, TypeVar

                    from sqlalchemy.orm import Session

                    from stockroom.db.base import Base

                    M = TypeVar("M", bound=Base)


                    class Repository(Generic[M]):
                        def __init__(self, session: Session, model: type[M]) -> None:
                            self.session = session
                            self.model = model

                        def get(self, id_: int) -> M | None:
                            return self.session.get(self.model, id_)

                    items = Repository(session, Item)
                    item = items.get(3)  # mypy knows this is Item | None

                On Python 3.12 you can write `class Repository[M: Base]:` instead of the TypeVar
                boilerplate. The bound tells mypy that M is always a mapped class, so
                attributes shared by all models type-check too."""
            ),
        ],
    ),
    filler(
        "excel_export",
        [
            U("Users say the CSV export shows garbled characters when they open it in Excel."),
            A(
                """Excel guesses the encoding of a CSV and, without a hint, often picks a legacy
                one, so accented characters and the currency sign come out garbled. Write the
                file as UTF-8 with a byte order mark; Excel sees the BOM and reads it correctly:

                    with open(path, "w", newline="", encoding="utf-8-sig") as f:
                        writer = csv.writer(f)
                        ...

                Two related gotchas: item codes with leading zeros lose them in Excel because it
                treats them as numbers, and long numeric codes turn into scientific notation.
                If that matters, offer an .xlsx export too, written with openpyxl, where you
                can set those columns to text explicitly."""
            ),
        ],
    ),
    filler(
        "code_review",
        [
            U("I'm reviewing a junior's PR and there's a lot wrong. How do I not crush them?"),
            A(
                """Separate what must change from what you'd merely do differently, and say
                which is which.

                - Start with what works: one specific, true compliment, not a generic one.
                - Group issues by theme rather than leaving forty line comments. 'Database
                  access is spread across the routers; let's move it into services' teaches
                  more than twenty comments that say 'move this'.
                - Ask questions where you're unsure of their reasoning: 'What happens here if
                  the list is empty?'
                - Prefix optional suggestions with 'nit' or 'optional', so they know what blocks
                  the merge.
                - Offer a short call for anything large. Ten minutes of talking beats a long
                  thread.

                If the PR is far off, it's fine to say so kindly and suggest splitting it; a
                huge PR is partly the process's fault."""
            ),
        ],
    ),
    filler(
        "veg_stock",
        [
            U("Is homemade vegetable stock worth the effort?"),
            A(
                """It is if you make it from scraps, because then it's nearly free. Keep a bag in
                the freezer for onion ends and skins, carrot peel, celery leaves, leek tops,
                mushroom stalks and parsley stems. When it's full, cover with water, add a bay
                leaf and peppercorns, simmer for forty-five minutes, and strain.

                Skip brassicas like cabbage and broccoli, which turn it bitter, and beetroot,
                which turns everything pink. Roasting the scraps first gives a darker, richer
                stock for risottos and gravies. Freeze it in portions, some in ice-cube trays
                for when you only need a splash."""
            ),
        ],
    ),
    filler(
        "roast_veg",
        [
            U("My roasted vegetables come out soggy instead of crispy. Why?"),
            A(
                """Almost always crowding or too low a temperature. Vegetables release water as
                they cook; packed tightly, they steam in it instead of browning.

                - Use two trays rather than one full one; pieces shouldn't touch.
                - Get the oven properly hot and preheat the tray too.
                - Dry vegetables well after washing, and toss them in just enough oil to coat.
                - Cut pieces to similar sizes, with flat sides down for contact with the tray.
                - Don't stir too often; let them sit and colour.

                Salt near the end for watery vegetables like courgette and mushrooms, which
                release more liquid when salted early."""
            ),
        ],
    ),
    filler(
        "dal",
        [
            U("Weeknight dal that isn't boring?"),
            A(
                """A tarka dal is mostly hands-off and the tarka, the spiced oil poured over at
                the end, is what makes it exciting.

                Rinse red lentils and simmer with water, turmeric and a pinch of salt until
                they collapse into a porridge, about twenty minutes, whisking at the end for a
                creamy texture.

                Meanwhile make the tarka: heat ghee or oil until shimmering, add cumin and
                mustard seeds until they pop, then sliced garlic until golden, a dried chilli or
                two, and a handful of curry leaves if you can find them. Pour the sizzling oil
                over the dal at the table.

                Finish with lemon juice and fresh coriander, and serve with rice or flatbreads.
                Leftovers thicken overnight; loosen with water."""
            ),
        ],
    ),
    filler(
        "cookies",
        [
            U("Why do my chocolate chip cookies spread into thin pancakes?"),
            A(
                """Usually the butter is too warm or there's too little flour.

                - Use butter that's soft but still cool, not melted or greasy.
                - Chill the dough for at least an hour, or overnight. Cold dough spreads less and
                  the flavour deepens as the flour hydrates.
                - Weigh or level your flour accurately; a little too little makes a big
                  difference.
                - Bake on a cool tray; putting dough on a hot tray from the last batch starts
                  the melting before the oven sets the edges.
                - Baking paper rather than a greased tray helps too.

                More brown sugar than white gives chewier, thicker cookies; more white gives
                crisper, flatter ones."""
            ),
        ],
    ),
    filler(
        "intervals",
        [
            U("What's a good first interval session for someone who's never done speed work?"),
            A(
                """Start gentle; the point is to learn the feel of running faster, not to
                suffer.

                Warm up with fifteen minutes of easy running and a few short strides. Then run
                six repetitions of two minutes at a pace that feels hard but controlled, where
                you could say a few words but not hold a conversation, with two minutes of easy
                jogging or walking between each. Cool down with ten minutes easy.

                The most common mistake is starting the first repetition too fast and fading.
                Aim to run the last one as fast as the first. Once six feel comfortable, add a
                repetition or lengthen them to three minutes, but only change one thing at a
                time."""
            ),
        ],
    ),
    filler(
        "heart_rate",
        [
            U("My watch says I'm in zone 4 on 'easy' runs. Am I running too fast?"),
            A(
                """Possibly, but check the zones first. Most watches set zones from an age-based
                formula for maximum heart rate, which can be off by ten or more beats for an
                individual. If your maximum is higher than the formula assumes, every zone is
                mislabelled.

                Two simpler checks for easy running: you can talk in full sentences, and you
                finish feeling you could have kept going. If both are true, the pace is fine
                whatever the watch says.

                If you want accurate zones, set them from a recent hard effort, such as the
                peak heart rate at the end of a flat-out 5K, or from a lactate threshold test.
                And wrist sensors can read high during the first minutes of a run; a chest
                strap is more reliable."""
            ),
        ],
    ),
    filler(
        "parkrun",
        [
            U("Is it worth doing parkrun every Saturday if I'm training for a longer race?"),
            A(
                """It can be a great part of training, used deliberately. A free, timed 5K every
                week is ideal for occasional speed work and for measuring progress, and the
                community makes it easier to show up.

                The trap is racing it every week: a flat-out 5K is a hard session, and doing it
                on Saturday before a Sunday long run compromises both. Alternate: race it once
                or twice a month, and on other weeks run it easy, with friends, or volunteer.
                Or make it part of the long run: jog there as a warm-up, run the course at
                steady pace, and add more easy distance after."""
            ),
        ],
    ),
    filler(
        "lisbon_transport",
        [
            U("Getting around Lisbon: metro, trams, tuk-tuks, or just walk?"),
            A(
                """Mostly walk, but know that Lisbon is very hilly and the pavements are
                polished limestone, which gets slippery in the rain, so wear shoes with grip.

                Get a rechargeable transport card at any metro station and load it with credit;
                it works on the metro, trams, buses, the funiculars and the ferries across the
                river. Tram 28 is famous and always packed; ride it early in the morning or
                take tram 12 for a shorter version of the same route. The funiculars save
                your legs on the steepest hills.

                Tuk-tuks are fun once but expensive. The ferry to Cacilhas is the cheapest
                boat trip with the best view of the city, and lunch at the fish restaurants by
                the pier makes it an outing."""
            ),
        ],
    ),
    filler(
        "travel_insurance",
        [
            U("Do we need travel insurance for a week in Europe?"),
            A(
                """Yes. It's cheap relative to what it covers. Your health card covers necessary
                state healthcare in many European countries, but not everything: no repatriation,
                no private treatment, and no cover for cancellations, lost luggage or missed
                connections.

                Check what you already have: some bank accounts and credit cards include travel
                insurance, sometimes with conditions such as paying for the trip with that card.
                If buying, an annual policy can be cheaper than two single-trip ones. Read the
                exclusions for pre-existing conditions and activities, and buy it as soon as you
                book, so cancellation cover starts immediately."""
            ),
        ],
    ),
    filler(
        "index_funds",
        [
            U("Everyone says 'just buy index funds'. What does that actually mean?"),
            A(
                """An index fund buys all the companies in a market index, such as a global
                share index, in proportion to their size, instead of a manager picking a few.
                You own a tiny slice of thousands of companies.

                Why people recommend it: low fees, broad diversification, and the evidence that
                most actively managed funds fail to beat their index after fees over long
                periods.

                What it doesn't do: protect you from market falls. Share prices can drop by a
                third and take years to recover, so this is money for the long term, at least
                five years and ideally much longer. Money you might need sooner belongs in
                savings.

                In practice: pick a global all-cap or developed-world tracker with a low ongoing
                charge, hold it in a tax-advantaged account if your country has one, contribute
                monthly, and resist checking it every day."""
            ),
        ],
    ),
    filler(
        "past_tenses",
        [
            U("Preterite or imperfect? I guess every time."),
            A(
                """Think of a film. The imperfect sets the scene: what was going on, what things
                were like, what used to happen. The preterite moves the plot: what happened,
                once, finished.

                'Llovía y hacía frío cuando llegué a casa' — it was raining and cold (scene,
                imperfect) when I arrived home (event, preterite).

                Some signals help: 'siempre', 'a menudo', 'cada día' and 'mientras' often go
                with the imperfect; 'ayer', 'una vez', 'de repente' and 'el lunes pasado' often
                with the preterite. But the choice is about how you see the action, not the
                words around it. Practise by telling a short story about your day out loud,
                first the scene, then the events."""
            ),
        ],
    ),
    filler(
        "cv_tips",
        [
            U("Can you look at how I describe my current job on my CV? It's a list of tasks."),
            A(
                """A list of tasks tells the reader what the job is, not what you did in it.
                Rewrite each bullet as an achievement: what you changed and what difference it
                made, with a number where you can.

                Instead of 'Responsible for maintaining the routing API', try 'Cut p95 latency
                of the routing API from 800 ms to 150 ms by reworking its caching and queries'.
                Instead of 'Worked on data migrations', try 'Led the migration of 40 million
                shipment records to a new schema with no downtime'.

                Keep three to five bullets per role, most recent role longest. Put technologies
                inside the achievements rather than in a long keyword list, and cut anything
                older than ten years to a single line."""
            ),
        ],
    ),
    filler(
        "take_home",
        [
            U("A company sent a take-home assignment that looks like two days of work. Normal?"),
            A(
                """It's common, but two days is at the long end, and it's fair to ask. Check what
                they actually expect: many companies say 'two to four hours' and mean it, with
                the rest being optional polish.

                If it truly needs two days, you can politely ask whether a reduced scope is
                acceptable, or whether they'd accept code you've already written, such as a
                side project, with a walkthrough. Some companies pay for long assignments.

                If you do it, timebox it. Write a short README explaining your decisions, what
                you'd do with more time and how to run the tests; reviewers often value that
                more than extra features."""
            ),
        ],
    ),
    filler(
        "anniversary",
        [
            U("Anniversary dinner at home this Friday. How do I make it feel special?"),
            A(
                """Atmosphere matters as much as the food.

                - Set the table properly, with a tablecloth, candles, proper glasses, and phones
                  in another room.
                - Cook something you've made before, so you're not stressed, and do the prep in
                  the afternoon; the evening should be spent together, not at the stove.
                - Three small courses feel more special than one big plate: a simple starter, a
                  main, and a dessert you can make ahead, like a chocolate pot or poached pears.
                - Make a playlist of songs from your time together.
                - End with something personal: a letter, a few printed photos from the year, or
                  plans for a trip together.

                The effort is what's remembered, not the technique."""
            ),
        ],
    ),
)


# Near misses: the same subject as a question, about someone else or another setting.
FILLERS = FILLERS + (
    filler(
        "sister_vegan",
        [
            U(
                """My sister is staying with us next weekend and she's strictly vegan, no honey
                either. What's a dinner that won't feel like a compromise for everyone else?"""
            ),
            A(
                """Cook something that's naturally vegan rather than a substitute version of a
                dish, so nobody feels they're eating the 'special' meal.

                A Sicilian-style caponata makes a great centrepiece: aubergine fried until
                golden, then stewed with celery, onion, tomatoes, capers, green olives, a little
                sugar and red wine vinegar until sweet-sour and glossy. Serve it warm with
                crusty bread and a big bowl of herby couscous with toasted almonds and lemon.

                Or a Thai-style green curry with tofu, aubergine and green beans: check the
                curry paste, since many contain shrimp paste, and use coconut milk for richness.

                For dessert, a fruit crumble with an oat and olive oil topping, or dark chocolate
                mousse made with aquafaba, the liquid from a tin of chickpeas, whipped to stiff
                peaks. People rarely guess the mousse is vegan.

                Check hidden animal products in wine, bread and stock cubes, and she'll feel
                looked after without a fuss."""
            ),
        ],
    ),
    filler(
        "colleague_vscode",
        [
            U(
                """A colleague who lives in VS Code asked me how to get ruff working there. I
                have no idea how that world works. What do I tell him?"""
            ),
            A(
                """For VS Code it's the simplest case: install the official Ruff extension from
                the marketplace, published by Astral. It bundles the ruff binary, so it works
                without any other setup, and it picks up the project's pyproject.toml
                configuration automatically.

                Then in his settings, make it the default formatter for Python and turn on fixes
                on save:

                    "[python]": {
                      "editor.defaultFormatter": "charliermarsh.ruff",
                      "editor.formatOnSave": true,
                      "editor.codeActionsOnSave": {
                        "source.fixAll": "explicit",
                        "source.organizeImports": "explicit"
                      }
                    }

                If he also has the older Pylint, Flake8 or isort extensions installed, he should
                disable them for this workspace, or he'll see duplicate warnings. And tell him
                to use the project's ruff version rather than the bundled one, with the
                extension's 'importStrategy' setting, so his results match CI."""
            ),
        ],
    ),
    filler(
        "friend_marathon",
        [
            U(
                """My friend Alex is running a full marathon next month and wants to break 3:45.
                He asked me to pace the last ten kilometres on a bike. Tips for doing that well?"""
            ),
            A(
                """That's a lovely thing to do for a friend. Pacing someone from a bike is mostly
                about being calm, predictable and useful.

                - Check the race rules first. Many marathons don't allow bikes on the course;
                  you may need to ride on a parallel path or meet him at points along the route.
                - Agree on the target pace per kilometre beforehand, and on what you'll say.
                  Short, positive, specific: 'On pace. Relax your shoulders.'
                - Carry what he might need: a gel, water, a spare one of whatever he has
                  practised with. Nothing new.
                - Ride slightly ahead and to the side, never in front of other runners.
                - In the last five kilometres, focus on form cues and small targets like the
                  next lamp post, rather than the time.

                If he's falling behind pace, don't push him to chase it; help him run the best
                race he has on the day."""
            ),
        ],
    ),
    filler(
        "parents_madrid",
        [
            U(
                """My parents are going to Madrid for four days and asked me to plan it. They're
                in their seventies, love art, and don't like rushing."""
            ),
            A(
                """Madrid suits that well: three world-class museums within a short walk of each
                other, lots of benches and shady parks.

                - Day 1: arrive, rest, an evening stroll around Plaza Mayor and dinner at a
                  traditional restaurant near the Puerta del Sol, early by Spanish standards.
                - Day 2: the Prado in the morning, with a pre-booked timed ticket. Focus on a
                  few rooms, like Velázquez and Goya, rather than trying to see everything.
                  Afternoon rest, then a gentle walk in the Retiro park.
                - Day 3: the Thyssen-Bornemisza in the morning, which is compact and
                  chronological, lunch, and an afternoon at the Royal Palace gardens.
                - Day 4: the Reina Sofía for Guernica, then a last long lunch.

                Taxis are cheap and plentiful, which will save their legs. A hotel near the
                Paseo del Prado puts all three museums in walking distance."""
            ),
        ],
    ),
    filler(
        "work_sqlite",
        [
            U(
                """Random work question: one of our services at work uses an embedded SQLite
                file as a local cache on each pod. Someone wants to rip it out for Redis.
                Thoughts?"""
            ),
            A(
                """Ask what problem Redis would solve. A per-pod SQLite cache has real
                advantages: no network hop, no extra infrastructure, and it survives Redis
                outages by definition. Its weaknesses are that each pod warms its own cache,
                caches can disagree between pods, and the data is lost when a pod is replaced.

                If those weaknesses cause actual problems, like inconsistent answers between
                pods or expensive cold starts after each deploy, a shared cache helps. If the
                complaint is just that SQLite seems unusual, it isn't a reason. SQLite with WAL
                mode is one of the most battle-tested pieces of software in existence.

                A middle path: keep the local cache and add a short expiry, so inconsistency
                is bounded. Measure hit rate and latency before and after any change."""
            ),
        ],
    ),
    filler(
        "dad_retirement",
        [
            U(
                """My dad just retired and asked me how to budget now that his income is a
                pension. I'm out of my depth. What should I tell him?"""
            ),
            A(
                """Retirement budgeting differs from working-life budgeting mainly because the
                income is fixed and the time horizon is uncertain.

                - List guaranteed income: state pension, any workplace pension paid as an
                  income, annuities. Compare it with essential spending; ideally guaranteed
                  income covers the essentials.
                - Plan for lumpy costs: a new car, home repairs, helping family. A separate pot
                  for those keeps them from eating into monthly money.
                - If he has savings or a pension pot to draw from, withdrawing a modest,
                  steady percentage each year is more sustainable than large withdrawals early.
                - Check entitlements: pension credit, council tax reductions, free travel
                  passes. Many people miss what they're owed.

                Suggest he gets an appointment with a free, impartial pension guidance service;
                it's exactly what they're for."""
            ),
        ],
    ),
    filler(
        "brother_grad",
        [
            U(
                """My younger brother has his first graduate job interview and is panicking
                about the 'what's your biggest weakness' question. What should he say?"""
            ),
            A(
                """The question is really asking whether he can reflect honestly and improve.
                A good answer has three parts:

                - A real weakness, relevant but not fatal for the job. 'I'm a perfectionist' is
                  a cliché that interviewers have heard a thousand times.
                - A concrete example of it causing a problem.
                - What he's doing about it, and evidence it's working.

                For example: 'I used to find it hard to speak up in group projects, even when I
                had an idea. In my final-year project I missed flagging a problem early because
                of it. Since then I've made a rule to say something in the first ten minutes of
                every meeting, and I ran our team's weekly check-ins in my last term.'

                Tell him to pick one, practise it aloud until it sounds natural, and keep it
                under a minute."""
            ),
        ],
    ),
    filler(
        "leaving_gift",
        [
            U(
                """A colleague is leaving after eight years and I'm in charge of the group
                present, around <<cur>>80 from the collection. Ideas?"""
            ),
            A(
                """Something that fits where they're going next usually lands best.

                - If they're moving somewhere new, a good guidebook with notes from the team on
                  their favourite places, or a print of the new city.
                - A voucher for a nice restaurant near their home, so the gift is an evening out.
                - A hobby upgrade: if they bake, climb, cycle or garden, one quality item they
                  wouldn't buy for themselves.
                - The card matters as much as the present. Get everyone to write a proper line,
                  and consider a small photo book of work moments over the eight years.

                Avoid anything with the company logo. They're leaving."""
            ),
        ],
    ),
    filler(
        "work_selenium",
        [
            U(
                """At work, a Selenium end-to-end test of the checkout fails every few days,
                and people just hit rerun. It's not my team but it annoys me. What would you
                suggest to them?"""
            ),
            A(
                """Browser tests are the classic source of flakiness, and 'just rerun' hides
                real bugs among the noise. Suggest they:

                - Replace fixed sleeps with explicit waits for the condition they need, such as
                  an element being clickable or a network request finishing.
                - Use stable selectors, like data-test attributes, rather than CSS paths that
                  change with styling.
                - Record a video or trace on failure; most browser tools can do this, and it
                  turns a flaky failure into a diagnosable one.
                - Track flake rate per test. The worst few usually account for most of it.
                - Push checks down to API or unit tests where possible, keeping only a few
                  end-to-end journeys.

                And quarantine, rather than delete, tests that are too flaky to trust, with a
                ticket and an owner, so they get fixed rather than forgotten."""
            ),
        ],
    ),
    filler(
        "work_alpine",
        [
            U(
                """Our work images are built on Alpine to keep them small. A colleague says
                that's a bad idea for Python. Is he right?"""
            ),
            A(
                """He has a point. Alpine uses musl instead of glibc, and most prebuilt Python
                wheels on PyPI target glibc. On Alpine, packages like NumPy, pandas or
                cryptography may have to compile from source during the build, which makes
                builds slow, needs compilers in the image, and can produce subtle differences.

                Newer musl wheels exist for many popular packages, so the problem is smaller
                than it was, but it's still common. The size saving is also smaller than people
                expect once you add build tools.

                A Debian-based slim image is usually the pragmatic choice for Python services:
                wheels install directly, behaviour matches most developers' machines, and a
                multi-stage build keeps it reasonably small. Alpine is great for static Go
                binaries; for Python it's often a false economy."""
            ),
        ],
    ),
    filler(
        "spanish_films",
        [
            U("Any Spanish-language films that are good for a learner to watch?"),
            A(
                """Films are great motivation, though usually faster than learner material. Some
                with clear dialogue and stories that carry you along:

                - 'Ocho apellidos vascos': a comedy about regional stereotypes; fun, with lots of
                  everyday Spanish.
                - 'El laberinto del fauno': beautiful and dark, with slower, clear dialogue.
                - 'Coco': animated, Mexican Spanish, easy to follow even if you know the story.
                - 'Campeones': a warm comedy about a basketball team.
                - 'Relatos salvajes', from Argentina, in short episodes, so it's easy to watch
                  one at a time.

                Watch with Spanish subtitles rather than English. You'll catch more than you
                expect, and the subtitles link sounds to spelling."""
            ),
        ],
    ),
    filler(
        "mum_lactose",
        [
            U(
                """It's my mum's birthday and she's lactose intolerant. Can I still make a
                proper celebration cake?"""
            ),
            A(
                """Definitely. Many cakes are easy to make without lactose.

                - An olive oil cake with orange or lemon: moist, fragrant, and naturally free
                  of butter. Finish with a simple citrus glaze.
                - A chocolate cake made with oil and coffee instead of butter and milk, often
                  called a 'wacky cake' in old recipe books. It's rich and very forgiving.
                - For frosting, whip lactose-free cream cheese with icing sugar, or use a
                  ganache made with dark chocolate and coconut cream.

                Lactose-free milk, cream and butter exist in most supermarkets and behave like
                the regular versions in baking, so you can also adapt a family recipe directly.
                Check the chocolate too: many dark chocolates contain milk."""
            ),
        ],
    ),
    filler(
        "friend_rent",
        [
            U(
                """A friend's landlord wants to raise their rent by 20 per cent in one go. Can
                they just do that?"""
            ),
            A(
                """It depends a lot on where they live and what kind of tenancy they have, so
                they should check local rules, but some common points:

                - During a fixed-term contract, rent usually can't be raised unless the contract
                  has a rent review clause.
                - For periodic tenancies, many places require a formal notice with a minimum
                  notice period, and limit increases to once a year.
                - In some places tenants can challenge an increase that's above market rent at
                  a tribunal or rent board.

                Practically: gather listings for similar flats nearby, reply in writing, and
                negotiate. A landlord may prefer a smaller increase to an empty flat. Local
                tenant advice services can tell them exactly where they stand."""
            ),
        ],
    ),
    filler(
        "partner_job",
        [
            U(
                """<<partner>> is thinking about leaving their job to go back to university for
                a master's. How do we think through the money side?"""
            ),
            A(
                """Treat it as a project with a budget and a timeline.

                - Total cost: fees, materials, and the income lost for the duration, which is
                  usually the largest part.
                - Funding: savings, loans, scholarships, and whether part-time work or study is
                  possible.
                - Household budget during the course: can the rest of your income cover the
                  needs on its own? If not, by how much, and for how long?
                - Return: what does the degree realistically change in job options or earnings?
                  Talk to people who've done it.

                Agree on a buffer before starting, so a surprise doesn't derail the course, and
                revisit the plan at the end of each term."""
            ),
        ],
    ),
)

FILLERS = FILLERS + (
    filler(
        "dataclass_pydantic",
        [
            U("dataclasses or pydantic models for stockroom's internal objects?"),
            A(
                """Use pydantic at the boundaries and plain dataclasses inside.

                Pydantic's strength is validation and parsing: turning untrusted input, such as
                request bodies, CSV rows or supplier API responses, into typed objects, with
                clear errors when the data is wrong. That costs some speed and adds behaviour
                like type coercion, which you want at the edge and not everywhere.

                Inside the application, the data has already been validated. Frozen dataclasses
                with slots are light, fast, and explicit:

                    @dataclass(frozen=True, slots=True)
                    class Reservation:
                        item_id: int
                        quantity: int
                        expires_at: datetime

                Converting between the two at the boundary is a few lines, and it keeps your
                domain logic independent of the web framework. If you find yourself validating
                the same thing twice, that's a sign a boundary is in the wrong place."""
            ),
        ],
    ),
    filler(
        "vacuum",
        [
            U("What is autovacuum actually doing, and should I tune it?"),
            A(
                """Postgres never updates a row in place: an UPDATE writes a new version and marks
                the old one dead, and a DELETE just marks rows dead. Vacuum reclaims the space of
                dead rows so it can be reused, and updates statistics and the visibility map,
                which index-only scans rely on.

                Autovacuum runs this in the background when a table has accumulated enough dead
                rows, by default about a fifth of the table. For large, busy tables that
                threshold is too high: a table of fifty million rows waits for ten million dead
                ones. Lower the scale factor for those tables:

                    ALTER TABLE stock_movements SET (autovacuum_vacuum_scale_factor = 0.02);

                Watch n_dead_tup and last_autovacuum in pg_stat_user_tables. If dead rows keep
                growing, look for long-running transactions; an idle transaction left open
                blocks vacuum from cleaning anything newer than it."""
            ),
        ],
    ),
    filler(
        "etag",
        [
            U("Can I make the item list endpoint cheaper for clients that poll it?"),
            A(
                """Yes, with conditional requests. Send an ETag header with each response, a hash
                or version of the content, and when the client sends it back in If-None-Match,
                reply 304 Not Modified with an empty body if nothing changed.

                    etag = f'W/"{items_version}"'
                    if request.headers.get("if-none-match") == etag:
                        return Response(status_code=304)
                    response.headers["ETag"] = etag

                The cheapest version number is a counter incremented whenever items change, or
                the latest updated_at across the table, so you don't have to build the whole
                response to know it's unchanged.

                Most HTTP clients and browsers handle ETags automatically. For polling clients,
                also consider telling them how often to poll with Cache-Control max-age, or
                moving to server-sent events if updates need to be near real time."""
            ),
        ],
    ),
    filler(
        "feature_flags",
        [
            U("Do I need a feature flag service for stockroom or is that overkill?"),
            A(
                """For a small app, a table or a config file of flags is plenty:

                - A flags table with a name, an on/off value and optionally a list of user ids
                  or a percentage for gradual rollout.
                - A helper `is_enabled("barcode_scanner", user)` that reads it, cached for a
                  minute.
                - An admin page or a SQL statement to flip them.

                The discipline matters more than the tool. Give every flag an owner and an
                expiry date, and remove it, with the old code path, once the feature is fully
                on. Long-lived flags turn into a maze of untested combinations. A hosted service
                becomes worth it when several teams need targeting rules, audit trails and
                experiments."""
            ),
        ],
    ),
    filler(
        "pg_backups",
        [
            U("How should I back up stockroom's database properly?"),
            A(
                """Two layers, depending on how much data you can afford to lose.

                - Nightly logical dumps with pg_dump in custom format, compressed, uploaded to
                  object storage in another region, and kept on a rotation, such as seven daily,
                  four weekly and twelve monthly. Simple and portable.
                - If losing a day of data is unacceptable, continuous archiving of the
                  write-ahead log with a tool like pgBackRest or WAL-G, which allows
                  point-in-time recovery to any moment.

                Managed databases usually offer the second as a setting; turn it on and check
                the retention.

                Whatever you choose, schedule a restore test: restore the latest backup into a
                scratch database every month and run a few sanity queries. Alert if the backup
                job fails or the newest backup is older than expected."""
            ),
        ],
    ),
    filler(
        "minestrone",
        [
            U("I have half a cabbage, some carrots and a tin of beans. Soup?"),
            A(
                """That's most of a minestrone. Soften a chopped onion, the carrots and a stick of
                celery if you have it in olive oil for ten minutes, add garlic, a spoon of tomato
                paste and a tin of tomatoes, then water or stock and a parmesan rind if you keep
                them. Simmer twenty minutes.

                Add the shredded cabbage and the drained beans, plus a handful of small pasta
                or broken spaghetti, and cook until the pasta is tender. Season well, and finish
                each bowl with olive oil, black pepper and grated cheese.

                It's even better the next day. If it thickens too much, add a splash of water;
                minestrone is meant to be loose and forgiving."""
            ),
        ],
    ),
    filler(
        "overnight_oats",
        [
            U("Breakfast ideas that I can prep the night before?"),
            A(
                """A few that take five minutes the evening before:

                - Overnight oats: oats, milk or yoghurt, a spoon of chia seeds and grated apple,
                  left in a jar in the fridge. Top with nuts and fruit in the morning.
                - Baked oat squares: a tray of oats, banana, eggs and berries baked on Sunday,
                  cut into squares for the week.
                - Egg muffins: whisked eggs with spinach, peppers and cheese baked in a muffin
                  tin; they reheat in a minute.
                - Bircher muesli: oats soaked in apple juice and yoghurt, Swiss style.

                Keep a jar of toasted seeds on hand for crunch; it makes all of these feel less
                like meal prep."""
            ),
        ],
    ),
    filler(
        "sharpening",
        [
            U("How do I keep my kitchen knives sharp without ruining them?"),
            A(
                """Distinguish honing from sharpening. A honing steel realigns the edge, which
                rolls over with use; a few light strokes before cooking keep a knife feeling
                sharp for weeks. Sharpening removes metal to create a new edge, needed every few
                months for a home cook.

                For sharpening, a whetstone gives the best results: soak it if it's a water
                stone, hold the blade at a consistent angle, and work the whole edge until you
                feel a small burr on the other side, then switch sides and finish on the finer
                grit. It takes practice, so start with a cheap knife.

                Avoid pull-through sharpeners with coarse wheels, which chew up edges, and never
                put good knives in the dishwasher. Cut on wood or plastic boards, not glass or
                stone."""
            ),
        ],
    ),
    filler(
        "tempo",
        [
            U("What exactly is a tempo run, and how fast should it be?"),
            A(
                """A tempo run is sustained running at a 'comfortably hard' effort, around the
                pace you could race for about an hour. You can speak a few words but wouldn't
                want to chat.

                The point is to raise your lactate threshold, the pace you can hold before
                fatigue builds quickly, which is the main limiter in races from 10K to the
                half.

                A typical session: fifteen minutes easy, twenty minutes at tempo, ten minutes
                easy. Beginners can split the tempo into chunks, like two times ten minutes
                with a short jog between.

                The common mistake is running it too fast, turning it into a race. Finish
                feeling you could have kept going for another ten minutes."""
            ),
        ],
    ),
    filler(
        "taper",
        [
            U("Why does tapering before a race work? It feels like I'm losing fitness."),
            A(
                """You won't lose meaningful fitness in two weeks; you'll lose fatigue. Training
                adaptations take weeks to build and weeks to fade, while tiredness clears in
                days. The taper lets your muscles repair, refill their glycogen stores, and
                your tendons recover, so you start the race fresh.

                It's normal to feel sluggish, restless or even to notice phantom aches during a
                taper; that's your body adjusting to less load, not a sign something is wrong.
                Keep a little intensity, such as short strides or a few minutes at race pace,
                so your legs stay sharp. And resist the urge to squeeze in one last long run;
                the hay is in the barn, as runners say."""
            ),
        ],
    ),
    filler(
        "rainy_lisbon",
        [
            U("What if it rains in Lisbon? Backup plans?"),
            A(
                """Lisbon does get spring showers, usually short ones. Good rainy-day options:

                - The Gulbenkian Museum: a compact, excellent collection from antiquity to
                  Lalique jewellery, with a lovely garden for when it clears.
                - The National Tile Museum in a former convent, the most Lisbon of museums.
                - The Time Out Market for a long lunch with dozens of stalls under one roof.
                - The Oceanarium, if you want something completely different.
                - A long café stop with pastries; Lisbon's cafés are made for waiting out
                  rain.

                Bring a compact umbrella and shoes with grip; the limestone pavements are
                slippery when wet."""
            ),
        ],
    ),
    filler(
        "pension",
        [
            U("I've never looked at my workplace pension. What should I check?"),
            A(
                """A few checks that take half an hour and can make a big difference later:

                - Contribution rates: what you pay and what your employer pays. If your employer
                  matches extra contributions, paying enough to get the full match is usually
                  the best return available anywhere.
                - The fund you're in: most people sit in the default fund. Check its fees and
                  what it invests in; a low-cost global index fund is often a sensible choice.
                - Old pensions from previous jobs: track them down and consider consolidating,
                  after checking for valuable guarantees or exit fees.
                - Beneficiaries: make sure the nomination form names who you'd want.

                Then log in once a year, on your birthday, say, to check it's on track."""
            ),
        ],
    ),
    filler(
        "por_para",
        [
            U("Por or para? My teacher's explanation didn't stick."),
            A(
                """A rough guide: para points forward to a goal or destination; por looks at
                the cause, the route, or the exchange.

                Para: purpose ('estudio para aprender'), recipient ('es para ti'), destination
                ('salgo para Madrid'), deadline ('para el lunes').

                Por: cause ('por la lluvia'), through or along ('paseo por el parque'),
                exchange or price ('lo compré por diez euros'), duration ('por dos horas'),
                means ('por teléfono').

                Fixed expressions just have to be learned: 'por favor', 'por fin', 'por
                ejemplo', 'para siempre'. Write your own example sentence for each use; your
                own sentences stick better than textbook ones."""
            ),
        ],
    ),
    filler(
        "linkedin",
        [
            U("Is it worth polishing my LinkedIn profile for a job search?"),
            A(
                """For tech roles, yes, because recruiters search it constantly. Focus on what
                they see first:

                - A headline that says what you do and what you're looking for, rather than
                  just your current title: 'Backend engineer, Python and Postgres, logistics
                  systems'.
                - An 'about' section of a few lines in plain language, with one or two concrete
                  achievements.
                - Up-to-date experience with the same achievement bullets as your CV.
                - The 'open to work' setting, visible to recruiters only if you don't want your
                  current employer to see it.

                Then make it easy to say yes: reply to recruiters promptly, even to say no
                thanks, and ask for the salary range early."""
            ),
        ],
    ),
    filler(
        "board_games",
        [
            U("Good board games for two people for cosy evenings?"),
            A(
                """Some excellent two-player games, from light to deeper:

                - Jaipur: a quick trading game in a small box; easy to learn, very replayable.
                - Patchwork: build a quilt from Tetris-like pieces; calm and clever.
                - Lost Cities: a card game about expeditions, twenty minutes a game.
                - 7 Wonders Duel: richer, with many paths to victory, still under an hour.
                - The Fox in the Forest: a trick-taking game designed for two.
                - Codenames Duet: cooperative, if you'd rather play together than against each
                  other.

                Patchwork and Jaipur are the safest starting points if one of you isn't sure
                about board games."""
            ),
        ],
    ),
)

FILLERS = FILLERS + (
    filler(
        "openapi_client",
        [
            U("The warehouse team wants a Python client for stockroom's API. Write one by hand?"),
            A(
                """Generate it from the OpenAPI schema FastAPI already publishes at
                /openapi.json. A generator such as openapi-python-client produces typed models
                and functions for every endpoint:

                    openapi-python-client generate --url http://localhost:8000/openapi.json

                The quality of the generated client depends on the schema, so tidy the API
                side first: give every route a stable operation_id (otherwise names are
                derived from paths and change when you refactor), declare response models
                for every endpoint, and document error responses.

                Publish the client as its own small package with a version number tied to the
                API version, and regenerate it in CI whenever the schema changes, with a check
                that fails if someone forgot. A hand-written client drifts from the API within
                weeks; a generated one can't."""
            ),
        ],
    ),
    filler(
        "deploys",
        [
            U("How do I deploy stockroom without a few seconds of errors each time?"),
            A(
                """Errors during deploys usually come from killing the old process while it still
                has requests in flight, or sending traffic to the new one before it's ready.

                - Add a readiness endpoint that returns 200 only once the app has its database
                  connection and has finished starting, and have the load balancer or
                  orchestrator wait for it.
                - Handle SIGTERM gracefully: stop accepting new connections, finish in-flight
                  requests, then exit. Uvicorn does this if you give it a graceful shutdown
                  timeout, and the platform waits long enough.
                - Run at least two instances and replace them one at a time.
                - Make database migrations backwards compatible, so old and new code can run
                  against the same schema during the rollout: add columns first, remove them
                  in a later release.

                With those four, deploys become boring, which is the goal."""
            ),
        ],
    ),
    filler(
        "foam_roller",
        [
            U("Is a massage gun better than a foam roller for recovery?"),
            A(
                """Neither does anything dramatic to muscles, but both can make you feel looser
                and reduce soreness for a while, which is worth something.

                A foam roller is cheap, covers large areas like the quads, calves and back,
                and encourages you to move slowly and breathe. A massage gun is quicker for
                specific spots and easier to use on calves and feet, but costs far more.

                Use either for a few minutes after runs or in the evening, gently: pressing hard
                on sore spots doesn't help more and can irritate them. Sleep, easy days and
                sensible training load do far more for recovery than any gadget."""
            ),
        ],
    ),
    filler(
        "hiking_boots",
        [
            U("We want to do some coastal walks on holiday. Do I need proper hiking boots?"),
            A(
                """For coastal paths in good weather, trail running shoes or light walking shoes
                with grippy soles are usually better than heavy boots: lighter, cooler, and
                comfortable straight away. Boots make sense on rocky, muddy or steep ground, if
                you carry a heavy pack, or if you need ankle support.

                Whatever you choose, break them in before the trip with a few long walks,
                wear proper walking socks, and pack blister plasters. Cliff paths can be
                narrow and crumbly at the edges, so stay on the marked route, and check tide
                times if the walk includes beaches or coves."""
            ),
        ],
    ),
    filler(
        "spanish_music",
        [
            U("Is listening to Spanish music actually useful for learning?"),
            A(
                """It helps more with motivation, rhythm and pronunciation than with grammar, but
                that's worth a lot.

                - Pick songs with clear vocals and look up the lyrics; singing along trains your
                  mouth to form Spanish sounds and links.
                - Ballads and singer-songwriters are easier than fast reggaeton.
                - Translate one song properly each week, noting phrases you'd actually use.
                - Repeated listening makes phrases stick without effort; many learners can trace
                  their first natural use of a tense to a chorus.

                Treat it as a bonus on top of your regular practice, not a replacement."""
            ),
        ],
    ),
    filler(
        "coffee_grinder",
        [
            U("Is a burr grinder really worth it for coffee at home?"),
            A(
                """If you enjoy coffee, it's the single biggest upgrade. Blade grinders chop
                beans into uneven pieces, from dust to chunks, so some over-extract and taste
                bitter while others under-extract and taste sour. A burr grinder produces even
                particles, which makes the brew consistent and lets you adjust the grind to the
                method: fine for espresso, medium for filter, coarse for a cafetière.

                A good hand grinder gives excellent results for little money if you don't mind
                thirty seconds of cranking. Buy whole beans in small bags from a local roaster
                and grind just before brewing; ground coffee loses much of its aroma within
                the hour."""
            ),
        ],
    ),
)

FILLERS = FILLERS + (
    filler(
        "n_plus_one",
        [
            U("The orders page makes 200 queries to render 50 orders. What's going on?"),
            A(
                """That's the N+1 query problem: one query for the orders, then one more per order
                for its lines, and another for each line's item. Lazy loading in the ORM hides
                it, because each attribute access quietly runs a query.

                Tell SQLAlchemy to load the related rows up front:

                    stmt = (
                        select(Order)
                        .options(selectinload(Order.lines).joinedload(OrderLine.item))
                        .order_by(Order.created_at.desc())
                        .limit(50)
                    )

                selectinload fetches all lines for the fifty orders in a single extra query with
                an IN clause; joinedload pulls each line's item in the same query. Three
                queries instead of two hundred.

                To catch this early, log the number of queries per request in development, or
                set lazy="raise" on relationships so accidental lazy loads fail loudly in
                tests."""
            ),
        ],
    ),
    filler(
        "timeouts_http",
        [
            U("What timeouts should stockroom's HTTP server and clients have?"),
            A(
                """Every network call needs a timeout, and the values should nest: each layer's
                timeout shorter than the one calling it.

                - Outgoing calls to suppliers: a connect timeout of a few seconds and a read
                  timeout based on the slowest acceptable response, often ten to thirty seconds.
                - Request handling: if your load balancer gives up after sixty seconds, your app
                  should stop work well before that, or it keeps computing answers nobody will
                  receive.
                - Database statements: a statement timeout on the application role, shorter than
                  the request timeout.
                - Background jobs: a total time limit per job.

                Log timeouts distinctly from other errors, because a rising timeout rate is
                often the first sign of a slow dependency."""
            ),
        ],
    ),
    filler(
        "bread_toppings",
        [
            U("What do I put on good bread besides butter?"),
            A(
                """A few toppings that turn toast into a meal:

                - Ricotta with honey, black pepper and a few thyme leaves.
                - Smashed white beans with garlic, lemon and olive oil, topped with rocket.
                - Tomato rubbed straight onto toasted bread with garlic and salt, Catalan style.
                - Mushrooms fried hard in butter with a splash of sherry and parsley.
                - Labneh with za'atar, cucumber and a drizzle of oil.
                - Peanut butter with sliced banana and a pinch of flaky salt, if nobody at the
                  table has a nut allergy.

                Toast the bread in a pan with a little olive oil rather than a toaster for a
                crisper, richer base."""
            ),
        ],
    ),
    filler(
        "cold_weather_running",
        [
            U("It's getting cold. How do I dress for winter runs?"),
            A(
                """Dress as if it's about ten degrees warmer than it is; you'll heat up within
                minutes and overdressing leaves you soaked in sweat.

                - A thin base layer that wicks sweat, and a light windproof jacket on top for
                  cold or windy days.
                - Tights or leggings once it's properly cold.
                - Gloves and a hat or headband: you lose a lot of comfort through hands and ears,
                  and they're easy to take off and carry.
                - Reflective details and a light for dark mornings or evenings.

                Warm up indoors with a few minutes of mobility before you step out, and start
                the run into the wind so the cold stretch is at the beginning, not when you're
                sweaty on the way home."""
            ),
        ],
    ),
    filler(
        "duolingo",
        [
            U("Is a language app enough on its own to get conversational?"),
            A(
                """On its own, rarely. Apps are good at habit, vocabulary and recognising
                sentence patterns, but they give you little practice producing your own
                sentences in real time, which is what conversation needs.

                Use an app as one part of a mix:

                - Regular speaking practice with a person, even fifteen minutes a week.
                - Listening to natural speech at your level.
                - Reading short texts that interest you.
                - Writing a few sentences about your life and getting them corrected.

                If the app keeps your streak going on busy days, that's valuable; just don't
                mistake a long streak for speaking ability."""
            ),
        ],
    ),
    filler(
        "side_project_time",
        [
            U("How do people keep side projects going with a full-time job?"),
            A(
                """The ones that survive usually have a small, regular slot rather than heroic
                weekends.

                - Pick a fixed, modest window, like two evenings a week for an hour, that you can
                  keep even in busy weeks.
                - End each session by writing the very next step in a note, so the next session
                  starts immediately instead of with twenty minutes of remembering.
                - Keep scope tiny and ship often; a project that's always 'nearly ready' dies.
                - Let yourself pause without guilt during heavy work periods.

                And check in on why you're doing it. Learning, a portfolio and fun are all
                good reasons, but they lead to different choices about what to build."""
            ),
        ],
    ),
)
