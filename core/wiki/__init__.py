"""Memory Wiki compiler: index, entity, topic and inventory pages with links."""

from arborwiki.core.wiki.compile import compile_wiki, wiki_coverage
from arborwiki.core.wiki.export import export_markdown
from arborwiki.core.wiki.naming import page_filename
from arborwiki.core.wiki.writer import PageWriter, TemplateWriter

__all__ = [
    "PageWriter",
    "TemplateWriter",
    "compile_wiki",
    "export_markdown",
    "page_filename",
    "wiki_coverage",
]
