"""An optional LLM answer over the evidence E_q and its deterministic post-check."""
