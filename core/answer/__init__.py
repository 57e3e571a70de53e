"""SPEC §6 step 4: an optional LLM answer over E_q and its deterministic post-check."""
