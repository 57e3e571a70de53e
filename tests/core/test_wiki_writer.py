"""Page writers: an LLM-style writer is used only when its page validates."""

from __future__ import annotations

from arborwiki.core.config import WikiConfig
from arborwiki.core.embedding import load_embedder
from arborwiki.core.wiki import TemplateWriter, compile_wiki
from arborwiki.core.wiki.content import PageContent
from tests.core.wiki_fixtures import USER, claim, snapshot, trajectory

DOG = claim("c1", "s1", "t1", "has pet", "dog", 20, ["D20:1"])


class AppendingWriter:
    """Stands in for an LLM: the template's page plus one sentence, with a chosen citation."""

    def __init__(self, citation: str) -> None:
        self.citation = citation

    def write(self, page: PageContent) -> str:
        return TemplateWriter().write(page) + f"\nThe user mentioned this [{self.citation}].\n"


class SectionlessWriter:
    def write(self, page: PageContent) -> str:
        return f"# {page.title}\n\nA dog.\n"


def compile_with(writer) -> dict[str, str]:
    pages = compile_wiki(
        USER,
        [snapshot("s1", 20, claims=[DOG])],
        [trajectory("t1", ["s1"], 20, "Adopting a dog")],
        [DOG],
        [],
        WikiConfig(),
        load_embedder().embed,
        writer=writer,
    )
    return {p.title: p.markdown for p in pages}


def test_valid_writer_output_is_kept() -> None:
    assert compile_with(AppendingWriter("D20:1"))["pets"].endswith("[D20:1].\n")


def test_invalid_writer_output_falls_back_to_the_template() -> None:
    template = compile_with(None)
    assert compile_with(AppendingWriter("D99:9")) == template  # cites a message it never saw
    sectionless = compile_with(SectionlessWriter())
    assert sectionless["pets"] == template["pets"]
    assert sectionless["Memory index"] == template["Memory index"]  # it dropped the links
    assert "## Core facts" in template["pets"]
